package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/go-sql-driver/mysql"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/ent"
)

type ctxKey int

const (
	lagTolerantKey ctxKey = iota
	primaryOnlyKey
)

// LagTolerant marks reads made with ctx as ones that may see data a little
// behind the primary (cache misses of shops and shop types, lists, search,
// feed pulls, followers): with replicas configured they go to one of them.
func LagTolerant(ctx context.Context) context.Context {
	return context.WithValue(ctx, lagTolerantKey, true)
}

// PrimaryOnly sends every read made with ctx to the primary, even lag
// tolerant ones: the caller wrote a moment ago and must read its write.
func PrimaryOnly(ctx context.Context) context.Context {
	return context.WithValue(ctx, primaryOnlyKey, true)
}

func wantsReplica(ctx context.Context) bool {
	tolerant, _ := ctx.Value(lagTolerantKey).(bool)
	primary, _ := ctx.Value(primaryOnlyKey).(bool)
	return tolerant && !primary
}

// ReplicaConfig configures the read replicas of OpenMySQL.
type ReplicaConfig struct {
	// DSNs of the replicas (go-sql-driver DSNs, same database as the primary).
	DSNs []string
	// MaxLag: a replica whose Seconds_Behind_Master exceeds it is skipped
	// until it catches up (default 5 s).
	MaxLag time.Duration
	// CheckEvery is how often each replica's replication status is read
	// (default 1 s).
	CheckEvery time.Duration
	// MaxConns is the size of each pool, the primary's and every
	// replica's (default DefaultMaxConns).
	MaxConns   int
	Registerer prometheus.Registerer
	Log        *slog.Logger
}

// replica is one read replica and what the last check found.
type replica struct {
	name string // host:port, the metric label
	db   *sql.DB
	drv  *entsql.Driver
	up   atomic.Bool
	lag  atomic.Int64 // seconds, -1 unknown
}

// router is an ent driver that sends lag-tolerant reads to a healthy
// replica, round robin, and everything else (writes, transactions, reads
// that must see the latest data) to the primary.
type router struct {
	primary  *entsql.Driver
	replicas []*replica
	next     atomic.Uint64
	maxLag   time.Duration
	log      *slog.Logger
	reads    *prometheus.CounterVec
	readsN   sync.Map // backend name -> *atomic.Int64, for Reads

	stop context.CancelFunc
	wg   sync.WaitGroup
}

var _ dialect.Driver = (*router)(nil)

func (r *router) Dialect() string { return r.primary.Dialect() }

// Exec always runs on the primary: it writes.
func (r *router) Exec(ctx context.Context, query string, args, v any) error {
	return r.primary.Exec(ctx, query, args, v)
}

// Tx always runs on the primary, reads included: a transaction sees one
// consistent state and may write.
func (r *router) Tx(ctx context.Context) (dialect.Tx, error) { return r.primary.Tx(ctx) }

// BeginTx is Tx with options (ent uses it when asked for an isolation level).
func (r *router) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	return r.primary.BeginTx(ctx, opts)
}

// Query reads from a healthy replica when ctx allows it. A replica that
// fails the query (gone since its last check) is marked down and the query
// runs again on the primary, so a stopped replica costs no error.
func (r *router) Query(ctx context.Context, query string, args, v any) error {
	if wantsReplica(ctx) {
		if rep := r.pick(); rep != nil {
			err := rep.drv.Query(ctx, query, args, v)
			if err == nil {
				r.count(rep.name)
				return nil
			}
			if ctx.Err() != nil {
				return err
			}
			var serverErr *mysql.MySQLError
			if !errors.As(err, &serverErr) { // the replica did not answer
				rep.up.Store(false)
				r.log.Warn("read replica failed, reading from the primary; skipped until its next check", "replica", rep.name, "err", err)
			}
		}
	}
	r.count("primary")
	return r.primary.Query(ctx, query, args, v)
}

// pick returns the next healthy replica, round robin, nil when none is.
func (r *router) pick() *replica {
	n := len(r.replicas)
	if n == 0 {
		return nil
	}
	start := int(r.next.Add(1) % uint64(n)) //nolint:gosec // below n
	for i := range n {
		rep := r.replicas[(start+i)%n]
		if rep.up.Load() {
			return rep
		}
	}
	return nil
}

func (r *router) count(backend string) {
	c, _ := r.readsN.LoadOrStore(backend, new(atomic.Int64))
	c.(*atomic.Int64).Add(1)
	if r.reads != nil {
		r.reads.WithLabelValues(backend).Inc()
	}
}

func (r *router) Close() error {
	if r.stop != nil {
		r.stop()
	}
	r.wg.Wait()
	errs := []error{r.primary.Close()}
	for _, rep := range r.replicas {
		errs = append(errs, rep.db.Close())
	}
	return errors.Join(errs...)
}

// check reads a replica's replication status: it is up when it answers,
// both replication threads run and it lags at most maxLag.
func (r *router) check(ctx context.Context, rep *replica) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	lag, err := replicationLag(ctx, rep.db)
	was := rep.up.Load()
	up := err == nil && lag <= r.maxLag
	if err != nil {
		rep.lag.Store(-1)
	} else {
		rep.lag.Store(int64(lag / time.Second))
	}
	rep.up.Store(up)
	switch {
	case was && !up:
		r.log.Warn("read replica skipped", "replica", rep.name, "lag", lag, "max_lag", r.maxLag, "err", err)
	case !was && up:
		r.log.Info("read replica in use", "replica", rep.name, "lag", lag)
	}
}

// errNotReplicating: the server answers but is not a running replica.
var errNotReplicating = errors.New("not replicating (SHOW SLAVE STATUS: no row, a stopped thread or no Seconds_Behind_Master)")

