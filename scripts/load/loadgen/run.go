package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/apperr"
)

// steps are the measured requests of the run, in the summary's order.
var steps = []string{"browse", "login", "seckill", "post"}

// runner is the load run behind the balancer (scripts/load/run.sh):
// anonymous browsing of shops and hot blogs, logins, a flash sale with one
// attempt per distinct buyer, and feed subscribers (websockets) receiving an
// author's posts.
type runner struct {
	gql     *gqlClient
	base    string // http://host:port
	wsURL   string // ws://host:port/graphql
	codes   map[string]string
	users   int
	subs    int
	stock   int
	seconds int

	lat   map[string]*trend
	err   map[string]*rate
	fails *failLog

	accepted, soldOut, feedReceived, wsConnects, wsErrors atomic.Int64
}

// setupData is what setup hands the scenarios.
type setupData struct {
	admin   string   // the admin's token
	voucher string   // the flash sale's voucher id
	subs    []string // the subscribers' tokens
}

// summary is the file run.sh reads (-summary).
type summary struct {
	Accepted     int64  `json:"accepted"`
	FeedReceived int64  `json:"feedReceived"`
	WSConnects   int64  `json:"wsConnects"`
	Posts        int64  `json:"posts"`
	Voucher      string `json:"voucher"`
}

