//go:build unix

package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// remoteEndpoint starts a Chromium as a separate process (another host's or
// a container's stand-in) and returns its DevTools websocket as a pool gives
// one, at 127.0.0.2 with a path and a query token. Chromium 156 ignores
// --remote-debugging-address and listens on 127.0.0.1 only (measured), so
// a forwarder on 127.0.0.2 publishes it, as a container's port proxy does.
func remoteEndpoint(t *testing.T) string {
	t.Helper()
	bin := "/usr/lib/chromium/chromium" // the real binary behind Debian's wrapper
	if _, err := os.Stat(bin); err != nil {
		bin = "/usr/bin/chromium"
	}
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
		"--remote-debugging-address=127.0.0.2", "--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "xdg"), "TMPDIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); <-exited })
	var port, path string
	for deadline := time.Now().Add(30 * time.Second); port == ""; {
		raw, _ := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if p, wsPath, ok := strings.Cut(strings.TrimSpace(string(raw)), "\n"); ok {
			if _, err := strconv.Atoi(p); err == nil {
				port, path = p, wsPath
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the remote browser did not listen")
		}
		select {
		case <-exited:
			t.Fatal("the remote browser exited")
		case <-time.After(20 * time.Millisecond):
		}
	}
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				u, err := net.Dial("tcp", "127.0.0.1:"+port)
				if err != nil {
					return
				}
				defer u.Close()
				done := make(chan struct{}, 2)
				go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
				go func() { _, _ = io.Copy(c, u); done <- struct{}{} }()
				<-done
			}()
		}
	}()
	return "ws://" + l.Addr().String() + path + "?token=pool-token"
}

// loggingSite serves pages on host, logging each request's path and the
// sid cookie it carried; /login?user=U sets that cookie.
type loggingSite struct {
	addr string
	mu   sync.Mutex
	log  []string
}

