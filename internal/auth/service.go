package auth
type Service struct{}