// replicationLag is Seconds_Behind_Master of SHOW SLAVE STATUS (MariaDB and
// MySQL both still answer it).
func replicationLag(ctx context.Context, db *sql.DB) (time.Duration, error) {
	rows, err := db.QueryContext(ctx, "SHOW SLAVE STATUS")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	if !rows.Next() {
		return 0, errors.Join(errNotReplicating, rows.Err())
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return 0, err
	}
	status := map[string]sql.NullString{}
	for i, c := range cols {
		status[c] = vals[i]
	}
	if status["Slave_IO_Running"].String != "Yes" || status["Slave_SQL_Running"].String != "Yes" || !status["Seconds_Behind_Master"].Valid {
		return 0, errNotReplicating
	}
	secs, err := strconv.Atoi(status["Seconds_Behind_Master"].String)
	if err != nil {
		return 0, fmt.Errorf("Seconds_Behind_Master %q: %w", status["Seconds_Behind_Master"].String, err)
	}
	return time.Duration(secs) * time.Second, nil
}

// Reads counts the reads each back end served ("primary", or a replica's
// host:port), for tests; /metrics has the same as hmdp_db_reads_total.
func (d *DB) Reads(backend string) int64 {
	if d.router == nil {
		return 0
	}
	c, ok := d.router.readsN.Load(backend)
	if !ok {
		return 0
	}
	return c.(*atomic.Int64).Load()
}

// Replicas lists the replicas' names (host:port) in configuration order.
func (d *DB) Replicas() []string {
	if d.router == nil {
		return nil
	}
	names := make([]string, len(d.router.replicas))
	for i, r := range d.router.replicas {
		names[i] = r.name
	}
	return names
}

// OpenMySQLReplicas opens the primary dsn and the replicas of rc: ent's
// client reads lag-tolerant queries (see LagTolerant) from the replicas.
// Each replica is checked once before it returns, then every CheckEvery.
func OpenMySQLReplicas(ctx context.Context, dsn string, rc ReplicaConfig, opts ...ent.Option) (*DB, error) {
	primary, describe, err := openPool(dsn, rc.MaxConns)
	if err != nil {
		return nil, err
	}
	rc = rc.withDefaults()
	r := &router{primary: entsql.OpenDB(dialect.MySQL, primary), maxLag: rc.MaxLag, log: rc.Log}
	if err := r.openReplicas(rc.DSNs, rc.MaxConns); err != nil {
		_ = r.Close()
		return nil, err
	}
	if rc.Registerer != nil && len(r.replicas) > 0 {
		if err := r.register(rc.Registerer); err != nil {
			_ = r.Close()
			return nil, err
		}
	}
	for _, rep := range r.replicas {
		r.check(ctx, rep)
		if !rep.up.Load() {
			rc.Log.Warn("read replica not in use until it replicates", "replica", rep.name)
		}
	}
	r.startChecks(ctx, rc.CheckEvery)
	db := &DB{
		Client:   ent.NewClient(append([]ent.Option{ent.Driver(r)}, opts...)...),
		SQL:      primary,
		Dialect:  dialect.MySQL,
		Describe: fmt.Sprintf("%s + %d read replica(s)", describe, len(r.replicas)),
		router:   r,
	}
	return db, nil
}

// withDefaults is rc with its zero settings at their defaults.
func (rc ReplicaConfig) withDefaults() ReplicaConfig {
	if rc.MaxLag <= 0 {
		rc.MaxLag = 5 * time.Second
	}
	if rc.CheckEvery <= 0 {
		rc.CheckEvery = time.Second
	}
	if rc.Log == nil {
		rc.Log = slog.Default()
	}
	return rc
}

// openReplicas opens a pool per replica DSN, in order; on an error the
// caller closes r (and the pools opened so far).
func (r *router) openReplicas(dsns []string, maxConns int) error {
	for i, d := range dsns {
		pool, _, err := openPool(d, maxConns)
		if err != nil {
			return fmt.Errorf("replica %d: %w", i+1, err)
		}
		cfg, _ := mysql.ParseDSN(d)
		r.replicas = append(r.replicas, &replica{name: cfg.Addr, db: pool, drv: entsql.OpenDB(dialect.MySQL, pool)})
	}
	return nil
}

// register registers the reads per back end and the replicas in use on reg.
func (r *router) register(reg prometheus.Registerer) error {
	r.reads = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hmdp_db_reads_total",
		Help: "Reads through the database client by the back end that served them (primary or a replica's host:port)."}, []string{"backend"})
	up := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "hmdp_db_replicas_up",
		Help: "Read replicas in use (answering and lagging at most HMDP_REPLICA_MAX_LAG)."}, func() float64 {
		n := 0
		for _, rep := range r.replicas {
			if rep.up.Load() {
				n++
			}
		}
		return float64(n)
	})
	for _, c := range []prometheus.Collector{r.reads, up} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}

// startChecks checks every replica every period until Close. The checks
// outlive ctx (the opening's).
func (r *router) startChecks(ctx context.Context, every time.Duration) {
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r.stop = cancel
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-cctx.Done():
				return
			case <-t.C:
				for _, rep := range r.replicas {
					r.check(cctx, rep)
				}
			}
		}
	}()
}

// ReplicaLag is the largest lag the last checks measured among the replicas
// in use (whole seconds, as MySQL reports it; 0 without replicas).
func (d *DB) ReplicaLag() time.Duration {
	if d.router == nil {
		return 0
	}
	var most int64
	for _, r := range d.router.replicas {
		if r.up.Load() {
			most = max(most, r.lag.Load())
		}
	}
	return time.Duration(most) * time.Second
}