func newLoggingSite(t *testing.T, host string) *loggingSite {
	t.Helper()
	l, err := net.Listen("tcp", host+":0")
	if err != nil {
		t.Fatal(err)
	}
	s := &loggingSite{addr: l.Addr().String()}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := ""
		if c, err := r.Cookie("sid"); err == nil {
			sid = c.Value
		}
		s.mu.Lock()
		s.log = append(s.log, r.URL.Path+" sid="+sid)
		s.mu.Unlock()
		if u := r.URL.Query().Get("user"); u != "" {
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: u, Path: "/"})
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<title>%s</title><main><h1>Remote page</h1><button onclick="this.textContent='Saved'">Save</button></main>`, strings.TrimPrefix(r.URL.Path, "/"))
	})}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	return s
}

func (s *loggingSite) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// TestLiveRemoteBrowser runs the shipped binary over HTTP against a remote
// browser given as a ws:// endpoint with a path and a token: two MCP sessions
// navigate, inspect and click with the same handles, policy and audit as on
// a launched browser; a host the workspace layer denies is refused with its
// server receiving nothing; the sessions share no cookie or tab; and the
// server launches no browser of its own.
func TestLiveRemoteBrowser(t *testing.T) {
	endpoint := remoteEndpoint(t)
	pages := newLoggingSite(t, "127.0.0.1")
	denied := newLoggingSite(t, "127.0.0.3")
	dir := t.TempDir()
	penv := policyEnv(t, dir, "", "", "hosts: deny: [\"127.0.0.3\"]\n")
	tmp := ""
	for _, kv := range penv {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	auditPath := filepath.Join(dir, "audit.jsonl")
	const token = "remote-test-token"
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	cmd := exec.Command(serverBinary(t), "serve", "--http", addr, "--token", token, "--audit-path", auditPath, "--browser-endpoint", endpoint)
	cmd.Env = environ(penv)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }) // after the clients close

	session := func() *liveServer {
		c, err := client.NewStreamableHttpClient("http://"+addr+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
		if err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		// 2025-11-25: a protocol session per client, so each is one workspace
		// (2026-07-28 requests of one token would share its one workspace).
		init.Params.ProtocolVersion = mcp.ProtocolVersion20251125
		init.Params.ClientInfo = mcp.Implementation{Name: "conformance", Version: "1"}
		for try := 0; ; try++ {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err = c.Initialize(ctx, init)
			cancel()
			if err == nil {
				break
			}
			if try == 50 {
				t.Fatalf("initialize: %v\n%s", err, stderr.String())
			}
			time.Sleep(100 * time.Millisecond) // the server is still starting
		}
		t.Cleanup(func() { c.Close() })
		return &liveServer{c: c, tmp: tmp, stderr: stderr}
	}
	a, b := session(), session()
	facts := func(env surface.Envelope, v any) {
		t.Helper()
		if err := json.Unmarshal(env.Facts, v); err != nil {
			t.Fatal(err)
		}
	}

	// A: navigate (logging in), inspect, click by handle, read.
	_, env := a.call(t, "browser_navigate", map[string]any{"url": "http://" + pages.addr + "/login?user=alice"})
	var nav surface.BrowserNavigateFacts
	facts(env, &nav)
	if env.Status != surface.StatusSucceeded || !nav.Created || !strings.HasPrefix(nav.Tab, "tab_") {
		t.Fatalf("navigate: %+v", env)
	}
	_, env = a.call(t, "browser_inspect", map[string]any{})
	var ins surface.BrowserInspectFacts
	facts(env, &ins)
	target := ""
	for _, it := range ins.Items {
		if it.Name == "Save" {
			target = it.Target
		}
	}
	if target == "" {
		t.Fatalf("inspect found no Save button: %+v\n%s", env, stderr.String())
	}
	if _, env = a.call(t, "browser_click", map[string]any{"target": target}); env.Status != surface.StatusSucceeded {
		t.Fatalf("click: %+v", env)
	}
	_, env = a.call(t, "browser_read", map[string]any{})
	var read surface.BrowserReadFacts
	facts(env, &read)
	if !strings.Contains(read.Text, "Saved") {
		t.Fatalf("the click did not land: %q", read.Text)
	}
	// A denied host: refused before anything leaves the browser.
	_, env = a.call(t, "browser_navigate", map[string]any{"url": "http://" + denied.addr + "/secret", "tab": nav.Tab})
	if env.Status != surface.StatusBlocked || env.Facts == nil || !bytes.Contains(env.Facts, []byte(`"host_denied"`)) || !bytes.Contains(env.Facts, []byte(`"workspace"`)) {
		t.Fatalf("denied navigate: %+v %s", env, env.Facts)
	}
	if got := denied.requests(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}

	// B: same origin, no cookie; A's tab neither listed nor addressable.
	_, env = b.call(t, "browser_navigate", map[string]any{"url": "http://" + pages.addr + "/whoami"})
	if env.Status != surface.StatusSucceeded {
		t.Fatalf("B navigate: %+v", env)
	}
	for _, r := range pages.requests() {
		if strings.HasPrefix(r, "/whoami ") && r != "/whoami sid=" {
			t.Fatalf("B's request carried A's cookie: %s", r)
		}
	}
	_, env = b.call(t, "browser_tabs", map[string]any{"action": "list"})
	var tabs surface.BrowserTabsFacts
	facts(env, &tabs)
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].Tab == nav.Tab {
		t.Fatalf("B lists %+v", tabs.Tabs)
	}
	if _, env = b.call(t, "browser_read", map[string]any{"tab": nav.Tab}); env.Status == surface.StatusSucceeded || !bytes.Contains(env.Facts, []byte(`"unknown_tab"`)) {
		t.Fatalf("B read A's tab: %+v %s", env, env.Facts)
	}
	f := explainFacts(t, a)
	found := false
	for _, s := range f.Settings {
		if s.Key == "browser.isolation" {
			found = s.Value == "session" && s.Layer == "default"
		}
	}
	if !found || f.Startup != "connect" {
		t.Fatalf("explain: startup %s, settings %+v", f.Startup, f.Settings)
	}

	// The audit reads as on a launched browser: hosts, the deciding layer.
	var navOK, navDenied bool
	for _, l := range auditLines(t, auditPath) {
		switch {
		case l.Tool == "browser_navigate" && l.Status == "succeeded" && len(l.Hosts) == 1 && l.Hosts[0] == pages.addr:
			navOK = true
		case l.Tool == "browser_navigate" && l.Decision == "deny" && l.Layer == "workspace" && slices.Contains(l.Hosts, denied.addr):
			navDenied = true
		}
		for _, h := range l.Hosts {
			if strings.HasPrefix(h, "127.0.0.2") {
				t.Fatalf("the browser's own address entered the audit: %+v", l)
			}
		}
	}
	if !navOK || !navDenied {
		t.Fatalf("audit lines: navigate ok %v, denied %v: %+v", navOK, navDenied, auditLines(t, auditPath))
	}
	if n := chromiumUnder(t, tmp); n != 0 {
		t.Fatalf("the server launched %d browser processes of its own", n)
	}
	if strings.Contains(stderr.String(), "pool-token") {
		t.Fatal("the endpoint's token reached the log")
	}
}
