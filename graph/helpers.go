package graph

import (
	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/graph/model"
)

func authPayload(token string, u *ent.User, err error) (*model.AuthPayload, error) {
	if err != nil {
		return nil, err
	}
	return &model.AuthPayload{Token: token, User: u}, nil
}

// orEmpty is an optional string argument's value, "" when absent.
func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
