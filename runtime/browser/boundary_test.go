package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// twoHosts is a local site on two loopback hosts: A (127.0.0.1) may be
// reached, B (127.0.0.2) may not. B's request log proves it received nothing.
type twoHosts struct {
	a, b   string // host:port
	mu     sync.Mutex
	bLog   []string
	aPages map[string]string
}

func newTwoHosts(t testing.TB, aPages map[string]string) *twoHosts {
	t.Helper()
	s := &twoHosts{aPages: aPages}
	la, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lb, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	s.a, s.b = la.Addr().String(), lb.Addr().String()
	sa := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "http://"+s.b+"/landing?token=secret", http.StatusFound)
			return
		}
		body, ok := s.aPages[r.URL.Path]
		if !ok {
			body = "<title>" + r.URL.Path + "</title>page " + r.URL.Path
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.ReplaceAll(body, "{B}", s.b))
	})}
	sb := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.bLog = append(s.bLog, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<title>B</title>b")
	})}
	go sa.Serve(la)
	go sb.Serve(lb)
	t.Cleanup(func() { sa.Close(); sb.Close() })
	return s
}

func (s *twoHosts) bRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bLog...)
}

// onlyA admits 127.0.0.1 and denies everything else in the "restriction" layer.
func onlyA(all bool) Boundary {
	return Boundary{All: all, Admit: func(host string, kind RequestKind) (bool, string) {
		h, _, err := net.SplitHostPort(host)
		if err != nil {
			h = host
		}
		return h == "127.0.0.1", "restriction"
	}, Sockets: []SocketRule{{Pattern: "ws://127.0.0.1:*/*", Allow: true}, {Pattern: "ws://*:*/*"}, {Pattern: "wss://*:*/*"}}}
}

func governed(t testing.TB, b Boundary) context.Context {
	return WithBoundary(ctxT(t, 20*time.Second), b, b)
}

func TestBoundaryStopsRedirectHop(t *testing.T) {
	s := newTwoHosts(t, nil)
	ws := newWS(t)
	tab := openTab(t, ws, "http://"+s.a+"/start")
	mark := ws.BlockedMark()
	_, err := tab.Navigate(governed(t, onlyA(false)), "http://"+s.a+"/redirect", NavigateOptions{})
	e := wantKind(t, err, KindHostDenied)
	if e.Host != s.b || e.Layer != "restriction" {
		t.Fatalf("denial names %q %q", e.Host, e.Layer)
	}
	if got := s.bRequests(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}
	if u := tab.URL(); u != "http://"+s.a+"/start" {
		t.Fatalf("the tab left its page: %s", u)
	}
	if bl := ws.BlockedSince(mark, tab.Handle()); len(bl) != 1 || bl[0].Kind != RequestNavigation || bl[0].Host != s.b {
		t.Fatalf("blocked records: %+v", bl)
	}
	if n, hosts := ws.TakeBlocked(); n != 1 || len(hosts) != 1 || hosts[0] != s.b {
		t.Fatalf("take blocked: %d %v", n, hosts)
	}
}

func TestBoundaryFirstNavigationOfNewTab(t *testing.T) {
	s := newTwoHosts(t, nil)
	ws := newWS(t)
	res, err := ws.Open(governed(t, onlyA(false)), "http://"+s.a+"/redirect", OpenOptions{NewTab: true})
	wantKind(t, err, KindHostDenied)
	if res.Tab != nil || ws.TabCount() != 0 {
		t.Fatalf("the tab made for a stopped navigation stayed: %+v, %d tabs", res, ws.TabCount())
	}
	if got := s.bRequests(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}
}

