package browser

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// denied is a host the boundary must keep the pages off: an HTTP listener on
// 127.0.0.2 (a fresh port each) counting TCP accepts and requests, and a UDP
// socket on 127.0.0.2 counting datagrams (STUN).
type denied struct {
	addr     string // host:port of the TCP listener
	udp      string // host:port of the UDP socket
	accepts  atomic.Int64
	requests atomic.Int64
	grams    atomic.Int64
	mu       sync.Mutex
	log      []string
}

func newDenied(t testing.TB) *denied {
	t.Helper()
	d := &denied{}
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	uc, err := net.ListenPacket("udp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	d.addr, d.udp = ln.Addr().String(), uc.LocalAddr().String()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.requests.Add(1)
		d.mu.Lock()
		d.log = append(d.log, r.Method+" "+r.URL.RequestURI())
		d.mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>B</title>b")
	})}
	go func() { _ = srv.Serve(&acceptCounter{Listener: ln, n: &d.accepts}) }()
	go func() {
		buf := make([]byte, 2048)
		for {
			n, _, err := uc.ReadFrom(buf)
			if err != nil {
				return
			}
			d.grams.Add(1)
			d.mu.Lock()
			d.log = append(d.log, fmt.Sprintf("udp %x", buf[:min(n, 4)]))
			d.mu.Unlock()
		}
	}()
	t.Cleanup(func() { _ = srv.Close(); _ = uc.Close() })
	return d
}

type acceptCounter struct {
	net.Listener
	n *atomic.Int64
}

func (l *acceptCounter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func (d *denied) saw() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return fmt.Sprintf("%d accepts, %d requests %v, %d datagrams", d.accepts.Load(), d.requests.Load(), d.log, d.grams.Load())
}

func (d *denied) nothing() bool {
	return d.accepts.Load() == 0 && d.requests.Load() == 0 && d.grams.Load() == 0
}

// pageHost serves the hostile pages on 127.0.0.1; {B} in a page is replaced
// by the denied host:port, {U} by its UDP host:port.
type pageHost struct {
	addr  string
	pages map[string]string
}

func newPageHost(t testing.TB, pages map[string]string) *pageHost {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &pageHost{addr: ln.Addr().String(), pages: pages}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := h.pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		body = strings.NewReplacer("{B}", q.Get("b"), "{U}", q.Get("u")).Replace(body)
		if strings.HasSuffix(r.URL.Path, ".js") {
			w.Header().Set("Content-Type", "text/javascript")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		fmt.Fprint(w, body)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return h
}

func (h *pageHost) url(path string, d *denied) string {
	return "http://" + h.addr + path + "?b=" + d.addr + "&u=" + d.udp
}

// admitB admits every host (the control: the listener must count).
func admitAll(all bool) Boundary {
	return Boundary{All: all, Admit: func(string, RequestKind) (bool, string) { return true, "" }}
}

func TestWallFlagsDropped(t *testing.T) {
	for _, f := range []string{"proxy-server", "Proxy-Bypass-List", "no-proxy-server", "force-webrtc-ip-handling-policy", "host-resolver-rules"} {
		if !wallFlag(f) {
			t.Errorf("%s is not dropped", f)
		}
	}
	if wallFlag("window-size") {
		t.Error("window-size is dropped")
	}
}
