// Package binlog turns row changes in the MySQL binlog into cache
// invalidations (the canal approach): one instance at a time, elected with a
// lock of internal/lock, tails the primary's row binlog and calls a handler
// per changed table with the ids of the changed rows. The position reached is
// kept in Redis after each transaction, so the next leader (or this one
// restarted) resumes there; when that position was purged from the binlog
// (a gap), OnGap clears what the lost events could have invalidated.
package binlog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gomysql "github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"
	"github.com/go-sql-driver/mysql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/lock"
)

// Handler invalidates what depends on the rows ids of its table; it must be
// idempotent (after a crash the events since the last kept position come
// again).
type Handler func(ctx context.Context, ids []int64) error

// Config configures a Tailer.
type Config struct {
	// DSN is the primary's go-sql-driver DSN: its user needs REPLICATION
	// SLAVE and REPLICATION CLIENT (BINLOG MONITOR on MariaDB), and only
	// changes in its database are followed.
	DSN    string
	Redis  redis.UniversalClient
	Prefix string
	// Locker elects the one tailer; its watchdog lease bounds how long a
	// dead leader holds the binlog up.
	Locker *lock.Locker
	// Tables maps a table name to its handler (row ids come from its first
	// column, the primary key of every table followed).
	Tables map[string]Handler
	// OnGap clears every cache the handlers serve: events were lost.
	OnGap      func(ctx context.Context) error
	Registerer prometheus.Registerer
	Log        *slog.Logger
	// Retry is the pause between election attempts and after a failure
	// (default 500 ms).
	Retry time.Duration
}

// ErrUnavailable means the server has no usable row binlog for us (binlog off,
// not ROW/FULL, missing privileges, or not reachable over TCP).
var ErrUnavailable = errors.New("binlog unavailable")

// Tailer follows the binlog while it leads.
type Tailer struct {
	cfg     Config
	my      *mysql.Config
	db      *sql.DB
	leading atomic.Bool
	applied *prometheus.CounterVec
	posKey  string
	// metrics are the collectors registered with cfg.Registerer; Close
	// unregisters them, so an instance that found no usable binlog does not
	// export a leader gauge of 0 (which reads as "leaderless" to the alerts).
	metrics []prometheus.Collector

	stop context.CancelFunc
	wg   sync.WaitGroup
}

// New returns a tailer of cfg.DSN; Check whether it can work, then Start.
func New(cfg Config) (*Tailer, error) {
	my, err := mysql.ParseDSN(cfg.DSN)
	if err != nil {
		return nil, fmt.Errorf("binlog: parse DSN: %w", err)
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Retry <= 0 {
		cfg.Retry = 500 * time.Millisecond
	}
	db, err := sql.Open("mysql", cfg.DSN)
	if err != nil {
		return nil, err
	}
	t := &Tailer{cfg: cfg, my: my, db: db, posKey: cfg.Prefix + "binlog:position"}
	t.applied = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hmdp_binlog_rows_total",
		Help: "Changed rows read from the binlog and invalidated, by table."}, []string{"table"})
	if cfg.Registerer != nil {
		leader := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "hmdp_binlog_leader",
			Help: "1 while this instance tails the binlog."}, func() float64 {
			if t.leading.Load() {
				return 1
			}
			return 0
		})
		for _, c := range []prometheus.Collector{t.applied, leader} {
			if err := cfg.Registerer.Register(c); err != nil {
				t.unregister()
				_ = db.Close()
				return nil, err
			}
			t.metrics = append(t.metrics, c)
		}
	}
	return t, nil
}

