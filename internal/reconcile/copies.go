package reconcile

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entbloglike "github.com/hmdp/hmdp/ent/bloglike"
	entfollow "github.com/hmdp/hmdp/ent/follow"
	entsign "github.com/hmdp/hmdp/ent/sign"
	"github.com/hmdp/hmdp/lua"
)

// The Redis copies compared, by the key patterns of their services
// (internal/like, internal/follow, internal/signin): "~" is their sentinel,
// bit 31 a sign-in bitmap's marker. A copy without its marker is being
// built or was lost: it is rebuilt by its next reader and not compared.
var (
	likeRebuild = lua.Script("like_rebuild")
	setRebuild  = lua.Script("set_rebuild")
)

const (
	sentinel   = "~"
	signMarker = 31
	signMadeUp = 32
	// scanCount is SCAN's COUNT: keys looked at per round trip. A pattern
	// matches few of a large keyspace's keys, and a pass walks all of it
	// (100 took 4 800 round trips a run on 120 000 keys, half a second).
	scanCount   = 1000
	defaultCopy = 24 * time.Hour // TTL of a rebuilt copy whose key had none
)

// copyKind is one family of copies.
type copyKind struct {
	pattern string // after the prefix
	look    func(j *Job, ctx context.Context, key string) (*copyLook, error)
}

// copyLook is one look at a copy: the differences and what a repair needs.
type copyLook struct {
	key     string
	version string // the version counter read before MySQL
	found   []Finding
	repair  func(ctx context.Context) (bool, error)
}

func (j *Job) kinds() []copyKind {
	return []copyKind{
		{"blog:{*}:likes", (*Job).lookLikes},
		{"follows:{*}", (*Job).lookFollows},
		{"followers:{*}", (*Job).lookFollows},
		{"sign:{*}:*", (*Job).lookSignIns},
	}
}

// scanCursors keeps, per pattern and node, where SCAN resumes.
type scanCursors map[string]uint64

// scanKeys returns up to limit keys matching pattern, resuming where the
// last call stopped (from the start once a pass is complete).
func (j *Job) scanKeys(ctx context.Context, pattern string, limit int) ([]string, error) {
	var mu sync.Mutex
	var keys []string
	scan := func(ctx context.Context, c *redis.Client) error {
		id := pattern + "@" + c.Options().Addr
		mu.Lock()
		cur := j.cursors[id]
		mu.Unlock()
		for {
			mu.Lock()
			full := len(keys) >= limit
			mu.Unlock()
			if full {
				break
			}
			ks, next, err := c.Scan(ctx, cur, pattern, scanCount).Result()
			if err != nil {
				return err
			}
			mu.Lock()
			keys = append(keys, ks...)
			mu.Unlock()
			cur = next
			if cur == 0 {
				break
			}
		}
		mu.Lock()
		j.cursors[id] = cur
		mu.Unlock()
		return nil
	}
	var err error
	switch c := j.cfg.Redis.(type) {
	case *redis.ClusterClient:
		err = c.ForEachMaster(ctx, scan)
	case *redis.Client:
		err = scan(ctx, c)
	default:
		err = fmt.Errorf("reconcile: unsupported Redis client %T", j.cfg.Redis)
	}
	if len(keys) > limit {
		keys = keys[:limit]
	}
	return keys, err
}

type copyCand struct {
	k   copyKind
	key string
	f   []Finding
}

// firstLooks scans up to MaxKeys copies and returns those that differ.
func (j *Job) firstLooks(ctx context.Context, rep *Report) ([]copyCand, error) {
	var cands []copyCand
	budget := j.cfg.MaxKeys
	for _, k := range j.kinds() {
		if budget <= 0 {
			break
		}
		keys, err := j.scanKeys(ctx, j.cfg.Prefix+k.pattern, budget)
		if err != nil {
			return nil, fmt.Errorf("reconcile: scan %s: %w", k.pattern, err)
		}
		budget -= len(keys)
		for _, key := range keys {
			l, err := k.look(j, ctx, key)
			if err != nil {
				return nil, err
			}
			if l == nil {
				continue
			}
			rep.Copies++
			if len(l.found) > 0 {
				cands = append(cands, copyCand{k, key, l.found})
			}
		}
	}
	return cands, nil
}

