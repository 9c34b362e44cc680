package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
)

// soakSteps are the soak's measured requests, in its summary's order.
var soakSteps = []string{"browse", "me", "feed", "like", "follow", "seckill", "vouchers", "orders", "post"}

// soakMix maps an iteration (n % 20) to its step: 45% anonymous browsing,
// the rest logged-in reads and writes of the app's features.
var soakMix = [20]string{
	"browse", "browse", "browse", "browse", "browse", "browse", "browse", "browse", "browse",
	"me", "me", "feed", "feed", "like", "like", "follow", "follow", "seckill", "vouchers", "orders",
}

// soaker is the steady load of make soak (scripts/load/soak.sh): the same
// mix at a constant rate for a long time, every user logged in once at the
// start, the feed subscribers' websockets open all along, so that whatever
// grows with time (memory, goroutines, connections, keys) shows.
type soaker struct {
	*runner
	tokens  []string // the users', logged in at setup
	userIDs []string
	blogs   []string // the hot blogs liked and unliked

	mu     sync.Mutex
	errors map[string]int64 // step code -> failed requests
}

func soakMain(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	base := fs.String("url", "", "base URL of the server (the balancer), without /graphql")
	users := fs.Int("users", 300, "logged-in users (phones 13800000000 on); the flash sale has half as many units")
	subs := fs.Int("subs", 200, "feed subscribers (websockets): phones 13700000000 on")
	rateF := fs.Float64("rate", 200, "requests per second, the posts included")
	postRate := fs.Float64("post-rate", 0.5, "the admin's posts per second (each one fans out to every subscriber)")
	duration := fs.Duration("duration", 10*time.Minute, "length of the steady load (whole seconds)")
	admin := fs.String("admin", "", "the admin's phone (creates the flash sale, posts)")
	codesPath := fs.String("codes", "", `JSON file {"phone":"code",…} of the login codes`)
	startedPath := fs.String("started", "", "file created when setup is done and the load starts")
	maxFailed := fs.Float64("max-failed", 1, "percent of the requests that may fail (else exit 1): a soak of failing requests proves nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *admin == "" || *codesPath == "" {
		return errors.New("soak needs -url, -admin and -codes")
	}
	seconds := int(duration.Seconds())
	if seconds < 1 || *users < 2 || *rateF <= *postRate {
		return errors.New("soak needs -duration of at least 1s, -users of at least 2 and -rate above -post-rate")
	}
	b, err := os.ReadFile(*codesPath)
	if err != nil {
		return err
	}
	var codes map[string]string
	if err := json.Unmarshal(b, &codes); err != nil {
		return fmt.Errorf("%s: %w", *codesPath, err)
	}
	r := newRunner(*base, codes, soakSteps)
	// half the users buy, the others are told OUT_OF_STOCK
	r.users, r.subs, r.stock, r.seconds = *users, *subs, *users/2, seconds
	s := &soaker{runner: r, errors: map[string]int64{}}

	setupCtx, cancel := context.WithTimeout(ctx, 120*time.Second) // the login codes live 2 minutes
	data, err := s.setup(setupCtx, *admin)
	cancel()
	if err != nil {
		return err
	}
	start := time.Now()
	if *startedPath != "" {
		if err := os.WriteFile(*startedPath, []byte(strconv.FormatInt(start.Unix(), 10)+"\n"), 0o600); err != nil {
			return err
		}
	}
	dur := time.Duration(seconds) * time.Second
	mix := arrival{rate: *rateF - *postRate, duration: dur, maxVUs: 200}.start(ctx, start,
		func(ctx context.Context, n int64) { s.step(ctx, n, data) })
	posts := arrival{rate: *postRate, duration: dur, maxVUs: 5}.start(ctx, start,
		func(ctx context.Context, n int64) { r.post(ctx, n, data.admin) })
	feedCtx, feedCancel := context.WithDeadline(ctx, start.Add(dur+15*time.Second))
	var feeds sync.WaitGroup
	for i, tok := range data.subs {
		// one address each (10.77.0.0/16: 65 534 of them)
		from := fmt.Sprintf("10.77.%d.%d", (i+1)/256, (i+1)%256)
		feeds.Go(func() { r.feed(feedCtx, tok, from, start.Add(dur)) })
	}
	_, dropMix := mix.wait()
	_, dropPosts := posts.wait()
	feeds.Wait()
	feedCancel()

	r.printSteps(stdout, soakSteps)
	n := int64(len(r.lat["post"].sorted()))
	fmt.Fprintf(stdout, "feed: %d of %d posts received over %d websocket connections (%d socket errors); dropped iterations (all VUs busy): mix %d, posts %d\n",
		r.feedReceived.Load(), n*int64(r.subs), r.wsConnects.Load(), r.wsErrors.Load(), dropMix, dropPosts)
	s.printErrors(stdout)
	if err := ctx.Err(); err != nil {
		return err
	}
	var total, failed int64
	for _, st := range soakSteps {
		total += r.err[st].total.Load()
		failed += r.err[st].failed.Load()
	}
	if total == 0 || float64(failed)*100 > *maxFailed*float64(total) {
		return fmt.Errorf("%d of %d requests failed (at most %g%% may)", failed, total, *maxFailed)
	}
	// A subscriber may lose its socket now and then (a slow consumer is
	// dropped); more errors than subscribers means they were not held.
	if e := r.wsErrors.Load(); e > int64(len(data.subs)) {
		return fmt.Errorf("%d websocket errors for %d subscribers: the subscriptions were not held", e, len(data.subs))
	}
	return nil
}

