package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

// devtoolsFront stands in front of the person's browser's DevTools port and
// counts every connection and the first line each one sends: what reached
// the endpoint, seen from the endpoint's side.
type devtoolsFront struct {
	addr     string
	accepted atomic.Int64
	mu       sync.Mutex
	lines    []string
}

func (f *devtoolsFront) seen() (int64, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.accepted.Load(), append([]string(nil), f.lines...)
}

func frontDevTools(t *testing.T, upstream string) *devtoolsFront {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &devtoolsFront{addr: l.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			f.accepted.Add(1)
			wg.Go(func() { f.serve(c, upstream) })
		}
	})
	return f
}

func (f *devtoolsFront) serve(c net.Conn, upstream string) {
	defer c.Close()
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	f.mu.Lock()
	f.lines = append(f.lines, strings.TrimSpace(line))
	f.mu.Unlock()
	if err != nil {
		return
	}
	u, err := net.Dial("tcp", upstream)
	if err != nil {
		return
	}
	defer u.Close()
	if _, err := io.WriteString(u, line); err != nil {
		return
	}
	go func() { _, _ = io.Copy(u, r); _ = u.Close() }()
	_, _ = io.Copy(c, u)
}

// attackSite serves, on 127.0.0.1, a page whose script, image and frames try
// the DevTools endpoint and the MCP listener by several loopback spellings and
// reports when every attempt settled, and a page with a link to the endpoint.
func attackSite(t *testing.T, devtoolsPort, mcpPort string) (*httptest.Server, chan struct{}) {
	t.Helper()
	settled := make(chan struct{}, 16)
	mux := http.NewServeMux()
	mux.HandleFunc("/attack", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<title>attack</title><body>
<script>
const dt = %[1]q, mcp = %[2]q;
const frame = src => new Promise(res => {
  const f = document.createElement("iframe");
  f.onload = f.onerror = res;
  f.src = src;
  document.body.appendChild(f);
});
const tries = [
  fetch("http://127.0.0.1:" + dt + "/json/list", {mode: "no-cors"}),
  fetch("http://localhost:" + dt + "/json/version", {mode: "no-cors"}),
  fetch("http://2130706433:" + dt + "/json/list?decimal", {mode: "no-cors"}),
  fetch("http://127.0.0.1:" + dt + "/json/close/x", {mode: "no-cors", method: "POST"}),
  fetch("http://127.0.0.1:" + mcp + "/mcp", {mode: "no-cors", method: "POST", body: "{}"}),
  new Promise(res => { const i = new Image(); i.onload = i.onerror = res; i.src = "http://127.0.0.1:" + dt + "/json/list?img"; }),
  frame("http://127.0.0.1:" + dt + "/json/list"),
  frame("http://localhost:" + dt + "/json/list?frame"),
  frame("http://127.0.0.1:" + mcp + "/mcp"),
  new Promise(res => { const w = new WebSocket("ws://127.0.0.1:" + dt + "/devtools/browser/x"); w.onopen = w.onerror = w.onclose = res; }),
  new Promise(res => { const w = new WebSocket("ws://localhost:" + mcp + "/mcp"); w.onopen = w.onerror = w.onclose = res; }),
].map(p => p.then(() => "ok", () => "refused"));
Promise.all(tries).then(r => fetch("/settled?" + r.join(",")));
</script></body>`, devtoolsPort, mcpPort)
	})
	mux.HandleFunc("/settled", func(w http.ResponseWriter, r *http.Request) {
		t.Logf("the page's attempts settled: %s", r.URL.RawQuery)
		settled <- struct{}{}
	})
	mux.HandleFunc("/link", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<title>link</title><a href="http://localhost:%s/json/list?link">devtools list</a>`, devtoolsPort)
	})
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>plain</title><p>plain</p>`)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s, settled
}

// mcpCall runs one tool call in an HTTP session and decodes its answer.
func mcpCall(t *testing.T, endpoint, sid string, id int, tool, args string) (result, envelope) {
	t.Helper()
	resp, body := post(context.Background(), endpoint, sid, toolCall(id, tool, args))
	if resp == nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %v %.300s", tool, resp, body)
	}
	line := strings.TrimSpace(body)
	if i := strings.LastIndex(line, "data: "); i >= 0 {
		line = strings.TrimSpace(line[i+len("data: "):])
	}
	return decodeResult(t, line)
}

// TestPagesNeverReachTheEndpointOrServer: attached to the person's browser
// at a DevTools port (--browser-endpoint), with the MCP endpoint served over
// HTTP, a page on 127.0.0.1 fetches, frames, loads an image from and opens
// WebSockets to the DevTools endpoint and the MCP listener, by several
// spellings, and a click follows a link there; the model navigates there. In
// both host modes the endpoint's front serves no request beyond Ghostlight's
// own, the MCP listener sees no browser request, and the model's navigations
// are refused saying why.
func TestPagesNeverReachTheEndpointOrServer(t *testing.T) {
	l := launchChromium(t) // the person's browser, with a DevTools port
	pu, err := url.Parse(l.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"navigation", "all"} {
		t.Run(mode, func(t *testing.T) {
			front := frontDevTools(t, pu.Host)
			_, dtPort, _ := net.SplitHostPort(front.addr)
			layer := filepath.Join(t.TempDir(), "policy.cue")
			if err := os.WriteFile(layer, []byte("hosts: requests: \""+mode+"\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			loader, err := governance.Load(governance.Config{Files: []governance.File{{Layer: "workspace", Path: layer, Explicit: true}}, DefaultStartup: browser.StartupConnect}, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(Config{Browser: browser.Config{Startup: browser.StartupConnect, Endpoint: "ws://" + front.addr + pu.Path}, Policy: loader.Current, Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close(context.Background()) })
			var fromBrowser atomic.Int64
			edge := s.Edge().HTTPHandler(mcpedge.HTTPOptions{})
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Sec-Fetch-Mode") != "" { // a browser's request, not the test's client
					fromBrowser.Add(1)
				}
				edge.ServeHTTP(w, r)
			}))
			t.Cleanup(ts.Close)
			s.Listening(governance.SelfMCP, ts.Listener.Addr().String())
			_, mcpPort, _ := net.SplitHostPort(ts.Listener.Addr().String())
			site, settled := attackSite(t, dtPort, mcpPort)
			endpoint := ts.URL + mcpedge.MCPPath
			sid := initHTTP(t, endpoint)

			res, env := mcpCall(t, endpoint, sid, 2, "browser_navigate", fmt.Sprintf(`{"url":%q,"timeout_ms":30000}`, site.URL+"/page"))
			if res.IsError {
				t.Fatalf("navigate to the plain page: %+v", env)
			}
			base, lines := front.seen() // Ghostlight's own connection
			if base == 0 {
				t.Fatalf("Ghostlight never connected through the front: %v", lines)
			}

			res, env = mcpCall(t, endpoint, sid, 3, "browser_navigate", fmt.Sprintf(`{"url":%q}`, site.URL+"/attack"))
			if res.IsError {
				t.Fatalf("navigate to the attack page: %+v", env)
			}
			<-settled
			res, env = mcpCall(t, endpoint, sid, 4, "browser_navigate", fmt.Sprintf(`{"url":%q}`, site.URL+"/link"))
			if res.IsError {
				t.Fatalf("navigate to the link page: %+v", env)
			}
			_, env = mcpCall(t, endpoint, sid, 5, "browser_click", `{"selector":{"name":"devtools list"}}`)
			// The click happened; the navigation it started was stopped, and
			// the result says so, naming the ceiling.
			if !strings.Contains(env.Summary, "was stopped") || !strings.Contains(env.Summary, "ceiling") {
				t.Errorf("the click's result does not say its navigation was stopped by the ceiling: %s", env.Summary)
			}
			for i, u := range []string{
				"http://127.0.0.1:" + dtPort + "/json/list",
				"http://[::1]:" + dtPort + "/json/list",
				"http://0x7f000001:" + dtPort + "/json/close/x",
				"http://127.0.0.1:" + mcpPort + "/mcp",
			} {
				res, env := mcpCall(t, endpoint, sid, 10+i, "browser_navigate", fmt.Sprintf(`{"url":%q}`, u))
				if !res.IsError || env.Status != "blocked" || env.Facts.Reason != "host_denied" {
					t.Errorf("the model's navigate to %s: %+v", u, env)
				}
				want := "DevTools endpoint"
				if strings.Contains(u, mcpPort) {
					want = "Ghostlight's own MCP endpoint"
				}
				if !strings.Contains(env.Summary, want) {
					t.Errorf("the refusal of %s does not say why: %s", u, env.Summary)
				}
			}
			// Requests are what the endpoint serves: none but Ghostlight's own.
			// (Chromium may still open an idle TCP connection ahead of a
			// request the boundary then stops, its preconnect: counted and
			// shown, not served; the policy proxy of issue 21's second part
			// is what keeps those off too.)
			after, lines := front.seen()
			var served []string
			for _, ln := range lines {
				if ln != "" && !strings.HasPrefix(ln, "GET "+pu.Path+" ") {
					served = append(served, ln)
				}
			}
			if len(served) != 0 {
				t.Errorf("the DevTools endpoint received requests: %q", served)
			}
			if n := fromBrowser.Load(); n != 0 {
				t.Errorf("the MCP listener received %d requests from the browser", n)
			}
			t.Logf("%s: DevTools front: %d TCP connections (%d before the attacks), requests %q; browser requests at the MCP listener %d", mode, after, base, lines, fromBrowser.Load())
		})
	}
}