func runMain(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	base := fs.String("url", "", "base URL of the server (the balancer), without /graphql")
	users := fs.Int("users", 3000, "flash-sale buyers, one attempt each: phones 13800000000 on")
	subs := fs.Int("subs", 10, "feed subscribers (websockets): phones 13700000000 on")
	stock := fs.Int("stock", 1000, "units of the flash sale")
	duration := fs.Duration("duration", 60*time.Second, "length of the scenarios (whole seconds)")
	browseRate := fs.Float64("browse-rate", 40, "anonymous browsing requests per second")
	admin := fs.String("admin", "", "the admin's phone (creates the voucher, posts)")
	codesPath := fs.String("codes", "", `JSON file {"phone":"code",…} of the login codes`)
	summaryPath := fs.String("summary", "", "JSON file to write the figures run.sh checks to")
	failuresPath := fs.String("failures", "", "file to write one line err_<step>,<unix seconds>,1 per failed request to")
	startedPath := fs.String("started", "", "file created when setup is done and the scenarios start")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *admin == "" || *codesPath == "" {
		return errors.New("run needs -url, -admin and -codes")
	}
	seconds := int(duration.Seconds())
	if seconds < 1 {
		return errors.New("-duration must be at least 1s")
	}
	b, err := os.ReadFile(*codesPath)
	if err != nil {
		return err
	}
	var codes map[string]string
	if err := json.Unmarshal(b, &codes); err != nil {
		return fmt.Errorf("%s: %w", *codesPath, err)
	}
	fails, err := openFailLog(*failuresPath)
	if err != nil {
		return err
	}
	r := newRunner(*base, codes, steps)
	r.users, r.subs, r.stock, r.seconds, r.fails = *users, *subs, *stock, seconds, fails

	setupCtx, cancel := context.WithTimeout(ctx, 120*time.Second)
	data, err := r.setup(setupCtx, *admin)
	cancel()
	if err != nil {
		_ = fails.close()
		return err
	}

	// The scenarios, all from now on.
	start := time.Now()
	if *startedPath != "" {
		if err := os.WriteFile(*startedPath, []byte(strconv.FormatInt(start.Unix(), 10)+"\n"), 0o600); err != nil {
			_ = fails.close()
			return err
		}
	}
	dur := time.Duration(seconds) * time.Second
	browse := arrival{rate: *browseRate, duration: dur, maxVUs: 50}.start(ctx, start, r.browse)
	sale := arrival{rate: math.Ceil(float64(r.users) / float64(seconds)), duration: dur, maxVUs: 100}.start(ctx, start,
		func(ctx context.Context, i int64) { r.sale(ctx, i, data.voucher) })
	author := arrival{rate: 1, duration: dur, maxVUs: 5}.start(ctx, start,
		func(ctx context.Context, i int64) { r.post(ctx, i, data.admin) })
	// One subscriber per token for the scenarios' length, stopped at the
	// latest 15 s later (k6's maxDuration of the feed scenario).
	feedCtx, feedCancel := context.WithDeadline(ctx, start.Add(dur+15*time.Second))
	var feeds sync.WaitGroup
	for _, tok := range data.subs {
		feeds.Go(func() { r.feed(feedCtx, tok, "", start.Add(dur)) })
	}
	type scenario struct {
		name string
		run  *arrivalRun
	}
	var dropped []string
	for _, s := range []scenario{{"browse", browse}, {"sale", sale}, {"author", author}} {
		_, d := s.run.wait()
		dropped = append(dropped, fmt.Sprintf("%s %d", s.name, d))
	}
	feeds.Wait()
	feedCancel()
	if err := fails.close(); err != nil {
		return err
	}

	r.printSummary(stdout, dropped)
	if *summaryPath != "" {
		s, _ := json.Marshal(summary{
			Accepted: r.accepted.Load(), FeedReceived: r.feedReceived.Load(), WSConnects: r.wsConnects.Load(),
			Posts: int64(len(r.lat["post"].sorted())), Voucher: data.voucher,
		})
		if err := os.WriteFile(*summaryPath, s, 0o600); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// newRunner is a runner talking to base (the balancer), measuring steps.
func newRunner(base string, codes map[string]string, steps []string) *runner {
	base = strings.TrimSuffix(base, "/")
	r := &runner{
		gql:   &gqlClient{http: newClient(200, 10*time.Second), url: base + "/graphql"},
		base:  base,
		wsURL: "ws" + strings.TrimPrefix(base, "http") + "/graphql",
		codes: codes,
		lat:   map[string]*trend{},
		err:   map[string]*rate{},
		fails: &failLog{},
	}
	for _, s := range steps {
		r.lat[s], r.err[s] = &trend{}, &rate{}
	}
	return r
}

// login logs phone in with its code and returns the token and user id.
func (r *runner) login(ctx context.Context, phone string) (token, userID string, err error) {
	var d struct {
		Login struct {
			Token string
			User  struct{ ID string }
		}
	}
	res := r.gql.do(ctx, `mutation LoadLogin($p: String!, $c: String) { login(phone: $p, code: $c) { token user { id } } }`,
		map[string]any{"p": phone, "c": r.code(phone)}, "")
	if err := res.into("login "+phone, &d); err != nil {
		return "", "", err
	}
	return d.Login.Token, d.Login.User.ID, nil
}

// code is phone's login code, nil when none was collected.
func (r *runner) code(phone string) any {
	if c, ok := r.codes[phone]; ok {
		return c
	}
	return nil
}

// setup logs the admin in, creates the flash sale (open a minute ago, for an
// hour) and makes every subscriber follow the admin.
func (r *runner) setup(ctx context.Context, adminPhone string) (setupData, error) {
	admin, adminID, err := r.login(ctx, adminPhone)
	if err != nil {
		return setupData{}, err
	}
	now := time.Now().UTC()
	var v struct{ CreateVoucher struct{ ID string } }
	err = r.gql.do(ctx, `mutation LoadCreateVoucher($in: CreateVoucherInput!) { createVoucher(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": "load test flash sale", "payValue": 100, "actualValue": 1000,
		"seckill": map[string]any{
			"stock":     r.stock,
			"beginTime": now.Add(-time.Minute).Format("2006-01-02T15:04:05.000Z07:00"),
			"endTime":   now.Add(time.Hour).Format("2006-01-02T15:04:05.000Z07:00"),
		},
	}}, admin).into("createVoucher", &v)
	if err != nil {
		return setupData{}, err
	}
	data := setupData{admin: admin, voucher: v.CreateVoucher.ID}
	for i := range r.subs {
		tok, _, err := r.login(ctx, strconv.Itoa(firstSubscriber+i))
		if err != nil {
			return setupData{}, err
		}
		var f json.RawMessage
		if err := r.gql.do(ctx, `mutation LoadFollow($u: ID!) { setFollow(userId: $u, follow: true) { id } }`,
			map[string]any{"u": adminID}, tok).into("setFollow", &f); err != nil {
			return setupData{}, err
		}
		data.subs = append(data.subs, tok)
	}
	return data, nil
}

// measure records a step's duration and whether it failed.
func (r *runner) measure(step string, res gqlResult, failed bool) {
	r.lat[step].add(res.Took)
	r.err[step].add(failed)
	if failed {
		r.fails.record(step, time.Now())
	}
}

// browse is one anonymous request, a shop, a type's shops or the hot blogs in turn.
func (r *runner) browse(ctx context.Context, n int64) {
	var res gqlResult
	switch n % 3 {
	case 0:
		res = r.gql.do(ctx, `query LoadShop($id: ID!) { shop(id: $id) { id name } }`, map[string]any{"id": strconv.FormatInt(n%14+1, 10)}, "")
	case 1:
		res = r.gql.do(ctx, `query LoadShops { shops(typeId: 1, first: 10) { edges { node { id name } } } }`, map[string]any{}, "")
	default:
		res = r.gql.do(ctx, `query LoadHotBlogs { hotBlogs(first: 10) { edges { node { id title liked } } } }`, map[string]any{}, "")
	}
	r.measure("browse", res, len(res.Errors) > 0)
}

// sale is buyer i logging in and making one flash-sale attempt.
func (r *runner) sale(ctx context.Context, i int64, voucher string) {
	if i >= int64(r.users) {
		return
	}
	phone := strconv.FormatInt(firstBuyer+i, 10)
	l := r.gql.do(ctx, `mutation LoadLogin($p: String!, $c: String) { login(phone: $p, code: $c) { token } }`,
		map[string]any{"p": phone, "c": r.code(phone)}, "")
	r.measure("login", l, len(l.Errors) > 0)
	if len(l.Errors) > 0 {
		return
	}
	var d struct{ Login struct{ Token string } }
	if err := json.Unmarshal(l.Data, &d); err != nil {
		return
	}
	s := r.gql.do(ctx, `mutation LoadSeckill($v: ID!) { seckillVoucher(voucherId: $v) { orderId status } }`, map[string]any{"v": voucher}, d.Login.Token)
	code := s.code()
	// Sold out is the sale's normal end, not an error.
	r.measure("seckill", s, len(s.Errors) > 0 && code != string(apperr.OutOfStock))
	if len(s.Errors) == 0 {
		r.accepted.Add(1)
	}
	if code == string(apperr.OutOfStock) {
		r.soldOut.Add(1)
	}
}

// post is the admin posting a blog, which the subscribers' feeds receive.
func (r *runner) post(ctx context.Context, n int64, admin string) {
	res := r.gql.do(ctx, `mutation LoadPost($in: CreateBlogInput!) { createBlog(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"title": fmt.Sprintf("load %d", n), "content": "posted by the load test", "shopId": "1",
	}}, admin)
	r.measure("post", res, len(res.Errors) > 0)
}

// wsMsg is a graphql-transport-ws message.
type wsMsg struct {
	ID      string `json:"id,omitempty"`
	Type    string `json:"type"`
	Payload any    `json:"payload,omitempty"`
}

// feed holds a feedItems subscription until end, reconnecting through the
// balancer whenever the socket closes (an instance was killed). from, when
// set, is the client's address sent in X-Forwarded-For (the balancer is a
// trusted proxy): each subscriber its own, as real ones are, so the
// instances' websockets-per-address cap does not refuse them.
func (r *runner) feed(ctx context.Context, token, from string, end time.Time) {
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second}
	var h http.Header
	if from != "" {
		h = http.Header{"X-Forwarded-For": {from}}
	}
	for time.Until(end) > 500*time.Millisecond && ctx.Err() == nil {
		r.wsConnects.Add(1)
		began := time.Now()
		ok := r.subscribe(ctx, &d, h, token, end)
		if !ok {
			r.wsErrors.Add(1)
		}
		// A socket refused or closed at once is not asked again in a tight loop.
		if !ok || time.Since(began) < time.Second {
			r.pause(ctx)
		}
	}
}

// subscribe is one websocket connection: it returns false when the handshake
// failed, else once the socket closed or end came (then it closes it). An
// error on an open socket counts as a socket error.
func (r *runner) subscribe(ctx context.Context, d *websocket.Dialer, h http.Header, token string, end time.Time) bool {
	conn, res, err := d.DialContext(ctx, r.wsURL, h)
	if res != nil {
		_ = res.Body.Close() // the handshake response, already read by the dialer
	}
	if err != nil {
		return false
	}
	defer func() { _ = conn.Close() }()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetReadDeadline(time.Now()) })
	defer stop()
	_ = conn.SetReadDeadline(end)
	if err := conn.WriteJSON(wsMsg{Type: "connection_init", Payload: map[string]string{"Authorization": "Bearer " + token}}); err != nil {
		r.wsErrors.Add(1)
		return true
	}
	for {
		var m struct {
			Type string `json:"type"`
		}
		if err := conn.ReadJSON(&m); err != nil {
			if time.Now().Before(end) && ctx.Err() == nil {
				r.wsErrors.Add(1)
				return true
			}
			_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
			return true
		}
		var err error
		switch m.Type {
		case "connection_ack":
			err = conn.WriteJSON(wsMsg{ID: "1", Type: "subscribe", Payload: map[string]string{"query": "subscription FeedItems { feedItems { id } }"}})
		case "next":
			r.feedReceived.Add(1)
		case "ping":
			err = conn.WriteJSON(wsMsg{Type: "pong"})
		}
		if err != nil {
			r.wsErrors.Add(1)
			return true
		}
	}
}

