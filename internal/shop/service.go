package shop
type Service struct{}
