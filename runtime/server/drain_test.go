package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

// TestDrainRefusesNewWorkspacesAndWaitsForCalls: against a real Chromium
// over real HTTP, a drain begun while a navigate is held by its page (its
// server has not answered) does not return while that call runs; meanwhile a
// stateless call of a principal with no workspace and a new session's
// initialize get 503 with Retry-After, /readyz is 503, and the principal
// holding a workspace is still served. Once the page answers, the held call
// succeeds and the drain returns, finished.
func TestDrainRefusesNewWorkspacesAndWaitsForCalls(t *testing.T) {
	l := launchChromium(t)
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			arrived <- struct{}{}
			<-release
		}
		fmt.Fprint(w, `<!doctype html><title>t</title><p>hello</p>`)
	}))
	t.Cleanup(site.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	s := newConnected(t, l)
	srv := httptest.NewServer(opsHandler(s, "tok-a"))
	t.Cleanup(srv.Close)
	srvB := httptest.NewServer(opsHandler(s, "tok-b"))
	t.Cleanup(srvB.Close)
	call := func(url, token, tool, args string) statelessEnvelope {
		t.Helper()
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, tool, args, modernMeta)
		var res struct {
			StructuredContent statelessEnvelope `json:"structuredContent"`
		}
		if err := json.Unmarshal(postModern(t, url+mcpedge.MCPPath, token, body), &res); err != nil {
			t.Fatal(err)
		}
		return res.StructuredContent
	}
	nav := call(srv.URL, "tok-a", "browser_navigate", fmt.Sprintf(`{"url":%q,"timeout_ms":30000}`, site.URL+"/"))
	if nav.Status != "succeeded" {
		t.Fatalf("navigate: %+v", nav)
	}
	held := make(chan statelessEnvelope, 1)
	go func() {
		held <- call(srv.URL, "tok-a", "browser_navigate", fmt.Sprintf(`{"tab":%q,"url":%q,"timeout_ms":30000}`, nav.Facts.Tab, site.URL+"/hang"))
	}()
	select { // the call is at work: its page waits for our answer
	case <-arrived:
	case r := <-held:
		t.Fatalf("the call answered before its page did: %+v", r)
	}
	drained := s.StartDrain()

	// A principal with no workspace: refused, retryable.
	post := func(url, token, body string, modern bool) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url+mcpedge.MCPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		if modern {
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	newCall := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"browser_tabs","arguments":{"action":"list"},%s}}`, modernMeta)
	if resp := post(srvB.URL, "tok-b", newCall, true); resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a new stateless workspace while draining: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if resp := post(srv.URL, "tok-a", initialize, false); resp.StatusCode != 503 {
		t.Errorf("a new session while draining: %d", resp.StatusCode)
	}
	if st, _ := get(t, "GET", srv.URL+"/readyz", "", ""); st != 503 {
		t.Errorf("/readyz while draining: %d", st)
	}
	// The workspace that exists is still served, beside its held call.
	if tabs := call(srv.URL, "tok-a", "browser_tabs", `{"action":"list"}`); tabs.Status != "succeeded" {
		t.Errorf("the existing workspace while draining: %+v", tabs)
	}
	select {
	case <-drained:
		t.Fatal("the drain returned while a call was at work")
	default:
	}
	close(release)
	if r := <-held; r.Status != "succeeded" {
		t.Errorf("the held call: %+v", r)
	}
	<-drained // closed once the held call's request returned
	if !s.Drain(context.Background()) {
		t.Error("a second Drain did not find the server quiet")
	}
}
