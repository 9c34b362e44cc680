package seckill

// TokenRequired reports whether an attempt needs a token from IssueToken
// (TokenConfig.Required, HMDP_SECKILL_TOKEN): clients ask for one only then.
func (s *Service) TokenRequired() bool { return s.cfg.Tokens.Required }
