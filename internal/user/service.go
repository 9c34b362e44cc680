package user
type Service struct{}