// copies compares the copies in Redis, at most MaxKeys a run.
func (j *Job) copies(ctx context.Context, opt Options, rep *Report) error {
	cands, err := j.firstLooks(ctx, rep)
	if err != nil {
		return err
	}
	if len(cands) == 0 {
		return nil
	}
	if err := j.settle(ctx); err != nil {
		return err
	}
	for _, c := range cands {
		if err := j.confirmCopy(ctx, opt, rep, c.k, c.key, c.f); err != nil {
			return err
		}
	}
	return nil
}

// confirmCopy looks at key again and reports (and repairs, unless a dry
// run) the findings both looks share.
func (j *Job) confirmCopy(ctx context.Context, opt Options, rep *Report, k copyKind, key string, first []Finding) error {
	l, err := k.look(j, ctx, key)
	if err != nil || l == nil {
		return err
	}
	var confirmed []Finding
	for _, f := range l.found {
		if slices.Contains(first, f) {
			confirmed = append(confirmed, f)
		}
	}
	if len(confirmed) == 0 {
		return nil
	}
	repaired := false
	if !opt.DryRun {
		if repaired, err = l.repair(ctx); err != nil {
			return fmt.Errorf("reconcile: repair %s: %w", key, err)
		}
	}
	for _, f := range confirmed {
		f.Repaired = repaired
		j.report(ctx, rep, f)
	}
	return nil
}

// idOf reads the id in a key's hash tag.
func idOf(key string) (int64, bool) {
	i, k := strings.IndexByte(key, '{'), strings.IndexByte(key, '}')
	if i < 0 || k < i {
		return 0, false
	}
	id, err := strconv.ParseInt(key[i+1:k], 10, 64)
	return id, err == nil && id > 0
}

