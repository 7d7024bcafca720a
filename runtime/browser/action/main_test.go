package action

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// One real headless Chromium and one loopback site for the package.
var (
	shared *browser.Browser
	site   *httptest.Server
	gates  = &gateSet{byKey: map[string]*gate{}}
)

// actionPage places each control at a known point (see points).
const actionPage = `<title>Action</title>
<body style="margin:0">
<a id="next" style="position:absolute;left:10px;top:10px;width:120px;height:30px;display:block" href="/next">Next</a>
<button id="pop" style="position:absolute;left:10px;top:50px;width:120px;height:30px" onclick="window.open('/child', '_blank', 'popup')">Pop</button>
<button id="alert" style="position:absolute;left:10px;top:90px;width:120px;height:30px" onclick="alert('hello'); window.after = 1">Alert</button>
<button id="fetch" style="position:absolute;left:10px;top:130px;width:120px;height:30px" onclick="fetch('/gated' + location.search).then(function (r) { return r.text() }).then(function (t) { window.got = t })">Fetch</button>
<button id="count" style="position:absolute;left:10px;top:170px;width:120px;height:30px" onclick="window.n = (window.n || 0) + 1">Count</button>
</body>`

// points are the centres of actionPage's controls, in CSS px (no zoom).
var points = map[string]input.Point{
	"next": {X: 70, Y: 25}, "pop": {X: 70, Y: 65}, "alert": {X: 70, Y: 105},
	"fetch": {X: 70, Y: 145}, "count": {X: 70, Y: 185},
}

// gate holds one /gated request: arrived closes when it reaches the
// server, release lets it answer.
type gate struct {
	arrived, release chan struct{}
	came, once       sync.Once
}

type gateSet struct {
	mu    sync.Mutex
	byKey map[string]*gate
	n     int
}

// open makes a gate and returns the query that names it.
func (s *gateSet) open() (string, *gate) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	k := fmt.Sprint(s.n)
	g := &gate{arrived: make(chan struct{}), release: make(chan struct{})}
	s.byKey[k] = g
	return "?k=" + k, g
}

func (s *gateSet) get(k string) *gate {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byKey[k]
}

// releaseAll lets every held request answer (before the server closes).
func (s *gateSet) releaseAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.byKey {
		g.open()
	}
}

func (g *gate) open() { g.once.Do(func() { close(g.release) }) }

func TestMain(m *testing.M) {
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gated":
			g := gates.get(r.URL.Query().Get("k"))
			if g == nil {
				http.NotFound(w, r)
				return
			}
			g.came.Do(func() { close(g.arrived) })
			select {
			case <-g.release:
			case <-r.Context().Done():
				return
			}
			fmt.Fprint(w, "done")
			return
		case "/next":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<title>Next</title><p>next</p>`)
			return
		case "/child":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<title>Child</title><p>child</p>`)
			return
		case "/favicon.ico":
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, actionPage)
	}))
	shared = browser.New(browser.Config{Startup: browser.StartupAuto, Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	code := m.Run()
	_ = shared.Close()
	gates.releaseAll() // before Close waits for the handlers
	site.Close()
	os.Exit(code)
}

// bound is every test's context bound: generous, since CI runs every
// package at once on two cores; no assertion is about time.
const bound = 30 * time.Second

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	t.Cleanup(cancel)
	return ctx
}

// liveTab opens actionPage (with query q) in a fresh workspace's tab and
// returns it with the Setup Run needs.
func liveTab(t testing.TB, q string) (*browser.Tab, Setup) {
	t.Helper()
	id := strings.ReplaceAll(t.Name(), "/", "_")
	ws := shared.Workspace(id)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = shared.ReleaseWorkspace(ctx, id)
	})
	res, err := ws.Open(ctxT(t), site.URL+"/"+q, browser.OpenOptions{NewTab: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	w := pagejs.NewWorld(res.Tab.Page())
	return res.Tab, Setup{World: func(*browser.Tab) *pagejs.World { return w }, Workspace: ws}
}

// clickOn is an action that clicks the centre of control id, storing the
// dispatch's error in *err.
func clickOn(id string, err *error) func(ctx context.Context, a *Action) {
	return func(ctx context.Context, a *Action) {
		*err = a.Dispatch(ctx, nil, func(ctx context.Context) (input.Effect, error) {
			return input.Click(ctx, a.Tab().Page(), a.Zoom(points[id].X, points[id].Y), "primary", 1)
		})
	}
}

// evalMain evaluates js in the page's main world, as a string.
func evalMain(t testing.TB, tab *browser.Tab, js string) string {
	t.Helper()
	res, err := tab.Page().Context(ctxT(t)).Eval(`() => String(` + js + `)`)
	if err != nil {
		t.Fatalf("eval: %v", err)
	}
	return res.Value.Str()
}