func TestBoundaryStopsScriptNavigationAndFrame(t *testing.T) {
	s := newTwoHosts(t, map[string]string{
		"/frame": `<title>framed</title><iframe src="http://{B}/frame"></iframe>`,
	})
	ws := newWS(t)
	ctx := governed(t, onlyA(false))
	tab := openTab(t, ws, "http://"+s.a+"/start")
	mark := ws.BlockedMark()
	// The iframe's document request is held and failed.
	if _, err := tab.Navigate(ctx, "http://"+s.a+"/frame", NavigateOptions{}); err != nil {
		t.Fatal(err)
	}
	// A location change by script.
	err := tab.Do(ctx, func(ctx context.Context) error {
		eval(t, tab, `location.href = "http://`+s.b+`/moved?x=1"; 1`)
		eventually(t, "the script's navigation blocked", func() bool { return len(ws.BlockedSince(mark, tab.Handle())) == 2 })
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	bl := ws.BlockedSince(mark, tab.Handle())
	if bl[0].Kind != RequestFrame || bl[1].Kind != RequestNavigation {
		t.Fatalf("blocked: %+v", bl)
	}
	if got := s.bRequests(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}
	if u := tab.URL(); u != "http://"+s.a+"/frame" {
		t.Fatalf("the tab left its page: %s", u)
	}
}

func TestBoundaryClosesDeniedPopup(t *testing.T) {
	s := newTwoHosts(t, map[string]string{
		"/opener": `<title>opener</title><body style="margin:0"><button style="width:200px;height:100px" onclick="window.open('http://{B}/popup?q=1')">open</button>
<a id=own href="/child" target=_blank style="display:block;width:200px;height:100px">own</a></body>`,
	})
	ws := newWS(t)
	ctx := governed(t, onlyA(false))
	tab := openTab(t, ws, "http://"+s.a+"/opener")
	tab.TakeRefusedOpens()
	var opened []*Tab
	err := tab.Do(ctx, func(ctx context.Context) error {
		click(t, tab, 100, 50)
		eventually(t, "the popup refused", func() bool { return tab.TakeRefusedOpens() == 1 })
		// An allowed target=_blank is adopted once its document shows.
		click(t, tab, 100, 150)
		eventually(t, "the allowed tab adopted", func() bool {
			opened = append(opened, tab.TakeOpened()...)
			return len(opened) > 0
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.bRequests(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}
	if ws.TakePopupsClosed() != 1 {
		t.Fatal("the refused popup was not counted")
	}
	if len(opened) != 1 || ws.TabCount() != 2 {
		t.Fatalf("opened: %v, %d tabs", opened, ws.TabCount())
	}
	eventually(t, "the opened tab attached", func() bool { return strings.HasSuffix(opened[0].URL(), "/child") })
	// The opened tab is decided by its opener's boundary until a call governs it.
	if ok, _ := opened[0].Boundary().admit(s.b, RequestNavigation); ok {
		t.Fatal("the opened tab does not follow its opener's boundary")
	}
}

func TestBoundaryAllRequests(t *testing.T) {
	s := newTwoHosts(t, map[string]string{
		"/busy": `<title>busy</title><script>
const B = "{B}";
fetch("http://" + B + "/fetch").catch(() => {});
navigator.sendBeacon("http://" + B + "/beacon", "x");
new EventSource("http://" + B + "/events");
new Image().src = "http://" + B + "/img.png";
try { new WebSocket("ws://" + B + "/socket"); } catch (e) {}
new Worker(URL.createObjectURL(new Blob(["fetch('http://" + B + "/worker').catch(() => {}); new WebSocket('ws://" + B + "/workersocket')"])));
new SharedWorker(URL.createObjectURL(new Blob(["fetch('http://" + B + "/shared').catch(() => {}); new WebSocket('ws://" + B + "/sharedsocket')"])));
</script>`,
	})
	ws := newWS(t)
	ctx := governed(t, onlyA(true))
	tab := openTab(t, ws, "http://"+s.a+"/start")
	mark := ws.BlockedMark()
	if _, err := tab.Navigate(ctx, "http://"+s.a+"/busy", NavigateOptions{}); err != nil {
		t.Fatal(err)
	}
	err := tab.Do(ctx, func(ctx context.Context) error {
		// fetch, beacon, event source, image, two sockets, the worker's fetch
		// (the shared worker is held paused under "all": it sends nothing).
		eventually(t, "every request blocked", func() bool { return len(ws.BlockedSince(mark, tab.Handle())) >= 7 })
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.bRequests(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}
	kinds := map[RequestKind]int{}
	for _, b := range ws.BlockedSince(mark, tab.Handle()) {
		kinds[b.Kind]++
	}
	if kinds[RequestSocket] != 2 || kinds[RequestSubresource] < 5 {
		t.Fatalf("blocked kinds: %v", kinds)
	}
}
