package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// One browser and one page server for the whole package: machines have two cores.
var (
	shared *Browser
	srv    *httptest.Server
	site   = &testSite{}
)

func testConfig() Config {
	return Config{
		Startup:  StartupAuto,
		Headless: true,
		Limits: Limits{
			ZoomMinPercent: 25, ZoomMaxPercent: 500,
			WindowMinWidth: 320, WindowMaxWidth: 7680,
			WindowMinHeight: 240, WindowMaxHeight: 4320,
		},
	}
}

func TestMain(m *testing.M) {
	srv = httptest.NewServer(site)
	shared = New(testConfig())
	code := m.Run()
	_ = shared.Close()
	srv.Close()
	os.Exit(code)
}

// testSite serves the pages the tests drive.
type testSite struct {
	cachedHits atomic.Int64
	slowMu     sync.Mutex
	slowGate   chan struct{}
}

func (s *testSite) releaseSlow() {
	s.slowMu.Lock()
	defer s.slowMu.Unlock()
	if s.slowGate != nil {
		close(s.slowGate)
		s.slowGate = nil
	}
}

func (s *testSite) gate() chan struct{} {
	s.slowMu.Lock()
	defer s.slowMu.Unlock()
	if s.slowGate == nil {
		s.slowGate = make(chan struct{})
	}
	return s.slowGate
}

func (s *testSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	title := r.URL.Query().Get("title")
	if title == "" {
		title = strings.TrimPrefix(r.URL.Path, "/")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch r.URL.Path {
	case "/bu":
		fmt.Fprintf(w, `<title>%s</title><script>addEventListener("beforeunload", e => { e.preventDefault(); e.returnValue = "unsaved"; })</script><body style="margin:0;height:600px">unsaved work</body>`, title)
	case "/alert":
		fmt.Fprint(w, `<title>alert</title><script>alert("secret dialog text")</script><body>after</body>`)
	case "/opener":
		fmt.Fprint(w, `<title>opener</title><body style="margin:0">
<a id=blank href="/page?title=child" target=_blank style="display:block;width:200px;height:100px;background:#ccc">blank</a>
<button id=pop style="display:block;width:200px;height:100px" onclick="window.open('/page?title=popup','pop','popup')">popup</button>
</body>`)
	case "/closer":
		fmt.Fprint(w, `<title>closer</title><body>bye</body>`)
	case "/cached":
		fmt.Fprint(w, `<title>cached</title><script src="/cached.js"></script><body>c</body>`)
	case "/cached.js":
		s.cachedHits.Add(1)
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "max-age=3600")
		fmt.Fprint(w, `window.cachedLoaded = true;`)
	case "/slow":
		gate := s.gate()
		fmt.Fprint(w, `<title>slow</title><body><p>start</p>`+strings.Repeat(" ", 2048))
		w.(http.Flusher).Flush()
		select {
		case <-gate:
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
		fmt.Fprint(w, `<p>end</p></body>`)
	default:
		fmt.Fprintf(w, `<title>%s</title><body style="margin:0">%s</body>`, title, r.URL.Path)
	}
}

func pageURL(title string) string { return srv.URL + "/page?title=" + title }

func ctxT(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// newWS returns a fresh workspace of the shared browser, released when the test ends.
func newWS(t testing.TB) *Workspace {
	id := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	ws := shared.Workspace(id)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = shared.ReleaseWorkspace(ctx, id)
	})
	return ws
}

// openTab opens a new controlled tab at u.
func openTab(t testing.TB, ws *Workspace, u string) *Tab {
	t.Helper()
	res, err := ws.Open(ctxT(t, 30*time.Second), u, OpenOptions{NewTab: true})
	if err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	return res.Tab
}

func wantKind(t testing.TB, err error, k Kind) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error of kind %v, got %v", k, err)
	}
	if e.Kind != k {
		t.Fatalf("want kind %v, got %v (%v)", k, e.Kind, err)
	}
	return e
}

// click dispatches a real mouse click (user activation) at x,y of the tab's page.
func click(t testing.TB, tab *Tab, x, y float64) {
	t.Helper()
	p := tab.Page()
	if p == nil {
		t.Fatal("tab has no page")
	}
	p = p.Context(ctxT(t, 5*time.Second))
	for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
		err := proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: proto.InputMouseButtonLeft, ClickCount: 1}.Call(p)
		if err != nil {
			t.Fatalf("click: %v", err)
		}
	}
}

// eval runs script in the tab's main world and returns its value as a string.
func eval(t testing.TB, tab *Tab, script string) string {
	t.Helper()
	p := tab.Page()
	if p == nil {
		t.Fatal("tab has no page")
	}
	res, err := proto.RuntimeEvaluate{Expression: script, ReturnByValue: true, AwaitPromise: true}.Call(p.Context(ctxT(t, 5*time.Second)))
	if err != nil {
		t.Fatalf("eval %q: %v", script, err)
	}
	return res.Result.Value.String()
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// liveConn returns the shared browser's connection, starting it if needed.
func liveConn(t testing.TB, b *Browser) *conn {
	t.Helper()
	c, err := b.ensure(ctxT(t, 30*time.Second))
	if err != nil {
		t.Fatalf("ensure: %v", err)
	}
	return c
}

// createUnbound opens a page target outside every workspace, as a person would.
func createUnbound(t testing.TB, b *Browser, u, title string) proto.TargetTargetID {
	t.Helper()
	c := liveConn(t, b)
	ctx := ctxT(t, 10*time.Second)
	res, err := proto.TargetCreateTarget{URL: u, NewWindow: true}.Call(c.call(ctx, ""))
	if err != nil {
		t.Fatalf("create unbound: %v", err)
	}
	t.Cleanup(func() {
		if c.alive() {
			_, _ = proto.TargetCloseTarget{TargetID: res.TargetID}.Call(c.call(context.Background(), ""))
		}
	})
	eventually(t, "unbound tab loaded", func() bool {
		info, err := proto.TargetGetTargetInfo{TargetID: res.TargetID}.Call(c.call(ctx, ""))
		return err == nil && info.TargetInfo.URL == u && info.TargetInfo.Title == title
	})
	return res.TargetID
}

func targetExists(t testing.TB, c *conn, id proto.TargetTargetID) bool {
	t.Helper()
	res, err := proto.TargetGetTargets{}.Call(c.call(ctxT(t, 5*time.Second), ""))
	if err != nil {
		t.Fatalf("get targets: %v", err)
	}
	for _, ti := range res.TargetInfos {
		if ti.TargetID == id {
			return true
		}
	}
	return false
}

// processesWithArg lists live processes whose command line mentions arg (zombies have
// an empty command line and do not count).
func processesWithArg(arg string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(cmd), arg) {
			out = append(out, pid)
		}
	}
	return out
}
