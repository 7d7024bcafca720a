package netwall

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// counted is an HTTP listener that counts what reached it: TCP accepts and
// requests.
type counted struct {
	ln       net.Listener
	accepts  atomic.Int64
	requests atomic.Int64
}

func listen(t testing.TB, ip string) *counted {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatal(err)
	}
	h := &counted{ln: ln}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		fmt.Fprintf(w, "hello %s %s", r.Host, r.URL.RequestURI())
	})}
	cl := &countListener{Listener: ln, n: &h.accepts}
	go func() { _ = srv.Serve(cl) }()
	t.Cleanup(func() { _ = srv.Close() })
	return h
}

type countListener struct {
	net.Listener
	n *atomic.Int64
}

func (l *countListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func (h *counted) port() string { _, p, _ := net.SplitHostPort(h.ln.Addr().String()); return p }

// recorder keeps the refusals a proxy reports.
type recorder struct {
	mu  sync.Mutex
	got []Refusal
}

func (r *recorder) add(x Refusal) { r.mu.Lock(); r.got = append(r.got, x); r.mu.Unlock() }
func (r *recorder) all() []Refusal {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Refusal(nil), r.got...)
}

func denyHost(denied string) func(string) (bool, string) {
	return func(h string) (bool, string) {
		if strings.HasPrefix(h, denied) {
			return false, "organization"
		}
		return true, ""
	}
}

func denyAddr(denied string) func(netip.Addr) (bool, string) {
	d := netip.MustParseAddr(denied)
	return func(a netip.Addr) (bool, string) {
		if a == d {
			return false, "organization"
		}
		return true, ""
	}
}

func start(t *testing.T, cfg Config) *Proxy {
	t.Helper()
	p, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func client(p *Proxy) *http.Client {
	u, _ := url.Parse(p.URL())
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u)}}
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestForwardsAdmittedAndRefusesDenied(t *testing.T) {
	ok, denied := listen(t, "127.0.0.1"), listen(t, "127.0.0.2")
	rec := &recorder{}
	p := start(t, Config{Rules: func() Rules { return Rules{Host: denyHost("127.0.0.2")} }, Refused: rec.add})
	c := client(p)
	code, body := get(t, c, "http://127.0.0.1:"+ok.port()+"/a?b=1")
	if code != 200 || !strings.Contains(body, "/a?b=1") {
		t.Fatalf("admitted: %d %q", code, body)
	}
	code, _ = get(t, c, "http://127.0.0.2:"+denied.port()+"/leak?secret=1")
	if code != http.StatusForbidden {
		t.Fatalf("denied host answered %d, want 403", code)
	}
	if n, m := denied.accepts.Load(), denied.requests.Load(); n != 0 || m != 0 {
		t.Fatalf("the denied listener saw %d accepts, %d requests", n, m)
	}
	if got := rec.all(); len(got) != 1 || got[0].Host != "127.0.0.2:"+denied.port() || got[0].Layer != "organization" {
		t.Fatalf("refusals %+v", got)
	}
}

func TestTunnelDecidedLikeRequests(t *testing.T) {
	ok, denied := listen(t, "127.0.0.1"), listen(t, "127.0.0.2")
	rec := &recorder{}
	p := start(t, Config{Rules: func() Rules { return Rules{Host: denyHost("127.0.0.2")} }, Refused: rec.add})
	for _, tc := range []struct {
		to   *counted
		ip   string
		want string
	}{{ok, "127.0.0.1", "200"}, {denied, "127.0.0.2", "403"}} {
		conn, err := net.Dial("tcp", p.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "CONNECT %s:%s HTTP/1.1\r\nHost: %s:%s\r\n\r\n", tc.ip, tc.to.port(), tc.ip, tc.to.port())
		br := bufio.NewReader(conn)
		line, _ := br.ReadString('\n')
		if !strings.Contains(line, " "+tc.want+" ") {
			t.Fatalf("CONNECT %s: %q", tc.ip, line)
		}
		if tc.want == "200" {
			for l, _ := br.ReadString('\n'); l != "\r\n" && l != ""; l, _ = br.ReadString('\n') {
			}
			fmt.Fprintf(conn, "GET /t HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			resp, err := http.ReadResponse(br, nil)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("through the tunnel: %v %v", resp, err)
			}
		}
		conn.Close()
	}
	if n := denied.accepts.Load(); n != 0 {
		t.Fatalf("the denied listener saw %d accepts", n)
	}
	if ok.accepts.Load() != 1 {
		t.Fatalf("the admitted listener saw %d accepts, want 1", ok.accepts.Load())
	}
	if got := rec.all(); len(got) != 1 {
		t.Fatalf("refusals %+v", got)
	}
}

