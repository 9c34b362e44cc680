package embedded

import (
	"context"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// The embedded Redis answers only a client that knows its password:
// another local process cannot write a session into it.
func TestRedisRequiresItsPassword(t *testing.T) {
	ctx := context.Background()
	r, err := StartRedis()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Conn.Close()
	if err := r.Conn.Client.Set(ctx, "hmdp:session:x", "admin", 0).Err(); err != nil {
		t.Fatalf("the server's own client: %v", err)
	}
	if len(r.Password) < 32 {
		t.Fatalf("password %q: too short to be random", r.Password)
	}
	for name, pw := range map[string]string{"no password": "", "a wrong one": "hmdp"} {
		other := redis.NewClient(&redis.Options{Addr: r.Server.Addr(), Password: pw, MaxRetries: -1})
		err := other.Set(ctx, "hmdp:session:y", "admin", 0).Err()
		other.Close()
		if err == nil || !strings.Contains(err.Error(), "NOAUTH") && !strings.Contains(err.Error(), "WRONGPASS") {
			t.Errorf("%s: SET answered %v, want refused", name, err)
		}
	}
	if r.Server.Exists("hmdp:session:y") {
		t.Error("a client without the password wrote a key")
	}
	// Each start has its own.
	r2, err := StartRedis()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Conn.Close()
	if r2.Password == r.Password {
		t.Error("two starts share a password")
	}
}