// pause is a GET of /healthz, the pause before connecting again.
func (r *runner) pause(ctx context.Context) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base+"/healthz", http.NoBody)
	if err != nil {
		return
	}
	if res, err := r.gql.http.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
	}
	// and a little more, so a balancer refusing at once is not asked in a tight loop
	select {
	case <-ctx.Done():
	case <-time.After(100 * time.Millisecond):
	}
}

// printSummary prints each step's latencies and error rate, then the sale's
// and the feed's figures.
func (r *runner) printSummary(w io.Writer, dropped []string) {
	r.printSteps(w, steps)
	posts := int64(len(r.lat["post"].sorted()))
	fmt.Fprintf(w, "flash sale: %d accepted, %d sold out; feed: %d of %d posts received over %d websocket connections (%d socket errors)\n",
		r.accepted.Load(), r.soldOut.Load(), r.feedReceived.Load(), posts*int64(r.subs), r.wsConnects.Load(), r.wsErrors.Load())
	fmt.Fprintf(w, "dropped iterations (all VUs busy): %s\n", strings.Join(dropped, ", "))
}

// printSteps prints the latencies and error rate of each of the steps.
func (r *runner) printSteps(w io.Writer, steps []string) {
	fmt.Fprintf(w, "\nstep       count     p50 ms   p95 ms   p99 ms   max ms   error rate\n")
	for _, s := range steps {
		v := r.lat[s].sorted()
		pct := func(p float64) string {
			if len(v) == 0 {
				return "-"
			}
			return strconv.FormatFloat(percentile(v, p), 'f', 1, 64)
		}
		fmt.Fprintf(w, "%-10s %6d %9s %8s %8s %8s   %.2f%%\n", s, len(v), pct(0.5), pct(0.95), pct(0.99), pct(1), r.err[s].percent())
	}
}