// A name is resolved once and every address checked: one refused address
// refuses the name, and the proxy never dials an address it did not check.
func TestResolvedOnceEveryAddressChecked(t *testing.T) {
	denied := listen(t, "127.0.0.2")
	var lookups atomic.Int64
	rec := &recorder{}
	p := start(t, Config{
		Rules:   func() Rules { return Rules{Addr: denyAddr("127.0.0.2")} },
		Refused: rec.add,
		Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
			lookups.Add(1)
			if host != "rebind.test" {
				return nil, fmt.Errorf("unknown %s", host)
			}
			return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::ffff:127.0.0.2")}, nil
		},
	})
	c := client(p)
	code, _ := get(t, c, "http://rebind.test:"+denied.port()+"/")
	if code != http.StatusForbidden {
		t.Fatalf("a name with a refused address answered %d", code)
	}
	// An address literal in every spelling is checked as its address.
	for _, h := range []string{"127.0.0.2", "[::ffff:127.0.0.2]", "[::ffff:7f00:2]"} {
		if code, _ := get(t, c, "http://"+h+":"+denied.port()+"/"); code != http.StatusForbidden {
			t.Fatalf("%s answered %d", h, code)
		}
	}
	if lookups.Load() != 1 {
		t.Fatalf("%d lookups, want 1", lookups.Load())
	}
	if n := denied.accepts.Load(); n != 0 {
		t.Fatalf("the denied listener saw %d accepts", n)
	}
	got := rec.all()
	if len(got) != 4 || got[0].Addr != netip.MustParseAddr("127.0.0.2") || got[0].Host != "rebind.test:"+denied.port() {
		t.Fatalf("refusals %+v", got)
	}
}

// The decision is asked for every request: a kept-alive connection to an
// admitted host is refused once the decision narrows.
func TestDecisionAskedPerRequest(t *testing.T) {
	ok := listen(t, "127.0.0.1")
	var deny atomic.Bool
	p := start(t, Config{Rules: func() Rules {
		if deny.Load() {
			return Rules{Host: denyHost("127.0.0.1")}
		}
		return Rules{}
	}})
	c := client(p)
	if code, _ := get(t, c, "http://127.0.0.1:"+ok.port()+"/"); code != 200 {
		t.Fatalf("first: %d", code)
	}
	deny.Store(true)
	if code, _ := get(t, c, "http://127.0.0.1:"+ok.port()+"/"); code != http.StatusForbidden {
		t.Fatalf("after narrowing: %d", code)
	}
	if ok.requests.Load() != 1 {
		t.Fatalf("%d requests reached the host, want 1", ok.requests.Load())
	}
}

func TestRefusesLoopsOriginFormAndHugeHeaders(t *testing.T) {
	p := start(t, Config{})
	c := client(p)
	if code, _ := get(t, c, p.URL()+"/"); code != http.StatusForbidden {
		t.Fatalf("a request for the proxy itself answered %d", code)
	}
	other := start(t, Config{}) // another context's proxy: no way round its decision
	if code, _ := get(t, c, "http://localhost:"+strconv.Itoa(int(other.Addr().Port()))+"/"); code != http.StatusForbidden {
		t.Fatalf("a request for another proxy answered %d", code)
	}
	for _, raw := range []string{
		"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET ftp://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"CONNECT 127.0.0.1:0 HTTP/1.1\r\nHost: 127.0.0.1:0\r\n\r\n",
		"GET http://127.0.0.1/ HTTP/1.1\r\nX: " + strings.Repeat("a", limits.ProxyHeaderBytesMax) + "\r\n\r\n",
	} {
		conn, err := net.Dial("tcp", p.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = io.WriteString(conn, raw) }()
		line, _ := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if !strings.Contains(line, " 400 ") && !strings.Contains(line, " 431 ") {
			t.Fatalf("%.40q answered %q", raw, line)
		}
	}
}

// localhost and *.localhost are loopback without asking a resolver, as
// Chromium answers them; their addresses still meet the address decision.
func TestLocalhostIsLoopbackWithoutResolver(t *testing.T) {
	ok := listen(t, "127.0.0.1")
	var lookups atomic.Int64
	p := start(t, Config{
		Rules: func() Rules { return Rules{Addr: denyAddr("::1")} },
		Resolve: func(context.Context, string) ([]netip.Addr, error) {
			lookups.Add(1)
			return nil, fmt.Errorf("no resolver here")
		},
	})
	c := client(p)
	for _, h := range []string{"localhost", "LocalHost.", "app.localhost"} {
		if code, body := get(t, c, "http://"+h+":"+ok.port()+"/x"); code != http.StatusForbidden {
			t.Fatalf("%s with ::1 denied answered %d %q (every address is checked)", h, code, body)
		}
	}
	p2 := start(t, Config{Resolve: func(context.Context, string) ([]netip.Addr, error) {
		lookups.Add(1)
		return nil, fmt.Errorf("no resolver here")
	}})
	if code, body := get(t, client(p2), "http://localhost:"+ok.port()+"/x"); code != 200 || !strings.Contains(body, "/x") {
		t.Fatalf("localhost: %d %q", code, body)
	}
	if lookups.Load() != 0 {
		t.Fatalf("%d lookups for localhost names", lookups.Load())
	}
}
