package testenv

import (
	"database/sql"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// ReplicationDSNs are the primary and replica that scripts/mariadb-replication.sh
// starts (make test-replica, make test-binlog); the test skips without them.
func ReplicationDSNs(t testing.TB) (primary, replica string) {
	t.Helper()
	primary, replica = os.Getenv("HMDP_TEST_PRIMARY_DSN"), os.Getenv("HMDP_TEST_REPLICA_DSN")
	if primary == "" || replica == "" {
		t.Skip("HMDP_TEST_PRIMARY_DSN/HMDP_TEST_REPLICA_DSN not set (run under scripts/mariadb-replication.sh: make test-replica)")
	}
	return primary, replica
}

// NewReplicatedDatabase creates a fresh database on the primary of
// ReplicationDSNs, waits until the replica has it too, and returns DSNs of
// it on both; it is dropped when the test ends.
func NewReplicatedDatabase(t testing.TB) (primary, replica string) {
	t.Helper()
	p, r := ReplicationDSNs(t)
	admin, err := sql.Open("mysql", p)
	if err != nil {
		t.Fatal(err)
	}
	radmin, err := sql.Open("mysql", r)
	if err != nil {
		t.Fatal(err)
	}
	name := "hmdp_r_" + RandomHex(6)
	if _, err := admin.Exec("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name)
		_ = admin.Close()
		_ = radmin.Close()
	})
	Eventually(t, 10*time.Second, "the replica has the new database", func() bool {
		var n int
		err := radmin.QueryRow("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?", name).Scan(&n)
		return err == nil && n == 1
	})
	return withDB(t, p, name), withDB(t, r, name)
}

func withDB(t testing.TB, dsn, name string) string {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBName = name
	return cfg.FormatDSN()
}

// WithAddr is dsn with its address replaced (to reach a server through a Proxy).
func WithAddr(t testing.TB, dsn, addr string) string {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Addr = addr
	return cfg.FormatDSN()
}

// Proxy forwards TCP connections on a loopback port to a server; Stop makes
// the server look stopped (connections cut, new ones refused) and Start
// brings it back on the same port.
type Proxy struct {
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

// NewProxy starts a proxy to target, stopped when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	p := &Proxy{target: target, conns: map[net.Conn]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Stop)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Stop closes the listener and every forwarded connection.
func (p *Proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

// Start listens again on the same port.
func (p *Proxy) Start(t testing.TB) {
	t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.serve(ln)
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *Proxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	if !p.track(c, up) {
		_ = c.Close()
		_ = up.Close()
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	pipe := func(dst, src net.Conn) {
		defer wg.Done()
		_, _ = io.Copy(dst, src) // either side closing ends both
		_ = dst.Close()
		_ = src.Close()
	}
	go pipe(up, c)
	go pipe(c, up)
	wg.Wait()
}