// Check reports (an error matching ErrUnavailable) when the server cannot be
// tailed: binlog off, a format other than ROW with FULL images, or no
// right to read the binlog's status.
func (t *Tailer) Check(ctx context.Context) error {
	if t.my.Net != "tcp" {
		return fmt.Errorf("%w: the DSN is not tcp(host:port)", ErrUnavailable)
	}
	var logBin int
	var format, image string
	if err := t.db.QueryRowContext(ctx, "SELECT @@log_bin, @@binlog_format, @@binlog_row_image").Scan(&logBin, &format, &image); err != nil {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if logBin != 1 || format != "ROW" || image != "FULL" {
		return fmt.Errorf("%w: log_bin=%d binlog_format=%s binlog_row_image=%s (want 1, ROW, FULL)", ErrUnavailable, logBin, format, image)
	}
	if _, err := t.masterPosition(ctx); err != nil {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return nil
}

// Leading reports whether this instance tails the binlog now.
func (t *Tailer) Leading() bool { return t.leading.Load() }

// Start runs for leadership until Close; the leader tails.
func (t *Tailer) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	t.stop = cancel
	t.wg.Go(func() {
		pause := t.cfg.Retry
		for ctx.Err() == nil {
			err := t.cfg.Locker.WithLock(ctx, "binlog", 0, t.lead)
			switch {
			case ctx.Err() != nil:
				return
			case errors.Is(err, lock.ErrNotAcquired):
				pause = t.cfg.Retry
			case err != nil:
				// A failure that repeats (say, no REPLICATION SLAVE grant)
				// is retried ever less often, up to every 30 s.
				t.cfg.Log.Warn("binlog tailing stopped; retrying", "err", err, "in", pause)
			}
			select {
			case <-ctx.Done():
			case <-time.After(pause):
			}
			if err != nil && !errors.Is(err, lock.ErrNotAcquired) {
				pause = min(2*pause, 30*time.Second)
			}
		}
	})
}

// Close stops tailing (releasing the lock, so another instance takes over
// at once) and closes the connection.
func (t *Tailer) Close() {
	if t.stop != nil {
		t.stop()
	}
	t.wg.Wait()
	_ = t.db.Close()
	t.unregister()
}

func (t *Tailer) unregister() {
	for _, c := range t.metrics {
		t.cfg.Registerer.Unregister(c)
	}
	t.metrics = nil
}

// lead tails from the kept position while ctx (the lock's) lasts.
func (t *Tailer) lead(ctx context.Context) error {
	t.leading.Store(true)
	defer t.leading.Store(false)
	pos, err := t.startPosition(ctx)
	if err != nil {
		return err
	}
	t.cfg.Log.Info("binlog: tailing", "file", pos.Name, "pos", pos.Pos)
	host, port, err := net.SplitHostPort(t.my.Addr)
	if err != nil {
		return err
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return err
	}
	flavor := gomysql.MySQLFlavor
	var version string
	if err := t.db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		return err
	}
	if strings.Contains(strings.ToLower(version), "mariadb") {
		flavor = gomysql.MariaDBFlavor
	}
	syncer := replication.NewBinlogSyncer(replication.BinlogSyncerConfig{
		// Unique among the primary's replicas (theirs are small numbers).
		ServerID: 1<<30 + rand.Uint32N(1<<30), //nolint:gosec // uniqueness, not secrecy
		Flavor:   flavor, Host: host, Port: uint16(p), User: t.my.User, Password: t.my.Passwd,
		HeartbeatPeriod: 5 * time.Second, ReadTimeout: 15 * time.Second, Logger: t.cfg.Log,
	})
	defer syncer.Close()
	stream, err := syncer.StartSync(pos)
	if err != nil {
		return err
	}
	pending := map[string][]int64{}
	for {
		ev, err := stream.GetEvent(ctx)
		if err != nil {
			return err
		}
		switch e := ev.Event.(type) {
		case *replication.RotateEvent:
			pos = gomysql.Position{Name: string(e.NextLogName), Pos: uint32(e.Position)} //nolint:gosec // binlog offsets are 32-bit
			continue
		case *replication.RowsEvent:
			t.collect(e, pending)
		case *replication.XIDEvent, *replication.QueryEvent:
			// A transaction's end (XID; COMMIT or DDL as a query event):
			// invalidate what it changed, then keep the position after it.
			if ev.Header.LogPos > 0 {
				pos.Pos = ev.Header.LogPos
			}
			if err := t.flush(ctx, pending); err != nil {
				return err
			}
			if err := t.cfg.Redis.Set(ctx, t.posKey, pos.Name+":"+strconv.FormatUint(uint64(pos.Pos), 10), 0).Err(); err != nil {
				return err
			}
			continue
		}
		if ev.Header.LogPos > 0 {
			pos.Pos = ev.Header.LogPos
		}
	}
}

func (t *Tailer) collect(e *replication.RowsEvent, pending map[string][]int64) {
	if string(e.Table.Schema) != t.my.DBName {
		return
	}
	table := string(e.Table.Table)
	if _, ok := t.cfg.Tables[table]; !ok {
		return
	}
	for _, row := range e.Rows {
		if len(row) == 0 {
			continue
		}
		switch id := row[0].(type) {
		case int64:
			pending[table] = append(pending[table], id)
		case uint64:
			pending[table] = append(pending[table], int64(id)) //nolint:gosec // ids fit in int64
		case int32:
			pending[table] = append(pending[table], int64(id))
		}
	}
}

func (t *Tailer) flush(ctx context.Context, pending map[string][]int64) error {
	for table, ids := range pending {
		if err := t.cfg.Tables[table](ctx, ids); err != nil {
			return fmt.Errorf("binlog: invalidate %s %v: %w", table, ids, err)
		}
		t.applied.WithLabelValues(table).Add(float64(len(ids)))
		delete(pending, table)
	}
	return nil
}

// startPosition is the kept position; when there is none, the primary's
// current one; when the kept one was purged (a gap), OnGap runs first.
func (t *Tailer) startPosition(ctx context.Context) (gomysql.Position, error) {
	kept, err := t.cfg.Redis.Get(ctx, t.posKey).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return gomysql.Position{}, err
	}
	if kept != "" {
		name, p, _ := strings.Cut(kept, ":")
		n, perr := strconv.ParseUint(p, 10, 32)
		have, err := t.binlogFiles(ctx)
		if err != nil {
			return gomysql.Position{}, err
		}
		if perr == nil && have[name] {
			return gomysql.Position{Name: name, Pos: uint32(n)}, nil
		}
		t.cfg.Log.Warn("binlog: the kept position is gone from the binlog (purged); clearing the caches", "position", kept)
		if t.cfg.OnGap != nil {
			if err := t.cfg.OnGap(ctx); err != nil {
				return gomysql.Position{}, fmt.Errorf("binlog: clear caches after a gap: %w", err)
			}
		}
	}
	return t.masterPosition(ctx)
}

func (t *Tailer) masterPosition(ctx context.Context) (gomysql.Position, error) {
	rows, err := t.db.QueryContext(ctx, "SHOW MASTER STATUS")
	if err != nil {
		return gomysql.Position{}, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return gomysql.Position{}, err
	}
	if !rows.Next() {
		return gomysql.Position{}, errors.Join(errors.New("SHOW MASTER STATUS: no row (binlog off or no privilege)"), rows.Err())
	}
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return gomysql.Position{}, err
	}
	p, err := strconv.ParseUint(string(vals[1]), 10, 32)
	if err != nil {
		return gomysql.Position{}, err
	}
	return gomysql.Position{Name: string(vals[0]), Pos: uint32(p)}, nil
}

func (t *Tailer) binlogFiles(ctx context.Context) (map[string]bool, error) {
	rows, err := t.db.QueryContext(ctx, "SHOW BINARY LOGS")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for rows.Next() {
		vals := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		have[string(vals[0])] = true
	}
	return have, rows.Err()
}
