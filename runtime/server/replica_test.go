package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

// TestHandlesCarryTheReplica: against a real Chromium over real HTTP
// (2026-07-28, the handles mirrored into Mcp-Param-Tab and Mcp-Param-Target
// as the tools declare), every tab, target, view, snapshot and recording handle a
// replica mints carries its name right after the underscore; a call naming
// another replica's tab or target is refused other_replica, naming that
// replica, and opens no tab; a bad --replica is refused at New.
func TestHandlesCarryTheReplica(t *testing.T) {
	l := launchChromium(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>t</title><button>Press me</button>`)
	}))
	t.Cleanup(site.Close)
	for _, bad := range []string{"ab", "abcd", "a-b"} {
		if _, err := New(Config{Replica: bad, Version: "test"}); err == nil {
			t.Errorf("replica %q accepted", bad)
		}
	}
	s, err := New(Config{Browser: browser.Config{Startup: browser.StartupConnect, Endpoint: l.endpoint}, Version: "test", Replica: "r7x"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = s.Close(ctx)
	})
	if s.Replica() != "r7x" {
		t.Fatalf("Replica() = %q", s.Replica())
	}
	srv := httptest.NewServer(opsHandler(s, "tok"))
	t.Cleanup(srv.Close)
	call := func(tool, args string) map[string]any {
		t.Helper()
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, tool, args, modernMeta)
		var res struct {
			StructuredContent struct {
				Status    string         `json:"status"`
				Summary   string         `json:"summary"`
				NextSteps []string       `json:"next_steps"`
				Facts     map[string]any `json:"facts"`
			} `json:"structuredContent"`
		}
		if err := json.Unmarshal(postModern(t, srv.URL+mcpedge.MCPPath, "tok", body), &res); err != nil {
			t.Fatal(err)
		}
		f := res.StructuredContent.Facts
		f["status"], f["summary"], f["next_steps"] = res.StructuredContent.Status, res.StructuredContent.Summary, res.StructuredContent.NextSteps
		return f
	}
	nav := call("browser_navigate", fmt.Sprintf(`{"url":%q,"timeout_ms":30000}`, site.URL+"/"))
	tab, _ := nav["tab"].(string)
	ins := call("browser_inspect", fmt.Sprintf(`{"tab":%q}`, tab))
	shot := call("browser_screenshot", fmt.Sprintf(`{"tab":%q}`, tab))
	var target string
	if items, ok := ins["items"].([]any); ok {
		for _, it := range items {
			if m, _ := it.(map[string]any); m["name"] == "Press me" {
				target, _ = m["target"].(string)
			}
		}
	}
	doc := call("browser_inspect", fmt.Sprintf(`{"tab":%q,"scope":"document"}`, tab))
	snap, _ := doc["snapshot"].(string)
	view, _ := shot["view"].(string)
	rec := call("browser_record", fmt.Sprintf(`{"action":"start","tab":%q}`, tab))
	recording, _ := rec["recording"].(string)
	for kind, h := range map[string]string{"tab": tab, "target": target, "view": view, "snapshot": snap, "recording": recording} {
		_, body, _ := strings.Cut(h, "_")
		if !strings.HasPrefix(body, "r7x") || len(h) > 15 {
			t.Errorf("%s handle %q does not carry replica r7x after its underscore (or is past 15 characters)", kind, h)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	before := len(l.pages(t))
	foreignTab := "tab_q9z" + tab[len("tab_r7x"):]
	foreignTarget := "target_q9z" + target[len("target_r7x"):]
	for _, c := range []struct{ tool, args string }{
		{"browser_read", fmt.Sprintf(`{"tab":%q}`, foreignTab)},
		{"browser_navigate", fmt.Sprintf(`{"tab":%q,"url":%q}`, foreignTab, site.URL+"/")},
		{"browser_click", fmt.Sprintf(`{"target":%q}`, foreignTarget)},
	} {
		r := call(c.tool, c.args)
		words := fmt.Sprint(r["summary"], r["next_steps"])
		if r["status"] != "failed" || r["reason"] != "other_replica" || r["replica"] != "q9z" || !strings.Contains(words, "replica q9z") {
			t.Errorf("%s naming replica q9z's handle: %v", c.tool, r)
		}
	}
	if after := len(l.pages(t)); after != before {
		t.Errorf("refused calls changed the browser's pages: %d, then %d", before, after)
	}
	// This replica's own handles still serve.
	if r := call("browser_click", fmt.Sprintf(`{"target":%q}`, target)); r["status"] != "succeeded" {
		t.Errorf("click on this replica's target: %v", r)
	}
}
