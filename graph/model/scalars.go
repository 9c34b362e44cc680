// Package model holds GraphQL-only types and scalars.
package model

import (
	"encoding/json"
	"io"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/hmdp/hmdp/internal/apperr"
)

// MarshalID writes an int64 id as its decimal string: order ids use all 63 bits,
// which JavaScript numbers cannot hold.
func MarshalID(id int64) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(strconv.FormatInt(id, 10)))
	})
}

// UnmarshalID accepts a decimal string (or a JSON integer) that fits int64.
func UnmarshalID(v any) (int64, error) {
	switch v := v.(type) {
	case string:
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, apperr.BadInput("", "%q is not an id: ids are decimal integers", v)
		}
		return id, nil
	case json.Number:
		return UnmarshalID(string(v))
	case int64:
		return v, nil
	case int:
		return int64(v), nil
	default:
		return 0, apperr.BadInput("", "ids are decimal integer strings")
	}
}

// MarshalTime writes RFC 3339 with the offset kept.
func MarshalTime(t time.Time) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(t.Format(time.RFC3339)))
	})
}

// UnmarshalTime accepts RFC 3339 ("2026-11-22T10:00:00+08:00").
func UnmarshalTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, apperr.BadInput("", "must be an RFC 3339 time string")
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, apperr.BadInput("", "%q is not an RFC 3339 time like 2026-11-22T10:00:00+08:00", s)
	}
	return t, nil
}
