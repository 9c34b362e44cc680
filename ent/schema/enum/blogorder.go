package enum

import (
	"fmt"
	"io"
	"strconv"
)

// BlogOrder is how blogsByShop sorts a shop's blogs (GraphQL BlogOrder); it
// is never stored.
type BlogOrder int

const (
	// BlogNewest is newest first.
	BlogNewest BlogOrder = iota
	// BlogMostLiked is most liked first; ties newest first.
	BlogMostLiked
)

var blogOrderNames = [...]string{"NEWEST", "MOST_LIKED"}

// String is the GraphQL name ("MOST_LIKED").
func (o BlogOrder) String() string {
	if o < 0 || int(o) >= len(blogOrderNames) {
		return "BlogOrder(" + strconv.Itoa(int(o)) + ")"
	}
	return blogOrderNames[o]
}

// MarshalGQL writes the GraphQL enum value.
func (o BlogOrder) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(o.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (o *BlogOrder) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range blogOrderNames {
		if name == str {
			*o = BlogOrder(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not a BlogOrder", v)
}
