// Package model holds GraphQL-only types and scalars.
package model

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
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
			return 0, fmt.Errorf("%q is not an id: ids are decimal integers", v)
		}
		return id, nil
	case json.Number:
		return UnmarshalID(string(v))
	case int64:
		return v, nil
	case int:
		return int64(v), nil
	default:
		return 0, fmt.Errorf("%T is not an id: ids are decimal integers", v)
	}
}
