//go:build unix

package browser

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// remoteChromium is a Chromium the test starts as a separate process, as a
// container or another host runs one, reached only at 127.0.0.2.
//
// Chromium 156 (new headless) ignores --remote-debugging-address and listens
// on 127.0.0.1 only (measured): a container publishes it through a forwarder
// (socat, Docker's port proxy, a pool's front end), and so does this test, on
// 127.0.0.2. Ghostlight is given nothing but 127.0.0.2 addresses.
type remoteChromium struct {
	local  string // 127.0.0.1:port, Chromium's own listener (never given to Ghostlight)
	wsPath string // /devtools/browser/<id>
	addr   string // 127.0.0.2:port, the forwarder
	pool   *poolFront
	home   string // its HOME: the browser's own downloads land in home/Downloads
}

func startRemoteChromium(t testing.TB) *remoteChromium {
	t.Helper()
	dir := t.TempDir()
	profile, tmp := filepath.Join(dir, "profile"), filepath.Join(dir, "t")
	_ = os.MkdirAll(tmp, 0o700)
	cmd := exec.Command(realChromium(t), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--remote-debugging-address=127.0.0.2", "--remote-debugging-port=0",
		"--user-data-dir="+profile, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	home := filepath.Join(dir, "home")
	_ = os.MkdirAll(home, 0o700)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "xdg"), "TMPDIR="+tmp, "HOME="+home)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	r := &remoteChromium{home: home}
	ctx := ctxT(t, 30*time.Second)
	for r.local == "" {
		raw, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if port, path, ok := strings.Cut(strings.TrimSpace(string(raw)), "\n"); err == nil && ok {
			if _, err := strconv.Atoi(port); err == nil {
				r.local, r.wsPath = "127.0.0.1:"+port, path
				break
			}
		}
		select {
		case <-exited:
			t.Fatal("the remote browser exited")
		case <-ctx.Done():
			t.Fatal("the remote browser did not listen")
		case <-time.After(20 * time.Millisecond):
		}
	}
	r.addr = forward(t, "127.0.0.2:0", func(c net.Conn) { splice(c, nil, r.local) })
	r.pool = newPoolFront(t, r)
	return r
}

// forward listens on addr and hands every connection to serve.
func forward(t testing.TB, addr string, serve func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	})
	return l.Addr().String()
}

// splice connects c to the upstream address, first writing head (bytes
// already read from c, rewritten) upstream.
func splice(c net.Conn, head []byte, upstream string) {
	defer c.Close()
	u, err := net.Dial("tcp", upstream)
	if err != nil {
		return
	}
	defer u.Close()
	if len(head) > 0 {
		if _, err := u.Write(head); err != nil {
			return
		}
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, u); done <- struct{}{} }()
	<-done
}

// poolFront stands in for a browser pool or grid in front of the browser:
// browserless's `ws://host:3000/chromium?token=…` and a Selenium Grid 4
// node's `ws://node:4444/session/<id>/se/cdp`. It checks the path and the
// token, then passes the socket through to the browser's own websocket (as
// those front ends do); anything else is refused 401 and counted.
type poolFront struct {
	addr           string
	token, session string
	refused        atomic.Int64
}

func newPoolFront(t testing.TB, r *remoteChromium) *poolFront {
	p := &poolFront{token: "s3cret-token", session: "4f2c9d"}
	p.addr = forward(t, "127.0.0.2:0", func(c net.Conn) {
		br := bufio.NewReader(c)
		req, err := http.ReadRequest(br)
		if err != nil {
			c.Close()
			return
		}
		okPath := req.URL.Path == "/chromium" || req.URL.Path == "/session/"+p.session+"/se/cdp"
		if !okPath || req.URL.Query().Get("token") != p.token {
			p.refused.Add(1)
			_, _ = io.WriteString(c, "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			c.Close()
			return
		}
		req.URL.Path, req.URL.RawQuery, req.Host = r.wsPath, "", r.local
		req.RequestURI = ""
		var head strings.Builder
		_ = req.Write(&head)
		buffered, _ := br.Peek(br.Buffered())
		splice(c, append([]byte(head.String()), buffered...), r.local)
	})
	return p
}

func (p *poolFront) browserless() string {
	return "ws://" + p.addr + "/chromium?token=" + p.token
}

func (p *poolFront) grid() string {
	return "ws://" + p.addr + "/session/" + p.session + "/se/cdp?token=" + p.token
}

func remoteBrowser(t testing.TB, endpoint string) *Browser {
	t.Helper()
	b := New(Config{Startup: StartupConnect, Endpoint: endpoint, Headless: true})
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// TestRemoteEndpointForms: every way a remote browser is given reaches it,
// and a page served on 127.0.0.1 loads in it.
func TestRemoteEndpointForms(t *testing.T) {
	r := startRemoteChromium(t)
	_, port, _ := net.SplitHostPort(r.local)
	host, _ := os.Hostname()
	forms := []struct{ name, endpoint string }{
		{"http", "http://" + r.addr},
		{"bare host:port", r.addr},
		{"http with /json/version", "http://" + r.addr + "/json/version"},
		{"ws browser url", "ws://" + r.addr + r.wsPath},
		{"browserless ws with token", r.pool.browserless()},
		{"selenium grid node cdp", r.pool.grid()},
	}
	// A browser reached by a name (a container's, on its network): Chromium
	// refuses that Host, and is asked again by address. The machine's own name
	// stands in for it where it resolves to loopback.
	if ips, err := net.LookupIP(host); err == nil && len(ips) > 0 && ips[0].IsLoopback() {
		forms = append(forms, struct{ name, endpoint string }{"host name", "http://" + host + ":" + port})
	} else {
		t.Logf("%s does not resolve to loopback: the host-name form is not tried", host)
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			b := remoteBrowser(t, f.endpoint)
			ws := b.Workspace("forms")
			res, err := ws.Open(ctxT(t, 30*time.Second), pageURL("remote"), OpenOptions{NewTab: true})
			if err != nil || res.Landing.Title != "remote" {
				t.Fatalf("%s: %+v %v", f.endpoint, res.Landing, err)
			}
			if c := liveConn(t, b); c.proc != nil {
				t.Fatal("a remote browser must not be launched")
			}
		})
	}
	if r.pool.refused.Load() != 0 {
		t.Fatalf("the pool refused %d good connections", r.pool.refused.Load())
	}
}

