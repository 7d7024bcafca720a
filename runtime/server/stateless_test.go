package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

// statelessEnvelope is what TestStatelessTabOmission reads of a result.
type statelessEnvelope struct {
	Status    string   `json:"status"`
	Summary   string   `json:"summary"`
	NextSteps []string `json:"next_steps"`
	Facts     struct {
		Tab    string `json:"tab"`
		Reason string `json:"reason"`
		Items  []struct {
			Target string `json:"target"`
			Name   string `json:"name"`
		} `json:"items"`
		Text string `json:"text"`
	} `json:"facts"`
}

// TestStatelessTabOmission: over HTTP at MCP 2026-07-28 (each request on its
// own, no session), against a real Chromium: navigate, then inspect without
// tab, then click naming only the target, as the token's only tab; the
// page saw the click. Another token is another workspace: its inspect
// without tab finds no tab, and is told to pass the handle from the navigate
// result rather than to open another tab.
func TestStatelessTabOmission(t *testing.T) {
	l := launchChromium(t)
	clicks := make(chan struct{}, 4)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/clicked" {
			clicks <- struct{}{}
			return
		}
		fmt.Fprint(w, `<!doctype html><title>t</title><button onclick="fetch('/clicked');this.textContent='done'">Press me</button>`)
	}))
	t.Cleanup(site.Close)
	s := newConnected(t, l)
	srvA := httptest.NewServer(s.Edge().HTTPHandler(mcpedge.HTTPOptions{BearerToken: "token-a"}))
	t.Cleanup(srvA.Close)
	srvB := httptest.NewServer(s.Edge().HTTPHandler(mcpedge.HTTPOptions{BearerToken: "token-b"}))
	t.Cleanup(srvB.Close)
	id := 0
	call := func(srv *httptest.Server, token, tool string, args map[string]any) statelessEnvelope {
		t.Helper()
		id++
		a, _ := json.Marshal(args)
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, id, tool, a, modernMeta)
		var res struct {
			StructuredContent statelessEnvelope `json:"structuredContent"`
		}
		if err := json.Unmarshal(postModern(t, srv.URL+mcpedge.MCPPath, token, body), &res); err != nil {
			t.Fatal(err)
		}
		return res.StructuredContent
	}
	nav := call(srvA, "token-a", "browser_navigate", map[string]any{"url": site.URL + "/", "timeout_ms": 30000})
	if nav.Status != "succeeded" || !strings.HasPrefix(nav.Facts.Tab, "tab_") {
		t.Fatalf("navigate: %+v", nav)
	}
	ins := call(srvA, "token-a", "browser_inspect", map[string]any{})
	if ins.Status != "succeeded" || ins.Facts.Tab != nav.Facts.Tab {
		t.Fatalf("inspect without tab: %+v", ins)
	}
	target := ""
	for _, it := range ins.Facts.Items {
		if it.Name == "Press me" {
			target = it.Target
		}
	}
	if target == "" {
		t.Fatalf("no Press me among %+v", ins.Facts.Items)
	}
	if click := call(srvA, "token-a", "browser_click", map[string]any{"target": target, "timeout_ms": 30000}); click.Status != "succeeded" {
		t.Fatalf("click by target only: %+v", click)
	}
	<-clicks // the page itself ran the click's handler
	// Token B: its own workspace, which holds no tab.
	other := call(srvB, "token-b", "browser_inspect", map[string]any{})
	if other.Status == "succeeded" || other.Facts.Reason != "no_tab" {
		t.Fatalf("token B reached a tab: %+v", other)
	}
	words := other.Summary + " " + strings.Join(other.NextSteps, " ")
	if !strings.Contains(words, "browser_navigate result") || strings.Contains(words, "Open one") {
		t.Fatalf("token B's refusal says %q", words)
	}
	// Token B naming A's target or tab reaches nothing of A's.
	if r := call(srvB, "token-b", "browser_read", map[string]any{"tab": nav.Facts.Tab}); r.Status == "succeeded" || r.Facts.Reason != "unknown_tab" {
		t.Fatalf("token B read A's tab: %+v", r)
	}
	t.Logf("token A: navigate, inspect without tab, click by target: succeeded; token B: %s / %q", other.Facts.Reason, words)
}
