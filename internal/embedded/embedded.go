// Package embedded runs the back ends inside the process, for `make run` and
// tests on a machine without servers: an in-memory Redis (miniredis) and a
// SQLite database file. Real deployments use MySQL and Redis through
// internal/database and internal/redisx, which do not import these engines.
package embedded

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	_ "modernc.org/sqlite" // the SQLite driver, pure Go

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/redisx"
)

// Redis is an in-memory Redis on a loopback port, behind a random password:
// any process on the machine can reach the port, and whoever can write to
// this Redis can write a session and act as anyone, admins included.
type Redis struct {
	// Conn is the client connection; closing it stops the server.
	Conn *redisx.Conn
	// Server is the engine, for tests that move its clock or make it fail.
	Server *miniredis.Miniredis
	// Password is the one the server requires (AUTH), new at each start.
	Password string
}

// StartRedis starts an in-memory Redis on a loopback port, requiring a
// random password of its client. miniredis only expires keys when told that
// time passed, so a ticker moves its clock with the wall clock until the
// connection is closed.
func StartRedis() (*Redis, error) {
	var secret [16]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return nil, fmt.Errorf("start embedded redis: password: %w", err)
	}
	password := hex.EncodeToString(secret[:])
	m := miniredis.NewMiniRedis()
	m.RequireAuth(password) // before the port opens: no moment without it
	if err := m.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("start embedded redis: %w", err)
	}
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), Password: password, ContextTimeoutEnabled: true, PoolSize: redisx.PoolSize()})
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { advanceClock(m, done) })
	stop := func() {
		close(done)
		wg.Wait()
		m.Close()
	}
	return &Redis{Conn: redisx.Wrap(c, "embedded redis "+m.Addr(), stop), Server: m, Password: password}, nil
}

func advanceClock(m *miniredis.Miniredis, done <-chan struct{}) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			m.SetTime(now)
			m.FastForward(now.Sub(last))
			last = now
		}
	}
}

// OpenSQLite opens (creating) the database file at path.
func OpenSQLite(path string, opts ...ent.Option) (*database.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, err
	}
	// WAL lets readers run beside the writer; immediate transactions take the
	// write lock up front so concurrent writers wait (busy_timeout) instead of failing.
	dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate&_time_format=sqlite"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	return database.Wrap(db, dialect.SQLite, "embedded sqlite "+path, opts...), nil
}
