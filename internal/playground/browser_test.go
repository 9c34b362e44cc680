package playground

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/hmdp/hmdp/graph"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/testenv"
)

const chromiumPath = "/usr/bin/chromium"

// TestBrowserRunsQueryOffline opens the embedded playground in headless
// Chromium against the real schema and demo data, runs the query preset by
// ?query=, and waits for the first shop type. Every request the page makes must
// stay on the test server, which proves the page needs no internet.
//
// Without Chromium or the embedded bundles it skips, except under CI=true,
// where it fails so that CI cannot silently stop running it.
func TestBrowserRunsQueryOffline(t *testing.T) {
	unavailable := func(why string) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s; CI=true, so this test fails rather than skips", why)
		}
		t.Skip(why)
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		unavailable(chromiumPath + " not found (apt-get install -y chromium)")
	}
	if !assetsEmbedded() {
		unavailable("playground assets not embedded (run `make -f web/assets.mk playground-assets`, needs npm)")
	}

	ctx := context.Background()
	db := testenv.NewSQLite(t)
	if _, err := db.Seed(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	rdb := testenv.NewEmbeddedRedis(t)
	locker := lock.New(rdb.Client, rdb.Prefix)
	defer locker.Close()
	shops := shop.New(shop.Config{DB: db.Client, Redis: rdb.Client, Locker: locker, Prefix: rdb.Prefix, NearTTL: time.Second})
	if err := shops.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer shops.Close()
	gql := handler.New(graph.NewSchema(&graph.Resolver{ShopService: shops}))
	gql.AddTransport(transport.POST{})

	var (
		mu       sync.Mutex
		offsite  []string // requests that left the test server
		problems []string // console errors, uncaught exceptions, CSP violations
	)
	var logs bytes.Buffer
	mux := http.NewServeMux()
	mux.Handle("/", New("/graphql", slog.New(slog.NewTextHandler(&logs, nil))))
	var auth []string // Authorization of each POST, to see the stored token sent
	mux.Handle("/graphql", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		gql.ServeHTTP(w, r)
	}))
	if logs.Len() != 0 {
		t.Fatalf("playground logged at start-up: %s", logs.String())
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// Not t.TempDir: Chromium's helper processes can still be writing into the
	// profile for a moment after the browser exits, which fails t.TempDir's cleanup.
	profile, err := os.MkdirTemp("", "hmdp-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	allocCtx, cancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox, // runs as root in containers
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile), // fresh: no stored GraphiQL query or headers
		chromedp.WindowSize(1280, 800),
	)
	defer cancel()
	ctx, cancel = chromedp.NewContext(allocCtx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			if u := ev.Request.URL; !strings.HasPrefix(u, srv.URL+"/") && !strings.HasPrefix(u, "data:") {
				offsite = append(offsite, u)
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, "console.error: "+strings.Join(args, " "))
			}
		case *cdplog.EventEntryAdded: // where Chromium reports CSP violations and failed loads
			if ev.Entry.Level == cdplog.LevelError {
				problems = append(problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Error())
		}
	})

	var result string
	page := srv.URL + "/?query=" + url.QueryEscape("{ shopTypes { name } }")
	err = chromedp.Run(ctx,
		chromedp.Navigate(page),
		// A token the user typed into the headers editor earlier, persisted by
		// GraphiQL in this origin's storage, must go out with the query.
		chromedp.Evaluate(`localStorage.setItem('graphiql:headers', '{"Authorization": "stored-token"}')`, nil),
		chromedp.Reload(),
		chromedp.WaitVisible(`.graphiql-execute-button`, chromedp.ByQuery),
		chromedp.Click(`.graphiql-execute-button`, chromedp.ByQuery),
		chromedp.Poll(`(document.querySelector('.graphiql-response') || {}).innerText?.includes('美食')`, nil,
			chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Text(`.graphiql-response`, &result, chromedp.ByQuery),
	)
	if shot := os.Getenv("PLAYGROUND_SCREENSHOT"); shot != "" { // a PNG path, for a person to look at
		var png []byte
		if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err == nil {
			_ = os.WriteFile(shot, png, 0o644)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		t.Fatalf("%v\nconsole: %q\noff-site requests: %q", err, problems, offsite)
	}
	if !strings.Contains(result, "美食") {
		t.Errorf("result pane: %q", result)
	}
	if !slices.Contains(auth, "stored-token") {
		t.Errorf("no POST carried the stored token; Authorization headers seen: %q", auth)
	}
	if len(offsite) > 0 {
		t.Errorf("page requested resources outside the test server: %q", offsite)
	}
	if len(problems) > 0 {
		t.Errorf("page reported errors: %q", problems)
	}
}
