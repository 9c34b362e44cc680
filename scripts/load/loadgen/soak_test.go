package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Two passes of the soak's mix over every user: each step in its share,
// every like and follow set on in the first pass and off in the second (so
// the data does not grow with the soak's length), the sale's expected
// refusals not counted as failures, other errors counted by step and code.
func TestSoakMix(t *testing.T) {
	type call struct {
		token string
		vars  map[string]any
	}
	var mu sync.Mutex
	calls := map[string][]call{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Query     string         `json:"query"`
			Variables map[string]any `json:"variables"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		op := "browse"
		for _, o := range [][2]string{{"setBlogLike", "setBlogLike"}, {"setFollow", "setFollow"}, {"seckillVoucher", "seckillVoucher"},
			{"vouchers(", "vouchers"}, {"myOrders", "myOrders"}, {"feed(", "feed"}, {"{ me {", "me"}} {
			if strings.Contains(body.Query, o[0]) {
				op = o[1]
				break
			}
		}
		mu.Lock()
		calls[op] = append(calls[op], call{strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), body.Variables})
		n := len(calls[op])
		mu.Unlock()
		switch {
		case op == "seckillVoucher" && n%2 == 0:
			_, _ = w.Write([]byte(`{"errors":[{"message":"sold out","extensions":{"code":"OUT_OF_STOCK"}}],"data":null}`))
		case op == "seckillVoucher":
			_, _ = w.Write([]byte(`{"errors":[{"message":"again","extensions":{"code":"ALREADY_ORDERED"}}],"data":null}`))
		case op == "myOrders" && n == 1:
			_, _ = w.Write([]byte(`{"errors":[{"message":"oops","extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":null}`))
		default:
			_, _ = w.Write([]byte(`{"data":{"x":1}}`))
		}
	}))
	defer srv.Close()

	const users = 4
	r := newRunner(srv.URL, nil, soakSteps)
	r.gql.url = srv.URL // the fake answers on any path
	s := &soaker{runner: r, errors: map[string]int64{},
		tokens: []string{"u0", "u1", "u2", "u3"}, userIDs: []string{"10", "11", "12", "13"}, blogs: []string{"4", "5"}}
	data := setupData{admin: "admin", voucher: "99", subs: []string{"s0", "s1"}}
	const n = 20 * users * 2
	for i := range int64(n) {
		s.step(context.Background(), i, data)
	}

	want := map[string]int{"browse": 9 * users * 2, "me": 2 * users * 2, "feed": 2 * users * 2, "setBlogLike": 2 * users * 2,
		"setFollow": 2 * users * 2, "seckillVoucher": users * 2, "vouchers": users * 2, "myOrders": users * 2}
	for op, w := range want {
		if got := len(calls[op]); got != w {
			t.Errorf("%s: %d requests, want %d", op, got, w)
		}
	}
	// Each (user, target) pair is set on, then off, as often: the data
	// ends as it began.
	for _, op := range []string{"setBlogLike", "setFollow"} {
		state := map[string]int{}
		for _, c := range calls[op] {
			target, on := "", false
			for k, v := range c.vars {
				switch v := v.(type) {
				case bool:
					on = v
				case string:
					target = k + v
				}
			}
			if on {
				state[c.token+" "+target]++
			} else {
				state[c.token+" "+target]--
			}
		}
		for k, v := range state {
			if v != 0 {
				t.Errorf("%s %s: %+d on more than off", op, k, v)
			}
		}
		if len(state) == 0 {
			t.Errorf("%s: no pair seen", op)
		}
	}
	for _, c := range calls["feed"] {
		if c.token != "s0" && c.token != "s1" {
			t.Errorf("feed read as %q, not a subscriber (who follow the author)", c.token)
		}
	}
	if f := r.err["seckill"].failed.Load(); f != 0 {
		t.Errorf("%d seckill attempts counted failed; OUT_OF_STOCK and ALREADY_ORDERED are the sale's answers", f)
	}
	if f := r.err["orders"].failed.Load(); f != 1 || s.errors["orders INTERNAL_SERVER_ERROR"] != 1 {
		t.Errorf("orders failed %d, errors %v", f, s.errors)
	}
}
