// Package feed delivers new blogs to their authors' followers.
//
// Push: publishing a blog adds it to every follower's inbox ZSET (member =
// zero-padded blog id, score = publish time in ms) in pipelined batches; an
// inbox keeps its newest InboxSize entries and is a copy: it expires
// InboxTTL after it was last read (a push does not extend it), and its next
// reader rebuilds it from MySQL. Pull: an author with more than
// PushLimit followers is not pushed (one post would cost that many writes);
// readers merge such authors' posts from MySQL at read time. Once an author is
// pulled, they stay pulled, so the switch never hides earlier posts.
//
// Paging is a scroll over (score, id): a page ends at the last item's score
// and id, and the next page starts strictly below it. Posts that arrive
// between page reads are newer than every cursor, so they cause neither
// repeats nor gaps, even when many share one millisecond.
//
// Live delivery: a publish also sends the blog, with a snapshot of its
// author, to the followers' live subscriptions across instances
// (internal/pubsub), so no subscriber looks the author up again. A pushed
// author's post goes to each follower's topic. A pulled author's post is
// published once, on PulledTopic: every instance with feed subscribers
// relays it to those of its own subscribers who follow the author (one
// SMISMEMBER on the author's follower set per 1000 local viewers), so the
// post costs one PUBLISH however many followers there are.
package feed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/rediscache"
	"github.com/hmdp/hmdp/lua"
)

// feedAdd adds posts to an inbox, trims it and gives it a TTL.
var feedAdd = lua.Script("feed_add")

// Defaults.
const (
	InboxSize = 1000
	// DefaultInboxTTL is how long an inbox not read is kept: a day, so
	// Redis holds the inboxes of the people reading, not of everyone who
	// ever followed someone.
	DefaultInboxTTL  = 24 * time.Hour
	DefaultPushLimit = 5000
	batchSize        = 500
	// relayBuffer is how many pulled authors' posts an instance's relay may
	// fall behind (each costs it a round trip) before the broker drops it
	// and it subscribes again.
	relayBuffer = 1024
	// relayBatch is how many local viewers one SMISMEMBER asks about.
	relayBatch = 1000
)

// sentinel (score -inf) marks a complete inbox.
const sentinel = "~"

// FollowSets is what the feed reads of the follow graph (follow.Sets).
type FollowSets interface {
	FollowerCount(ctx context.Context, author int64) (int, error)
	FollowersAmong(ctx context.Context, author int64, users []int64) ([]bool, error)
	FollowersOf(ctx context.Context, author int64) ([]int64, error)
	FolloweesOf(ctx context.Context, u int64) ([]int64, error)
	FollowedBy(ctx context.Context, viewer int64, targets []int64) ([]bool, error)
}

// Config holds the service's dependencies and tunables; zero values take
// the defaults.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Prefix string // Redis key prefix ("hmdp:")
	// Follows reads the follow sets (follow.Sets, shared with the follow service).
	Follows FollowSets
	// Broker carries new blogs to the followers' live subscriptions.
	Broker *pubsub.Broker
	// PushLimit: authors with more followers are pulled, not pushed
	// (default DefaultPushLimit).
	PushLimit int
	// InboxTTL: an inbox not read for this long expires (default
	// DefaultInboxTTL).
	InboxTTL time.Duration
	Log      *slog.Logger // default slog.Default()
	// RelayBuffer: pulled authors' posts the relay may fall behind before
	// it is dropped and subscribes again (default relayBuffer; tests).
	RelayBuffer int
}

// Service is the feed service.
type Service struct {
	db        *ent.Client
	rdb       redis.UniversalClient
	prefix    string
	follows   FollowSets
	broker    *pubsub.Broker
	log       *slog.Logger
	pushLimit int
	inboxTTL  time.Duration
	relayBuf  int

	// The relay of pulled authors' posts to this instance's subscribers.
	mu      sync.Mutex
	viewers map[int64]int // local feedItems subscriptions per viewer
	relay   *pubsub.Sub   // nil until the first subscription, or after a drop
}