// diff returns what want has that got lacks, and the reverse.
func diff(got, want map[int64]bool) (missing, extra []int64) {
	for m := range want {
		if !got[m] {
			missing = append(missing, m)
		}
	}
	for m := range got {
		if !want[m] {
			extra = append(extra, m)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}

// readSet reads a set copy (members, or zset members) with its version; nil
// members when the copy is incomplete (no sentinel) or gone.
func (j *Job) readSet(ctx context.Context, key string, zset bool) (map[int64]bool, string, time.Duration, error) {
	var members *redis.StringSliceCmd
	var ver *redis.StringCmd
	var ttl *redis.DurationCmd
	_, err := j.cfg.Redis.TxPipelined(ctx, func(p redis.Pipeliner) error {
		ver = p.Get(ctx, key+":ver")
		if zset {
			members = p.ZRange(ctx, key, 0, -1)
		} else {
			members = p.SMembers(ctx, key)
		}
		ttl = p.PTTL(ctx, key)
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, "", 0, err
	}
	got := map[int64]bool{}
	complete := false
	for _, m := range members.Val() {
		if m == sentinel {
			complete = true
			continue
		}
		if id, err := strconv.ParseInt(m, 10, 64); err == nil {
			got[id] = true
		}
	}
	if !complete {
		return nil, "", 0, nil
	}
	return got, ver.Val(), ttl.Val(), nil
}

// unchanged reports whether key's version is still v (no change was
// mirrored while MySQL was read: else the look is dropped).
func (j *Job) unchanged(ctx context.Context, key, v string) (bool, error) {
	now, err := j.cfg.Redis.Get(ctx, key+":ver").Result()
	if errors.Is(err, redis.Nil) {
		now, err = "", nil
	}
	return err == nil && now == v, err
}

func keepTTL(ttl time.Duration) int64 {
	if ttl <= 0 {
		return defaultCopy.Milliseconds()
	}
	return ttl.Milliseconds()
}

// lookLikes compares a blog's like zset with blog_like.
func (j *Job) lookLikes(ctx context.Context, key string) (*copyLook, error) {
	blog, ok := idOf(key)
	if !ok {
		return nil, nil
	}
	got, ver, ttl, err := j.readSet(ctx, key, true)
	if err != nil || got == nil {
		return nil, err
	}
	rows, err := j.cfg.DB.BlogLike.Query().Where(entbloglike.BlogID(blog)).
		Order(ent.Asc(entbloglike.FieldCreateTime, entbloglike.FieldUserID)).Limit(j.cfg.MaxSaleItems).All(ctx)
	if err != nil {
		return nil, err
	}
	if same, err := j.unchanged(ctx, key, ver); err != nil || !same {
		return nil, err
	}
	want := map[int64]bool{}
	for _, r := range rows {
		want[r.UserID] = true
	}
	l := &copyLook{key: key, version: ver}
	missing, extra := diff(got, want)
	for _, m := range missing {
		l.found = append(l.found, Finding{Kind: LikeMissing, Key: key, Member: m})
	}
	for _, m := range extra {
		l.found = append(l.found, Finding{Kind: LikeExtra, Key: key, Member: m})
	}
	l.repair = func(ctx context.Context) (bool, error) {
		args := []any{ver, sentinel, keepTTL(ttl)}
		for _, r := range rows {
			args = append(args, r.CreateTime.UnixMilli(), fmt.Sprintf("%019d", r.UserID))
		}
		n, err := likeRebuild.Run(ctx, j.cfg.Redis, []string{key, key + ":ver"}, args...).Int64()
		return n == 1, err
	}
	return l, nil
}

// lookFollows compares a follows or followers set with tb_follow.
func (j *Job) lookFollows(ctx context.Context, key string) (*copyLook, error) {
	u, ok := idOf(key)
	if !ok {
		return nil, nil
	}
	followers := strings.HasPrefix(key, j.cfg.Prefix+"followers:")
	got, ver, ttl, err := j.readSet(ctx, key, false)
	if err != nil || got == nil {
		return nil, err
	}
	q := j.cfg.DB.Follow.Query().Limit(j.cfg.MaxSaleItems)
	if followers {
		q = q.Where(entfollow.FollowUserID(u))
	} else {
		q = q.Where(entfollow.UserID(u))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	if same, err := j.unchanged(ctx, key, ver); err != nil || !same {
		return nil, err
	}
	want := map[int64]bool{}
	for _, r := range rows {
		if followers {
			want[r.UserID] = true
		} else {
			want[r.FollowUserID] = true
		}
	}
	l := &copyLook{key: key, version: ver}
	missing, extra := diff(got, want)
	for _, m := range missing {
		l.found = append(l.found, Finding{Kind: FollowMissing, Key: key, User: u, Member: m})
	}
	for _, m := range extra {
		l.found = append(l.found, Finding{Kind: FollowExtra, Key: key, User: u, Member: m})
	}
	l.repair = func(ctx context.Context) (bool, error) {
		args := []any{ver, sentinel, keepTTL(ttl)}
		for m := range want {
			args = append(args, strconv.FormatInt(m, 10))
		}
		n, err := setRebuild.Run(ctx, j.cfg.Redis, []string{key, key + ":ver"}, args...).Int64()
		return n == 1, err
	}
	return l, nil
}

func bitSet(b []byte, i int) bool { return i/8 < len(b) && b[i/8]&(0x80>>(i%8)) != 0 }

// lookSignIns compares a month's sign-in bitmap with tb_sign.
func (j *Job) lookSignIns(ctx context.Context, key string) (*copyLook, error) {
	u, ok := idOf(key)
	month, err := time.Parse("200601", key[strings.LastIndexByte(key, ':')+1:])
	if !ok || err != nil {
		return nil, nil //nolint:nilerr // not a month bitmap
	}
	raw, err := j.cfg.Redis.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !bitSet(raw, signMarker) {
		return nil, nil
	}
	rows, err := j.cfg.DB.Sign.Query().Where(entsign.UserID(u), entsign.Year(month.Year()), entsign.Month(int(month.Month()))).All(ctx)
	if err != nil {
		return nil, err
	}
	want := map[int64]bool{}
	for _, r := range rows {
		d := r.Date.UTC().Day()
		want[int64(d-1)] = true
		if r.IsBackup == 1 {
			want[int64(signMadeUp+d-1)] = true
		}
	}
	got := map[int64]bool{}
	for i := range 63 {
		if i != signMarker && bitSet(raw, i) {
			got[int64(i)] = true
		}
	}
	l := &copyLook{key: key}
	missing, extra := diff(got, want)
	for _, b := range missing {
		l.found = append(l.found, Finding{Kind: SignInMissing, Key: key, User: u, Member: b})
	}
	for _, b := range extra {
		l.found = append(l.found, Finding{Kind: SignInExtra, Key: key, User: u, Member: b})
	}
	l.repair = func(ctx context.Context) (bool, error) {
		if len(extra) > 0 {
			return true, j.cfg.Redis.Del(ctx, key).Err() // rebuilt from MySQL by its next reader
		}
		_, err := j.cfg.Redis.TxPipelined(ctx, func(p redis.Pipeliner) error {
			for _, b := range missing {
				p.SetBit(ctx, key, b, 1)
			}
			return nil
		})
		return err == nil, err
	}
	return l, nil
}
