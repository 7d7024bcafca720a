package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

// opsHandler serves s over HTTP as ghostlight serve --http does: probes,
// /metrics behind the token.
func opsHandler(s *Server, token string) http.Handler {
	return s.Edge().HTTPHandler(mcpedge.HTTPOptions{BearerToken: token, Ready: s.Ready,
		ReadyWait: time.Duration(surface.ReadyzMsMax) * time.Millisecond, Metrics: s.Metrics().Handler()})
}

// get sends one request with host (and token when not "") and returns the
// status and body.
func get(t *testing.T, method, url, host, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	if host != "" {
		req.Host = host
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestProbesAndMetrics: against a real Chromium over real HTTP, /healthz and
// /readyz answer ok without the token and whatever the Host (a Kubernetes
// probe sends the pod address), answer nothing else (another method, a path
// below them), and /metrics is behind the token and shows the calls made,
// by tool and status, their latency, the boundary refusal, the audit writes
// and what the workspace holds.
func TestProbesAndMetrics(t *testing.T) {
	l := launchChromium(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>t</title><button>Press me</button>`)
	}))
	t.Cleanup(site.Close)
	journal := audit.Open(audit.Config{Path: filepath.Join(t.TempDir(), "audit.jsonl"), MaxBytes: 1 << 20, Keep: 1}, nil)
	t.Cleanup(func() { journal.Close() })
	s, err := New(Config{Browser: browser.Config{Startup: browser.StartupConnect, Endpoint: l.endpoint}, Version: "test", Journal: journal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = s.Close(ctx)
	})
	srv := httptest.NewServer(opsHandler(s, "tok"))
	t.Cleanup(srv.Close)

	for _, c := range []struct {
		method, path, host string
		status             int
		body               string
	}{
		{"GET", "/healthz", "10.1.2.3:8080", 200, "ok\n"},
		{"HEAD", "/healthz", "", 200, ""},
		{"GET", "/readyz", "10.1.2.3:8080", 200, "ok\n"},
		{"POST", "/readyz", "", 405, ""},
		{"GET", "/healthz/more", "", 401, ""},
		{"GET", "/metrics", "", 401, ""},
	} {
		st, body := get(t, c.method, srv.URL+c.path, c.host, "")
		if st != c.status || (c.body != "" && body != c.body) {
			t.Errorf("%s %s (Host %q): %d %q, want %d %q", c.method, c.path, c.host, st, body, c.status, c.body)
		}
	}

	call := func(tool string, args string) statelessEnvelope {
		t.Helper()
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, tool, args, modernMeta)
		var res struct {
			StructuredContent statelessEnvelope `json:"structuredContent"`
		}
		if err := json.Unmarshal(postModern(t, srv.URL+mcpedge.MCPPath, "tok", body), &res); err != nil {
			t.Fatal(err)
		}
		return res.StructuredContent
	}
	if nav := call("browser_navigate", fmt.Sprintf(`{"url":%q,"timeout_ms":30000}`, site.URL+"/")); nav.Status != "succeeded" {
		t.Fatalf("navigate: %+v", nav)
	}
	if ins := call("browser_inspect", `{}`); ins.Status != "succeeded" {
		t.Fatalf("inspect: %+v", ins)
	}
	if ins := call("browser_inspect", `{}`); ins.Status != "succeeded" {
		t.Fatalf("inspect: %+v", ins)
	}
	if den := call("browser_navigate", fmt.Sprintf(`{"url":%q,"restrict_hosts":["example.org"]}`, site.URL+"/")); den.Facts.Reason != "host_denied" {
		t.Fatalf("navigate outside restrict_hosts: %+v", den)
	}
	st, text := get(t, "GET", srv.URL+"/metrics", "", "tok")
	if st != 200 {
		t.Fatalf("/metrics with the token: %d", st)
	}
	for _, want := range []string{
		`ghostlight_calls_total{status="succeeded",tool="browser_navigate"} 1`,
		`ghostlight_calls_total{status="succeeded",tool="browser_inspect"} 2`,
		`ghostlight_calls_total{status="blocked",tool="browser_navigate"} 1`,
		`ghostlight_call_seconds_count{tool="browser_inspect"} 2`,
		`ghostlight_boundary_refusals_total{reason="host_denied"} 1`,
		`ghostlight_audit_write_seconds_count `,
		"ghostlight_workspaces 1\n",
		"ghostlight_browser_contexts 1\n",
		"ghostlight_tabs 1\n",
		"ghostlight_browser_restarts_total 0\n",
		"ghostlight_draining 0\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", text)
	}
}

// TestReadyzRefusesWithoutABrowser: a server whose browser cannot be
// reached is alive (/healthz) and not ready (/readyz 503).
func TestReadyzRefusesWithoutABrowser(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	endpoint := "http://" + dead.Listener.Addr().String()
	dead.Close() // nothing listens there now
	s, err := New(Config{Browser: browser.Config{Startup: browser.StartupConnect, Endpoint: endpoint}, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	srv := httptest.NewServer(opsHandler(s, "tok"))
	t.Cleanup(srv.Close)
	if st, _ := get(t, "GET", srv.URL+"/healthz", "", ""); st != 200 {
		t.Errorf("/healthz: %d", st)
	}
	if st, body := get(t, "GET", srv.URL+"/readyz", "", ""); st != 503 || strings.Contains(body, endpoint) {
		t.Errorf("/readyz without a browser: %d %q", st, body)
	}
}