// New returns the service.
func New(cfg Config) *Service {
	if cfg.PushLimit <= 0 {
		cfg.PushLimit = DefaultPushLimit
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.RelayBuffer <= 0 {
		cfg.RelayBuffer = relayBuffer
	}
	if cfg.InboxTTL <= 0 {
		cfg.InboxTTL = DefaultInboxTTL
	}
	return &Service{relayBuf: cfg.RelayBuffer, inboxTTL: cfg.InboxTTL, db: cfg.DB, rdb: cfg.Redis, prefix: cfg.Prefix, follows: cfg.Follows,
		broker: cfg.Broker, log: cfg.Log, pushLimit: cfg.PushLimit, viewers: map[int64]int{}}
}

func (s *Service) inboxKey(u int64) string { return fmt.Sprintf("%sfeed:{%d}", s.prefix, u) }
func (s *Service) pulledKey() string       { return s.prefix + "feed:pulled" }

// Topic is the subscription topic of a viewer's new feed items.
func Topic(viewer int64) string { return "feed:" + strconv.FormatInt(viewer, 10) }

// PulledTopic carries every pulled author's new posts to the instances'
// relays.
const PulledTopic = "feed:pulled"

func member(blogID int64) string { return fmt.Sprintf("%019d", blogID) }

// Score is a blog's place in the feeds.
func Score(b *ent.Blog) int64 { return b.CreateTime.UnixMilli() }

// Published pushes b to its author's followers' inboxes (or marks the author
// as pulled) and sends it to their live subscriptions: a pushed author's to
// each follower's topic, a pulled author's once to PulledTopic.
func (s *Service) Published(ctx context.Context, b *ent.Blog) error {
	n, err := s.follows.FollowerCount(ctx, b.UserID)
	if err != nil || n == 0 {
		return err
	}
	payload, err := s.event(ctx, b)
	if err != nil {
		return err
	}
	if n > s.pushLimit {
		return errors.Join(s.rdb.SAdd(ctx, s.pulledKey(), b.UserID).Err(),
			s.broker.Publish(ctx, PulledTopic, payload))
	}
	followers, err := s.follows.FollowersOf(ctx, b.UserID)
	if err != nil {
		return err
	}
	pushErr := s.push(ctx, followers, Score(b), b.ID)
	msgs := make([]pubsub.Message, len(followers))
	for i, f := range followers {
		msgs[i] = pubsub.Message{Topic: Topic(f), Payload: payload}
	}
	return errors.Join(pushErr, s.broker.PublishMany(ctx, msgs, batchSize))
}

// event is b as live subscribers get it: with a snapshot of its author's
// public fields (not the phone), read once here rather than once per
// subscriber when their selections ask for the author.
func (s *Service) event(ctx context.Context, b *ent.Blog) ([]byte, error) {
	e := *b
	e.Edges = ent.BlogEdges{}
	u, err := s.db.User.Query().Where(entuser.ID(b.UserID)).
		Select(entuser.FieldID, entuser.FieldNickName, entuser.FieldIcon, entuser.FieldCreateTime, entuser.FieldUpdateTime).
		Only(ctx)
	switch {
	case err == nil:
		e.Edges.Author = u
	case !ent.IsNotFound(err):
		return nil, err
	}
	return json.Marshal(&e)
}

// push adds one blog to inboxes in pipelined batches (add).
func (s *Service) push(ctx context.Context, inboxes []int64, score, blogID int64) error {
	m := member(blogID)
	for start := 0; start < len(inboxes); start += batchSize {
		err := lua.RunPipelined(ctx, s.rdb, feedAdd, func(p redis.Pipeliner) {
			for _, u := range inboxes[start:min(start+batchSize, len(inboxes))] {
				s.add(ctx, p, u, false, score, m)
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// add queues on p the addition of score, member pairs to u's inbox, trimmed
// to the newest InboxSize (rank 0, the sentinel at -inf, is kept); rebuilt
// sets the inbox's TTL anew, otherwise only an inbox without one gets it.
func (s *Service) add(ctx context.Context, p redis.Scripter, u int64, rebuilt bool, pairs ...any) {
	refresh := "0"
	if rebuilt {
		refresh = "1"
	}
	args := append([]any{InboxSize, rediscache.Jitter(s.inboxTTL, 0.1).Milliseconds(), refresh}, pairs...)
	feedAdd.EvalSha(ctx, p, []string{s.inboxKey(u)}, args...)
}

// Deleted takes b out of its followers' inboxes.
func (s *Service) Deleted(ctx context.Context, b *ent.Blog) error {
	followers, err := s.follows.FollowersOf(ctx, b.UserID)
	if err != nil {
		return err
	}
	m := member(b.ID)
	for start := 0; start < len(followers); start += batchSize {
		pipe := s.rdb.Pipeline()
		for _, u := range followers[start:min(start+batchSize, len(followers))] {
			pipe.ZRem(ctx, s.inboxKey(u), m)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// FollowChanged adds the author's recent posts to the follower's inbox on a
// follow, and takes them out on an unfollow, so the feed always shows the
// people one follows now.
func (s *Service) FollowChanged(ctx context.Context, follower, author int64, follows bool) error {
	bs, err := s.db.Blog.Query().Where(entblog.UserID(author)).
		Order(ent.Desc(entblog.FieldCreateTime, entblog.FieldID)).Limit(InboxSize).
		Select(entblog.FieldID, entblog.FieldCreateTime).All(ctx)
	if err != nil || len(bs) == 0 {
		return err
	}
	if !follows {
		ms := make([]any, len(bs))
		for i, b := range bs {
			ms[i] = member(b.ID)
		}
		return s.rdb.ZRem(ctx, s.inboxKey(follower), ms...).Err()
	}
	pairs := make([]any, 0, 2*len(bs))
	for _, b := range bs {
		pairs = append(pairs, Score(b), member(b.ID))
	}
	return lua.RunPipelined(ctx, s.rdb, feedAdd, func(p redis.Pipeliner) { s.add(ctx, p, follower, false, pairs...) })
}

// item is one feed entry.
type item struct{ score, id int64 }

func (a item) before(b item) bool { // newer first
	return a.score > b.score || (a.score == b.score && a.id > b.id)
}

// Read returns viewer's feed page after the cursor, newest first.
func (s *Service) Read(ctx context.Context, viewer int64, first *int, after *string) (*blog.Page, error) {
	ctx = database.LagTolerant(ctx) // feed pulls may read a replica
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	from := item{score: math.MaxInt64, id: math.MaxInt64}
	if c != nil {
		sc, err := page.Int(c.Value)
		if err != nil {
			return nil, err
		}
		from = item{score: sc, id: c.ID}
	}
	items, err := s.inbox(ctx, viewer, from, n+1, true)
	if err != nil {
		return nil, err
	}
	pulled, err := s.pulled(ctx, viewer, from, n+1)
	if err != nil {
		return nil, err
	}
	items = merge(items, pulled, n+1)

	ids := make([]int64, len(items))
	for i, it := range items {
		ids[i] = it.id
	}
	bs, err := s.db.Blog.Query().Where(entblog.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*ent.Blog, len(bs))
	for _, b := range bs {
		byID[b.ID] = b
	}
	cursor := func(it item) page.Cursor { return page.Cursor{ID: it.id, Value: it.score} }
	p := &blog.Page{Info: page.Make(len(items), n, func(i int) page.Cursor { return cursor(items[i]) })}
	var gone []any
	for i, it := range items {
		if i == n {
			break
		}
		if b := byID[it.id]; b != nil {
			p.Edges = append(p.Edges, blog.Edge{Cursor: cursor(it), Node: b})
		} else {
			gone = append(gone, member(it.id)) // deleted meanwhile
		}
	}
	if len(gone) > 0 {
		if err := s.rdb.ZRem(ctx, s.inboxKey(viewer), gone...).Err(); err != nil {
			s.log.WarnContext(ctx, "feed: drop deleted blogs", "err", err)
		}
	}
	return p, nil
}

// inbox reads up to n inbox items strictly after from (one round trip),
// rebuilding the inbox from MySQL first when it is missing.
func (s *Service) inbox(ctx context.Context, viewer int64, from item, n int, rebuild bool) ([]item, error) {
	k := s.inboxKey(viewer)
	pipe := s.rdb.Pipeline()
	full := pipe.ZScore(ctx, k, sentinel)
	pipe.PExpire(ctx, k, s.inboxTTL) // read: kept another InboxTTL (no-op when missing)
	var same *redis.ZSliceCmd
	max := "+inf"
	if from.score != math.MaxInt64 {
		// Items with the cursor's own score come back whole and are cut by
		// id here; below it the range is exclusive.
		same = pipe.ZRevRangeByScoreWithScores(ctx, k, &redis.ZRangeBy{Min: fmt.Sprint(from.score), Max: fmt.Sprint(from.score)})
		max = "(" + fmt.Sprint(from.score)
	}
	below := pipe.ZRevRangeByScoreWithScores(ctx, k, &redis.ZRangeBy{Min: "(-inf", Max: max, Count: int64(n)})
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	if full.Err() != nil {
		if !rebuild {
			return nil, errors.New("feed: inbox still missing after rebuild")
		}
		if err := s.rebuild(ctx, viewer); err != nil {
			return nil, err
		}
		return s.inbox(ctx, viewer, from, n, false)
	}
	var out []item
	add := func(zs []redis.Z) error {
		for _, z := range zs {
			m, _ := z.Member.(string)
			if m == sentinel {
				continue
			}
			id, err := strconv.ParseInt(m, 10, 64)
			if err != nil {
				return fmt.Errorf("feed: bad inbox member %q", m)
			}
			if it := (item{int64(z.Score), id}); from.before(it) {
				out = append(out, it)
			}
		}
		return nil
	}
	if same != nil {
		if err := add(same.Val()); err != nil {
			return nil, err
		}
	}
	if err := add(below.Val()); err != nil {
		return nil, err
	}
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// rebuild fills a missing inbox with the newest posts of everyone viewer
// follows. It merges into whatever is there (pushes that raced with it stay).
func (s *Service) rebuild(ctx context.Context, viewer int64) error {
	followees, err := s.follows.FolloweesOf(ctx, viewer)
	if err != nil {
		return err
	}
	pairs := []any{"-inf", sentinel}
	if len(followees) > 0 {
		bs, err := s.db.Blog.Query().Where(entblog.UserIDIn(followees...)).
			Order(ent.Desc(entblog.FieldCreateTime, entblog.FieldID)).Limit(InboxSize).
			Select(entblog.FieldID, entblog.FieldCreateTime).All(ctx)
		if err != nil {
			return err
		}
		for _, b := range bs {
			pairs = append(pairs, Score(b), member(b.ID))
		}
	}
	return lua.RunPipelined(ctx, s.rdb, feedAdd, func(p redis.Pipeliner) { s.add(ctx, p, viewer, true, pairs...) })
}

// pulled reads up to n posts strictly after from by the pulled authors that
// viewer follows.
func (s *Service) pulled(ctx context.Context, viewer int64, from item, n int) ([]item, error) {
	ms, err := s.rdb.SMembers(ctx, s.pulledKey()).Result()
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	authors := make([]int64, 0, len(ms))
	for _, m := range ms {
		if id, err := strconv.ParseInt(m, 10, 64); err == nil {
			authors = append(authors, id)
		}
	}
	follows, err := s.follows.FollowedBy(ctx, viewer, authors)
	if err != nil {
		return nil, err
	}
	var mine []int64
	for i, a := range authors {
		if follows[i] {
			mine = append(mine, a)
		}
	}
	if len(mine) == 0 {
		return nil, nil
	}
	q := s.db.Blog.Query().Where(entblog.UserIDIn(mine...))
	if from.score != math.MaxInt64 {
		t := timeOf(from.score)
		q = q.Where(entblog.Or(entblog.CreateTimeLT(t), entblog.And(entblog.CreateTime(t), entblog.IDLT(from.id))))
	}
	bs, err := q.Order(ent.Desc(entblog.FieldCreateTime, entblog.FieldID)).Limit(n).
		Select(entblog.FieldID, entblog.FieldCreateTime).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]item, len(bs))
	for i, b := range bs {
		out[i] = item{Score(b), b.ID}
	}
	return out, nil
}

// merge combines two newest-first lists without duplicates, keeping n.
func merge(a, b []item, n int) []item {
	seen := make(map[int64]bool, len(a)+len(b))
	var out []item
	for _, it := range append(slices.Clone(a), b...) {
		if !seen[it.id] {
			seen[it.id] = true
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(x, y item) int {
		if x.before(y) {
			return -1
		}
		if y.before(x) {
			return 1
		}
		return 0
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func timeOf(ms int64) time.Time { return time.UnixMilli(ms) }

// Subscribe streams the viewer's new feed items until ctx ends. onEnd gets
// the reason when the broker ends the stream (a client too slow to keep up).
// The blogs are shared by every subscription of the viewer: read-only. A
// blog carries its author (Edges.Author) when the author still existed.
func (s *Service) Subscribe(ctx context.Context, viewer int64, onEnd func(error)) (<-chan *ent.Blog, error) {
	// Counted before listening, so that a pulled author's post published
	// once Subscribe returned finds the viewer.
	if err := s.addViewer(ctx, viewer); err != nil {
		return nil, err
	}
	ch, err := pubsub.Listen(ctx, s.broker, "feedItems", Topic(viewer), blogEvents, onEnd)
	if err != nil {
		s.removeViewer(viewer)
		return nil, err
	}
	context.AfterFunc(ctx, func() { s.removeViewer(viewer) })
	return ch, nil
}

var blogEvents = pubsub.NewDecoder(func(p []byte) (*ent.Blog, error) {
	var b ent.Blog
	return &b, json.Unmarshal(p, &b)
})

// addViewer counts a local subscription of viewer and makes sure the relay
// listens (confirmed by Redis) before it returns.
func (s *Service) addViewer(ctx context.Context, viewer int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.relay == nil {
		sub, err := s.broker.SubscribeBuffered(ctx, "feedRelay", PulledTopic, s.relayBuf)
		if err != nil {
			return err
		}
		s.relay = sub
		go s.runRelay(sub) //nolint:contextcheck,gosec // the relay serves every local subscriber, past this caller's context
	}
	s.viewers[viewer]++
	return nil
}

func (s *Service) removeViewer(viewer int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.viewers[viewer]--; s.viewers[viewer] <= 0 {
		delete(s.viewers, viewer)
	}
}

// localViewers are the viewers with a feed subscription on this instance.
func (s *Service) localViewers() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]int64, 0, len(s.viewers))
	for v := range s.viewers {
		out = append(out, v)
	}
	return out
}

// runRelay delivers each pulled author's post to the local subscribers who
// follow the author, until the broker closes. When the broker drops it (a
// burst longer than relayBuffer), it logs the loss and subscribes again.
func (s *Service) runRelay(sub *pubsub.Sub) {
	for {
		for payload := range sub.C {
			if err := s.relayOne(payload); err != nil {
				s.log.Error("feed: relay of a pulled author's post", "err", err)
			}
		}
		var next *pubsub.Sub
		err := sub.Err()
		if errors.Is(err, pubsub.ErrSlowConsumer) {
			s.log.Error("feed: relay fell behind; pulled authors' posts were lost for live subscribers", "err", err)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			next, err = s.broker.SubscribeBuffered(ctx, "feedRelay", PulledTopic, s.relayBuf)
			cancel()
			if err != nil {
				s.log.Error("feed: relay could not subscribe again; the next subscription retries", "err", err)
			}
		}
		s.mu.Lock()
		if s.relay == sub {
			s.relay = next // nil: the next addViewer subscribes
		}
		s.mu.Unlock()
		if next == nil {
			return
		}
		sub = next
	}
}

// relayOne hands one pulled author's post to the topics of the local
// viewers who follow the author.
func (s *Service) relayOne(payload []byte) error {
	var head struct {
		UserID int64 `json:"user_id"`
	}
	if err := json.Unmarshal(payload, &head); err != nil {
		return err
	}
	viewers := s.localViewers()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var topics []string
	for start := 0; start < len(viewers); start += relayBatch {
		batch := viewers[start:min(start+relayBatch, len(viewers))]
		follows, err := s.follows.FollowersAmong(ctx, head.UserID, batch)
		if err != nil {
			return err
		}
		for i, v := range batch {
			if follows[i] {
				topics = append(topics, Topic(v))
			}
		}
	}
	s.broker.DeliverLocal(topics, payload)
	return nil
}