// TestRemoteEndpointRefusalKeepsTokenSecret: a pool that refuses the socket
// is browser_unavailable naming host:port only, never the path or token.
func TestRemoteEndpointRefusalKeepsTokenSecret(t *testing.T) {
	r := startRemoteChromium(t)
	bad := "ws://" + r.pool.addr + "/chromium?token=wrong-" + r.pool.token
	b := remoteBrowser(t, bad)
	_, err := b.Workspace("bad").Tabs(ctxT(t, 20*time.Second))
	e := wantKind(t, err, KindUnreachable)
	if EndpointHost(e.Endpoint) != r.pool.addr || strings.Contains(err.Error(), r.pool.token) || strings.Contains(err.Error(), "/chromium") {
		t.Fatalf("refusal %q (endpoint %s)", err, EndpointHost(e.Endpoint))
	}
	if r.pool.refused.Load() != 1 {
		t.Fatalf("pool refusals: %d", r.pool.refused.Load())
	}
}

// TestRemoteBrowserActsGuardsAndIsolates: on a remote browser behind a pool
// front end, a session navigates, inspects and clicks on 127.0.0.1 pages; a
// host its boundary denies is refused with the denied server receiving
// nothing; and sessions are isolated as on a launched browser.
func TestRemoteBrowserActsGuardsAndIsolates(t *testing.T) {
	r := startRemoteChromium(t)
	b := remoteBrowser(t, r.pool.browserless())
	s := newTwoHosts(t, map[string]string{
		"/form": `<title>form</title><body style="margin:0"><button id=go style="width:200px;height:100px" onclick="this.textContent='clicked'">go</button>
<a id=out href="http://{B}/secret?token=x">out</a></body>`,
	})
	ws := b.Workspace("acts")
	t.Cleanup(func() { _ = b.ReleaseWorkspace(context.Background(), "acts") })
	ctx := governed(t, onlyA(false))
	res, err := ws.Open(ctx, "http://"+s.a+"/form", OpenOptions{NewTab: true})
	if err != nil || res.Landing.Title != "form" {
		t.Fatalf("navigate: %+v %v", res.Landing, err)
	}
	tab := res.Tab
	if got := eval(t, tab, `[...document.querySelectorAll("button,a")].map(e => e.id + ":" + e.textContent).join(",")`); got != "go:go,out:out" {
		t.Fatalf("inspect: %q", got)
	}
	click(t, tab, 100, 50)
	if got := eval(t, tab, `document.getElementById("go").textContent`); got != "clicked" {
		t.Fatalf("click: %q", got)
	}
	_, err = tab.Navigate(governed(t, onlyA(false)), "http://"+s.b+"/secret?token=x", NavigateOptions{})
	if e := wantKind(t, err, KindHostDenied); e.Host != s.b {
		t.Fatalf("denied host %q", e.Host)
	}
	if n, _ := ws.TakeBlocked(); n != 1 {
		t.Fatalf("blocked records after the denied navigation: %d", n)
	}
	// A page's own link to the denied host is held too.
	if err := tab.Do(governed(t, onlyA(false)), func(ctx context.Context) error {
		_, err := proto.RuntimeEvaluate{Expression: `document.getElementById("out").click()`}.Call(tab.Page().Context(ctx))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the page's navigation blocked", func() bool { n, _ := ws.TakeBlocked(); return n > 0 })
	if got := s.bRequests(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}
	if u := tab.URL(); u != "http://"+s.a+"/form" {
		t.Fatalf("the tab left its page: %s", u)
	}
	checkIsolated(t, b, newCookieSite(t, "127.0.0.1"))
}

// BenchmarkRemoteParallelSessions: 8 sessions at once on one remote browser
// (behind the pool front end), each logged in as its own user, each round
// navigating, reading the page and clicking. It reports per-call medians
// (ms) and checks, after the run, that every session saw only its own
// cookie and storage. No timing is asserted.
//
//	go test ./runtime/browser -run '^$' -bench RemoteParallelSessions -benchtime 10x
//
// remote/8 is the measurement; remote/1 and launched/8 (the package's
// launched browser) are its baselines under the same machine load.
func BenchmarkRemoteParallelSessions(bm *testing.B) {
	r := startRemoteChromium(bm)
	remote := remoteBrowser(bm, r.pool.browserless())
	site := newCookieSite(bm, "127.0.0.1")
	bm.Run("remote/8", func(bm *testing.B) { benchSessions(bm, remote, site, 8) })
	bm.Run("remote/1", func(bm *testing.B) { benchSessions(bm, remote, site, 1) })
	bm.Run("launched/8", func(bm *testing.B) { benchSessions(bm, shared, site, 8) })
}

func benchSessions(bm *testing.B, b *Browser, site *cookieSite, sessions int) {
	run := fmt.Sprintf("%s-%d", strings.ReplaceAll(bm.Name(), "/", "_"), time.Now().UnixNano())
	ctx := ctxT(bm, 10*time.Minute)
	tabs := make([]*Tab, sessions)
	for i := range sessions {
		id := fmt.Sprintf("%s-%d", run, i)
		bm.Cleanup(func() { _ = b.ReleaseWorkspace(context.Background(), id) })
		res, err := b.Workspace(id).Open(ctx, site.url(fmt.Sprintf("/login?user=%s-u%d", run, i)), OpenOptions{NewTab: true})
		if err != nil {
			bm.Fatal(err)
		}
		eval(bm, res.Tab, fmt.Sprintf(`localStorage.setItem("who", "%s-u%d")`, run, i))
		tabs[i] = res.Tab
	}
	var mu sync.Mutex
	lat := map[string][]time.Duration{}
	record := func(op string, d time.Duration) { mu.Lock(); lat[op] = append(lat[op], d); mu.Unlock() }
	wrong := atomic.Int64{}
	bm.ResetTimer()
	for range bm.N {
		var wg sync.WaitGroup
		for i, tab := range tabs {
			wg.Go(func() {
				t0 := time.Now()
				if _, err := tab.Navigate(ctx, site.url(fmt.Sprintf("/%s-page%d", run, i)), NavigateOptions{}); err != nil {
					bm.Error(err)
					return
				}
				record("navigate", time.Since(t0))
				t0 = time.Now()
				got, err := evalString(ctx, tab, `document.getElementById("who").textContent + "|" + localStorage.getItem("who")`)
				record("read", time.Since(t0))
				if err != nil || got != fmt.Sprintf("sid=%s-u%d|%s-u%d", run, i, run, i) {
					wrong.Add(1)
				}
				t0 = time.Now()
				if err := clickAt(ctx, tab, 20, 25); err != nil { // the sid line: a real input that opens nothing
					bm.Error(err)
					return
				}
				record("click", time.Since(t0))
			})
		}
		wg.Wait()
	}
	bm.StopTimer()
	if n := wrong.Load(); n != 0 {
		bm.Fatalf("%d reads saw another session's cookie or storage", n)
	}
	for i := range sessions {
		if got := site.received(fmt.Sprintf("/%s-page%d", run, i)); len(got) != bm.N || got[0] != fmt.Sprintf("sid=%s-u%d", run, i) {
			bm.Fatalf("session %d's requests carried %v", i, got)
		}
	}
	ops := []string{"navigate", "read", "click"}
	for _, op := range ops {
		d := lat[op]
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		med, p90 := d[len(d)/2], d[len(d)*9/10]
		bm.ReportMetric(float64(med.Microseconds())/1000, op+"-median-ms")
		bm.Logf("%d sessions x %d rounds: %s median %.1f ms, p90 %.1f ms, max %.1f ms (%d calls)", sessions, bm.N, op,
			float64(med.Microseconds())/1000, float64(p90.Microseconds())/1000, float64(d[len(d)-1].Microseconds())/1000, len(d))
	}
}

// evalString and clickAt are eval and click without failing the test, for
// goroutines.
func evalString(ctx context.Context, tab *Tab, script string) (string, error) {
	res, err := proto.RuntimeEvaluate{Expression: script, ReturnByValue: true}.Call(tab.Page().Context(ctx))
	if err != nil {
		return "", err
	}
	return res.Result.Value.String(), nil
}

func clickAt(ctx context.Context, tab *Tab, x, y float64) error {
	for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
		if err := (proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: proto.InputMouseButtonLeft, ClickCount: 1}).Call(tab.Page().Context(ctx)); err != nil {
			return err
		}
	}
	return nil
}