// setup is the load run's (the admin, the flash sale, the subscribers
// following the admin), then every user logged in and the hot blogs' ids.
func (s *soaker) setup(ctx context.Context, admin string) (setupData, error) {
	data, err := s.runner.setup(ctx, admin)
	if err != nil {
		return data, err
	}
	for i := range s.users {
		tok, id, err := s.login(ctx, strconv.Itoa(firstBuyer+i))
		if err != nil {
			return data, err
		}
		s.tokens, s.userIDs = append(s.tokens, tok), append(s.userIDs, id)
	}
	var hot struct {
		HotBlogs struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	if err := s.gql.do(ctx, `query LoadHotBlogs { hotBlogs(first: 10) { edges { node { id } } } }`, map[string]any{}, "").into("hotBlogs", &hot); err != nil {
		return data, err
	}
	for _, e := range hot.HotBlogs.Edges {
		s.blogs = append(s.blogs, e.Node.ID)
	}
	if len(s.blogs) == 0 {
		return data, errors.New("hotBlogs: no blog to like")
	}
	return data, nil
}

// step is iteration n of the mix: user n/20 (round the users) does the
// step soakMix[n%20]; likes and follows alternate between on and off, so
// the data stays the same size however long the soak runs.
func (s *soaker) step(ctx context.Context, n int64, data setupData) {
	step := soakMix[n%20]
	round := n / 20
	u := int(round % int64(len(s.tokens)))
	tok := s.tokens[u]
	var res gqlResult
	expected := func(string) bool { return false }
	switch step {
	case "browse":
		s.browse(ctx, n)
		return
	case "me":
		res = s.gql.do(ctx, `query LoadMe { me { id nickName } }`, map[string]any{}, tok)
	case "feed": // a subscriber's: they follow the admin, who posts
		if len(data.subs) > 0 {
			tok = data.subs[u%len(data.subs)]
		}
		res = s.gql.do(ctx, `query LoadFeed { feed(first: 10) { edges { node { id title } } } }`, map[string]any{}, tok)
	case "like":
		on := (round/int64(len(s.tokens)))%2 == 0
		res = s.gql.do(ctx, `mutation LoadLike($b: ID!, $l: Boolean!) { setBlogLike(blogId: $b, liked: $l) { id liked } }`,
			map[string]any{"b": s.blogs[u%len(s.blogs)], "l": on}, tok)
	case "follow":
		on := (round/int64(len(s.tokens)))%2 == 0
		res = s.gql.do(ctx, `mutation LoadFollow($u: ID!, $f: Boolean!) { setFollow(userId: $u, follow: $f) { id } }`,
			map[string]any{"u": s.userIDs[(u+1)%len(s.userIDs)], "f": on}, tok)
	case "seckill":
		res = s.gql.do(ctx, `mutation LoadSeckill($v: ID!) { seckillVoucher(voucherId: $v) { orderId status } }`, map[string]any{"v": data.voucher}, tok)
		// A buyer's later attempts, and everyone's once it sold out, are told so.
		expected = func(c string) bool { return c == string(apperr.OutOfStock) || c == string(apperr.AlreadyOrdered) }
	case "vouchers":
		res = s.gql.do(ctx, `query LoadVouchers($id: ID!) { shop(id: $id) { id name } vouchers(shopId: $id) { id title } }`,
			map[string]any{"id": strconv.FormatInt(n%14+1, 10)}, tok)
	case "orders":
		res = s.gql.do(ctx, `query LoadOrders { myOrders(first: 5) { edges { node { id status } } } }`, map[string]any{}, tok)
	}
	failed := len(res.Errors) > 0 && !expected(res.code())
	s.measure(step, res, failed)
	if failed {
		s.mu.Lock()
		s.errors[step+" "+res.code()]++
		s.mu.Unlock()
	}
}

// printErrors lists the failed requests by step and code.
func (s *soaker) printErrors(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.errors))
	for k := range s.errors {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "failed: %s × %d\n", k, s.errors[k])
	}
}
