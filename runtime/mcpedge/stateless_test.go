package mcpedge

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// owningFake is a dispatcher whose browser_navigate mints the tab handle
// named in its "mint" argument for the calling session, whose browser_tabs
// closes the handle in "tab", and which says who owns each handle.
type owningFake struct {
	*fakeDispatcher
	mu    sync.Mutex
	owner map[string]string // handle → session
}

func newOwningFake() *owningFake {
	o := &owningFake{owner: map[string]string{}}
	o.fakeDispatcher = newFake(func(_ context.Context, c Call) Reply {
		var args struct{ Mint, Tab string }
		_ = json.Unmarshal(c.Arguments, &args)
		o.mu.Lock()
		defer o.mu.Unlock()
		switch c.Tool {
		case "browser_navigate":
			if args.Mint != "" {
				o.owner[args.Mint] = c.Session
			}
		case "browser_tabs":
			if o.owner[args.Tab] == c.Session {
				delete(o.owner, args.Tab)
			}
		}
		return okReply()
	})
	return o
}

func (o *owningFake) Owner(h string) (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	s, ok := o.owner[h]
	return s, ok
}

func (o *owningFake) Holds(session string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, s := range o.owner {
		if s == session {
			return true
		}
	}
	return false
}

// released waits until session was released, passing over other releases.
func (o *owningFake) released(t *testing.T, session string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case got := <-o.closedCh:
			if got == session {
				return
			}
		case <-deadline:
			t.Fatalf("workspace %q never released", session)
		}
	}
}

// modernClient connects an mcp-go client speaking 2026-07-28 (server/discover,
// no session).
func modernClient(t *testing.T, srv *httptest.Server) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(srv.URL + MCPPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "edge-test", Version: "1"}}})
	if err != nil {
		t.Fatalf("discover: %v", err)
	}
	if res.ProtocolVersion != mcp.ProtocolVersion20260728 {
		t.Fatalf("HTTP negotiated %s, want %s", res.ProtocolVersion, mcp.ProtocolVersion20260728)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestStatelessWorkspaces: over HTTP, 2026-07-28 calls carry no session; a
// call reaches the workspace its tab handles route to, and only a workspace
// minted for stateless calls; anything else gets a fresh workspace, released
// at once when it holds no tab.
func TestStatelessWorkspaces(t *testing.T) {
	o := newOwningFake()
	e := newEdge(t, o)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	a, b := modernClient(t, srv), modernClient(t, srv)
	legacy := httpClient(t, srv)
	defer legacy.Close()
	callWith := func(c *client.Client, tool string, args map[string]any) string {
		t.Helper()
		if _, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}}); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return o.lastCall(t).Session
	}
	wsA := callWith(a, "browser_navigate", map[string]any{"mint": "tab_A"})
	if !strings.HasPrefix(wsA, StatelessPrefix) || len(wsA) < len(StatelessPrefix)+26 {
		t.Fatalf("stateless workspace id %q", wsA)
	}
	if got := callWith(a, "browser_min", map[string]any{"tab": "tab_A"}); got != wsA {
		t.Fatalf("a call by A's tab handle ran in %q, want %q", got, wsA)
	}
	// Nested handles route too (composite steps).
	if got := callWith(b, "browser_min", map[string]any{"steps": []any{map[string]any{"arguments": map[string]any{"tab": "tab_A"}}}}); got != wsA {
		t.Fatalf("a nested handle ran in %q", got)
	}
	// No handle: a fresh workspace, released at once (it holds no tab).
	fresh := callWith(b, "browser_tabs", map[string]any{"action": "list"})
	if fresh == wsA || !strings.HasPrefix(fresh, StatelessPrefix) {
		t.Fatalf("a handle-less call ran in %q", fresh)
	}
	o.released(t, fresh)
	// B's own tab, then both handles in one call: neither workspace.
	wsB := callWith(b, "browser_navigate", map[string]any{"mint": "tab_B"})
	if got := callWith(b, "browser_min", map[string]any{"tab": "tab_A", "other": "tab_B"}); got == wsA || got == wsB {
		t.Fatalf("a call naming two workspaces' handles ran in %q", got)
	}
	// A session client's tab is never reached by a stateless call.
	wsL := callWith(legacy, "browser_navigate", map[string]any{"mint": "tab_L"})
	if got := callWith(b, "browser_min", map[string]any{"tab": "tab_L"}); got == wsL {
		t.Fatal("a stateless call reached a session's workspace")
	}
	if n := e.StatelessWorkspaces(); n != 2 {
		t.Fatalf("%d stateless workspaces kept, want 2 (A's and B's)", n)
	}
	// A closes its tab: its workspace holds nothing and is released.
	if got := callWith(a, "browser_tabs", map[string]any{"action": "close", "tab": "tab_A"}); got != wsA {
		t.Fatalf("close ran in %q", got)
	}
	o.released(t, wsA)
	if got := callWith(a, "browser_min", map[string]any{"tab": "tab_A"}); got == wsA {
		t.Fatal("a closed workspace's handle still routes")
	}
	// Close releases what is left.
	if err := e.Close(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	o.released(t, wsB)
	if n := e.StatelessWorkspaces(); n != 0 {
		t.Fatalf("%d stateless workspaces after Close", n)
	}
}

// TestStatelessCancelAccepted: a 2026-07-28 client that also posts
// notifications/cancelled (the request's stream already ended) is answered
// 202, not refused (the Go SDK closes its connection on a refusal).
func TestStatelessCancelAccepted(t *testing.T) {
	e := newEdge(t, newFake(nil))
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	body := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"ctx"}}`
	req := httptest.NewRequest("POST", srv.URL+MCPPath, strings.NewReader(body))
	req.RequestURI = ""
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion20260728)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 202 {
		t.Fatalf("stateless notifications/cancelled answered %d", resp.StatusCode)
	}
}
