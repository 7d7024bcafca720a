package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// cookieSite is a loopback site that logs in by cookie: /login?user=U sets
// sid=U, every page shows the cookie its request carried, and the log keeps
// what each request sent, so a test sees what the server received.
type cookieSite struct {
	addr string
	mu   sync.Mutex
	log  []string // "path sid=…" per request
}

func newCookieSite(t testing.TB, host string) *cookieSite {
	t.Helper()
	l, err := net.Listen("tcp", host+":0")
	if err != nil {
		t.Fatal(err)
	}
	s := &cookieSite{addr: l.Addr().String()}
	hs := &http.Server{Handler: s}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	return s
}

func (s *cookieSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sid := ""
	if c, err := r.Cookie("sid"); err == nil {
		sid = c.Value
	}
	s.mu.Lock()
	s.log = append(s.log, r.URL.Path+" sid="+sid)
	s.mu.Unlock()
	if r.URL.Path == "/favicon.ico" {
		http.NotFound(w, r)
		return
	}
	if u := r.URL.Query().Get("user"); r.URL.Path == "/login" && u != "" {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: u, Path: "/"})
		sid = u
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<title>%s</title><body style="margin:0">
<p id=who>sid=%s</p>
<button id=pop style="display:block;width:200px;height:100px" onclick="window.open('/popup','pop','popup')">popup</button>
<a id=blank href="/child" target=_blank style="display:block;width:200px;height:100px">blank</a>
</body>`, strings.TrimPrefix(r.URL.Path, "/"), sid)
}

func (s *cookieSite) url(path string) string { return "http://" + s.addr + path }

// received is the sid each request for path carried, in order.
func (s *cookieSite) received(path string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, l := range s.log {
		if p, sid, _ := strings.Cut(l, " "); p == path {
			out = append(out, sid)
		}
	}
	return out
}

// browserContexts lists the browser's contexts other than the default one.
func browserContexts(t testing.TB, c *conn) map[string]bool {
	t.Helper()
	res, err := proto.TargetGetBrowserContexts{}.Call(c.call(ctxT(t, 5*time.Second), ""))
	if err != nil {
		t.Fatalf("get browser contexts: %v", err)
	}
	out := map[string]bool{}
	for _, id := range res.BrowserContextIDs {
		out[string(id)] = true
	}
	return out
}

func targetContext(t testing.TB, c *conn, id proto.TargetTargetID) string {
	t.Helper()
	info, err := proto.TargetGetTargetInfo{TargetID: id}.Call(c.call(ctxT(t, 5*time.Second), ""))
	if err != nil {
		t.Fatalf("target info: %v", err)
	}
	return string(info.TargetInfo.BrowserContextID)
}

// checkIsolated: two workspaces on one browser, session A logged in by a
// cookie the server set and holding localStorage; session B, on the same
// origin, gets neither, cannot see or address A's tab, and adopts no tab
// outside its own context. A's popups stay in A's context (and carry A's
// cookie). Releasing A disposes its context and closes its tabs.
func checkIsolated(t *testing.T, b *Browser, site *cookieSite) {
	ctx := ctxT(t, 60*time.Second)
	idA, idB := fmt.Sprintf("A-%d", time.Now().UnixNano()), fmt.Sprintf("B-%d", time.Now().UnixNano())
	wsA, wsB := b.Workspace(idA), b.Workspace(idB)
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = b.ReleaseWorkspace(cctx, idA)
		_ = b.ReleaseWorkspace(cctx, idB)
	})

	a, err := wsA.Open(ctx, site.url("/login?user=alice"), OpenOptions{NewTab: true})
	if err != nil {
		t.Fatalf("A logs in: %v", err)
	}
	if got := eval(t, a.Tab, `localStorage.setItem("who", "alice"), document.cookie`); got != "sid=alice" {
		t.Fatalf("A's cookie after login: %q", got)
	}
	ctxA := wsA.ContextID()
	if ctxA == "" || targetContext(t, liveConn(t, b), a.Tab.TargetID()) != ctxA {
		t.Fatalf("A's tab is not in A's own context (%q)", ctxA)
	}

	// B reaches the same origin: a fresh jar and fresh storage.
	bres, err := wsB.Open(ctx, site.url("/whoami"), OpenOptions{})
	if err != nil || !bres.Created || bres.Reused {
		t.Fatalf("B opens: %+v %v", bres, err)
	}
	if got := site.received("/whoami"); len(got) != 1 || got[0] != "sid=" {
		t.Fatalf("the server received from B: %v (want no cookie)", got)
	}
	if got := eval(t, bres.Tab, `JSON.stringify([document.cookie, localStorage.getItem("who"), sessionStorage.length, localStorage.length])`); got != `["",null,0,0]` {
		t.Fatalf("B reads A's state: %s", got)
	}
	ctxB := wsB.ContextID()
	if ctxB == "" || ctxB == ctxA {
		t.Fatalf("B's context %q, A's %q", ctxB, ctxA)
	}
	// B's own login does not touch A's.
	if _, err := bres.Tab.Navigate(ctx, site.url("/login?user=bob"), NavigateOptions{}); err != nil {
		t.Fatalf("B logs in: %v", err)
	}
	if got := eval(t, a.Tab, `document.cookie`); got != "sid=alice" {
		t.Fatalf("A's cookie after B's login: %q", got)
	}

	// B sees none of A's tabs and cannot address one by handle.
	list, err := wsB.Tabs(ctx)
	if err != nil || len(list) != 1 || list[0].Handle != bres.Tab.Handle() {
		t.Fatalf("B lists: %+v %v", list, err)
	}
	if _, err := wsB.Resolve(ctx, a.Tab.Handle()); err == nil {
		t.Fatal("B resolved A's tab handle")
	} else {
		wantKind(t, err, KindUnknownTab)
	}
	// A page outside B's context on the same host (the person's, in the
	// default context) is not adopted: it holds another jar.
	unbound := createUnbound(t, b, site.url("/persons"), "persons")
	wsC := b.Workspace(idB + "-c")
	t.Cleanup(func() { _ = b.ReleaseWorkspace(context.Background(), idB+"-c") })
	cres, err := wsC.Open(ctx, site.url("/persons"), OpenOptions{})
	if err != nil || cres.Reused || !cres.Created || cres.Tab.TargetID() == unbound {
		t.Fatalf("a page outside the session's context was adopted: %+v %v", cres, err)
	}

	// A's popups stay in A's context, with A's cookie.
	c := liveConn(t, b)
	click(t, a.Tab, 100, 100) // the popup button, below the sid line
	var popup *Tab
	eventually(t, "A's popup adopted", func() bool {
		for _, o := range a.Tab.TakeOpened() {
			popup = o
		}
		return popup != nil
	})
	eventually(t, "popup loaded", func() bool { return strings.HasSuffix(popup.URL(), "/popup") })
	if got := targetContext(t, c, popup.TargetID()); got != ctxA {
		t.Fatalf("A's popup is in context %q, not A's %q", got, ctxA)
	}
	eventually(t, "popup request logged", func() bool { return len(site.received("/popup")) == 1 })
	if got := site.received("/popup"); got[0] != "sid=alice" {
		t.Fatalf("A's popup sent %v", got)
	}
	if len(wsB.liveTabs()) != 1 {
		t.Fatal("A's popup joined B")
	}

	// Releasing A disposes its context with its tabs; B is untouched.
	tabs := []proto.TargetTargetID{a.Tab.TargetID(), popup.TargetID()}
	if err := b.ReleaseWorkspace(ctx, idA); err != nil {
		t.Fatalf("release A: %v", err)
	}
	if browserContexts(t, c)[ctxA] {
		t.Fatal("A's context outlived its session")
	}
	if !browserContexts(t, c)[ctxB] {
		t.Fatal("B's context went with A's")
	}
	for _, id := range tabs {
		eventually(t, "A's tab closed", func() bool { return !targetExists(t, c, id) })
	}
	if got := eval(t, bres.Tab, `document.cookie`); got != "sid=bob" {
		t.Fatalf("B after A left: %q", got)
	}
}

// TestSessionsIsolated: the default isolation on a launched browser.
func TestSessionsIsolated(t *testing.T) {
	checkIsolated(t, shared, newCookieSite(t, "127.0.0.1"))
}

// TestSharedIsolationSharesOneJar: under shared isolation two workspaces are
// one profile (one person's desktop use), and open tabs in the default context.
func TestSharedIsolationSharesOneJar(t *testing.T) {
	site := newCookieSite(t, "127.0.0.1")
	wsA, wsB := newWS(t), newWS(t)
	wsA.isolation, wsB.isolation = IsolationShared, IsolationShared
	ctx := ctxT(t, 30*time.Second)
	a, err := wsA.Open(ctx, site.url("/login?user=carol"), OpenOptions{NewTab: true})
	if err != nil {
		t.Fatal(err)
	}
	bres, err := wsB.Open(ctx, site.url("/whoami"), OpenOptions{NewTab: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := site.received("/whoami"); len(got) != 1 || got[0] != "sid=carol" {
		t.Fatalf("shared sessions should share the jar: %v", got)
	}
	c := liveConn(t, shared)
	if targetContext(t, c, a.Tab.TargetID()) != targetContext(t, c, bres.Tab.TargetID()) || wsA.ContextID() != "" {
		t.Fatal("shared workspaces should use the default context")
	}
}

// TestContextRecreatedAfterRelaunch: a workspace's context belongs to one
// browser connection; after the browser dies the next tab gets a new one.
func TestContextRecreatedAfterRelaunch(t *testing.T) {
	b := New(testConfig())
	defer b.Close()
	ws := b.Workspace("relaunch")
	ctx := ctxT(t, 60*time.Second)
	first, err := ws.Open(ctx, pageURL("one"), OpenOptions{NewTab: true})
	if err != nil {
		t.Fatal(err)
	}
	old := ws.ContextID()
	c := liveConn(t, b)
	c.die()
	<-c.stopped
	again, _, err := ws.Reopen(ctx, first.Tab.Handle())
	if err != nil {
		t.Fatalf("reopen after the browser died: %v", err)
	}
	now := ws.ContextID()
	if now == "" || now == old || targetContext(t, liveConn(t, b), again.TargetID()) != now {
		t.Fatalf("context after relaunch %q (was %q)", now, old)
	}
}

// newSharedWS is newWS under shared isolation (the default context).
func newSharedWS(t testing.TB) *Workspace {
	ws := newWS(t)
	ws.isolation = IsolationShared
	return ws
}

// TestIsolationReadWhenSessionStarts: IsolationNow decides each workspace as
// it is made; a workspace keeps its isolation after the policy changes.
func TestIsolationReadWhenSessionStarts(t *testing.T) {
	var now atomic.Value
	now.Store(IsolationShared)
	b := New(Config{Isolation: IsolationSession, IsolationNow: func() string { return now.Load().(string) }})
	defer b.Close()
	first := b.Workspace("first")
	now.Store(IsolationSession)
	second := b.Workspace("second")
	now.Store("bogus") // not a value: the configured one holds
	third := b.Workspace("third")
	if first.isolation != IsolationShared || second.isolation != IsolationSession || third.isolation != IsolationSession || b.Workspace("first").isolation != IsolationShared {
		t.Fatalf("isolation %s %s %s", first.isolation, second.isolation, third.isolation)
	}
	if New(Config{}).cfg.Isolation != IsolationSession {
		t.Fatal("the executor's default must be session")
	}
}
