package mcpedge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// owningFake is a dispatcher whose browser_navigate mints the tab handle
// named in its "mint" argument for the calling session, whose browser_tabs
// closes the handle in "tab", and which says which sessions hold a tab.
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
	o.closedCh = make(chan string, 256)
	return o
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

// SessionClosed forgets the released workspace's tabs, as the handler does.
func (o *owningFake) SessionClosed(s string) {
	o.mu.Lock()
	for h, owner := range o.owner {
		if owner == s {
			delete(o.owner, h)
		}
	}
	o.mu.Unlock()
	o.fakeDispatcher.SessionClosed(s)
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
// no session) that calls itself name.
func modernClient(t *testing.T, srv *httptest.Server, name string, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(srv.URL+MCPPath, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: name, Version: "1"}}})
	if err != nil {
		t.Fatalf("discover: %v", err)
	}
	if res.ProtocolVersion != mcp.ProtocolVersion20260728 {
		t.Fatalf("HTTP negotiated %s, want %s", res.ProtocolVersion, mcp.ProtocolVersion20260728)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func withToken(token string) transport.StreamableHTTPCOption {
	return transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token})
}

// callAs calls tool through c and returns the Call the dispatcher saw.
func (o *owningFake) callAs(t *testing.T, c *client.Client, tool string, args map[string]any) Call {
	t.Helper()
	if _, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}}); err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return o.lastCall(t)
}

// TestStatelessPrincipals: over HTTP, 2026-07-28 calls carry no session and
// run in their principal's workspace: one per bearer token (clients sharing
// a token share it, two tokens are two), and without a token one per client
// identity (remote address, User-Agent, clientInfo). A workspace holding no
// tab is released when its call returns; a session client's calls are not
// stateless.
func TestStatelessPrincipals(t *testing.T) {
	o := newOwningFake()
	e := newEdge(t, o)
	// Two handlers of one edge, each with its own token: two principals.
	srvA := httptest.NewServer(e.HTTPHandler(HTTPOptions{BearerToken: "token-a"}))
	defer srvA.Close()
	srvB := httptest.NewServer(e.HTTPHandler(HTTPOptions{BearerToken: "token-b"}))
	defer srvB.Close()
	a1 := modernClient(t, srvA, "agent-1", withToken("token-a"))
	a2 := modernClient(t, srvA, "agent-2", withToken("token-a"))
	b := modernClient(t, srvB, "agent-1", withToken("token-b"))

	nav := o.callAs(t, a1, "browser_navigate", map[string]any{"mint": "tab_A"})
	wsA := nav.Session
	if !strings.HasPrefix(wsA, StatelessPrefix) || len(wsA) < len(StatelessPrefix)+26 || !nav.Stateless || nav.ReleasedIdle != 0 {
		t.Fatalf("stateless call %+v", nav)
	}
	// The next call of the token, without any handle, finds the same tabs.
	if got := o.callAs(t, a1, "browser_min", map[string]any{}).Session; got != wsA {
		t.Fatalf("a call without tab ran in %q, want the token's %q", got, wsA)
	}
	// Another client with the same token shares them (one agent per token).
	if got := o.callAs(t, a2, "browser_min", map[string]any{}).Session; got != wsA {
		t.Fatalf("a second client of the token ran in %q, want %q", got, wsA)
	}
	// Another token is another workspace, even naming A's tab; it holds no
	// tab, so it is released when the call returns.
	other := o.callAs(t, b, "browser_min", map[string]any{"tab": "tab_A"}).Session
	if other == wsA || !strings.HasPrefix(other, StatelessPrefix) {
		t.Fatalf("token B ran in %q (A's is %q)", other, wsA)
	}
	o.released(t, other)
	// No token digest is the token itself.
	e.stateless.mu.Lock()
	for who := range e.stateless.principals {
		if strings.Contains(who, "token-") {
			t.Errorf("principal kept as %q", who)
		}
	}
	e.stateless.mu.Unlock()

	// Without a token, the client identity the request carries.
	srvN := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srvN.Close()
	n1, n2 := modernClient(t, srvN, "client-one"), modernClient(t, srvN, "client-two")
	wsN := o.callAs(t, n1, "browser_navigate", map[string]any{"mint": "tab_N"}).Session
	if got := o.callAs(t, n1, "browser_min", map[string]any{}).Session; got != wsN {
		t.Fatalf("client-one's second call ran in %q, want %q", got, wsN)
	}
	if got := o.callAs(t, n2, "browser_min", map[string]any{}).Session; got == wsN || got == wsA {
		t.Fatalf("client-two reached another client's workspace %q", got)
	}
	// A session client is no principal's.
	legacy := httpClient(t, srvN)
	defer legacy.Close()
	if c := o.callAs(t, legacy, "browser_min", map[string]any{}); c.Stateless || strings.HasPrefix(c.Session, StatelessPrefix) {
		t.Fatalf("a session client's call was stateless: %+v", c)
	}
	// A closes its tab: its workspace holds nothing and is released; its
	// next call gets a fresh one, told of no idle release.
	o.callAs(t, a1, "browser_tabs", map[string]any{"action": "close", "tab": "tab_A"})
	o.released(t, wsA)
	if c := o.callAs(t, a1, "browser_min", map[string]any{}); c.Session == wsA || c.ReleasedIdle != 0 {
		t.Fatalf("after its tab closed A ran as %+v", c)
	}
	if n := e.StatelessWorkspaces(); n != 1 {
		t.Fatalf("%d stateless workspaces kept, want 1 (client-one's)", n)
	}
	if err := e.Close(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	o.released(t, wsN)
	if n := e.StatelessWorkspaces(); n != 0 {
		t.Fatalf("%d stateless workspaces after Close", n)
	}
}

// TestStatelessIdleRelease: a principal's workspace that still holds a tab is
// released after Limits.StatelessIdle without a call, and the principal's
// next call says so (Call.ReleasedIdle) until its next workspace is released
// for holding nothing.
func TestStatelessIdleRelease(t *testing.T) {
	o := newOwningFake()
	l := testLimits()
	l.StatelessIdle = 20 * time.Millisecond
	e := newEdgeLimits(t, o, l)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{BearerToken: "tok"}))
	defer srv.Close()
	c := modernClient(t, srv, "agent", withToken("tok"))
	ws := o.callAs(t, c, "browser_navigate", map[string]any{"mint": "tab_1"}).Session
	o.released(t, ws) // the idle timer, not a call, releases it
	if n := e.StatelessWorkspaces(); n != 0 {
		t.Fatalf("%d workspaces kept after the idle release", n)
	}
	next := o.callAs(t, c, "browser_min", map[string]any{"tab": "tab_1"})
	if next.Session == ws || next.ReleasedIdle != l.StatelessIdle {
		t.Fatalf("the call after the idle release: %+v", next)
	}
	o.released(t, next.Session) // it opened no tab
	if again := o.callAs(t, c, "browser_min", map[string]any{}); again.ReleasedIdle != 0 {
		t.Fatalf("the release was said again after a workspace released for holding nothing: %+v", again)
	}
}

// TestStatelessPrincipalsBounded: principals without a workspace are
// remembered up to Limits.StatelessPrincipals, the longest silent forgotten.
func TestStatelessPrincipalsBounded(t *testing.T) {
	o := newOwningFake()
	l := testLimits()
	l.StatelessPrincipals = 3
	e := newEdgeLimits(t, o, l)
	for i := range 10 {
		_, _, leave := e.stateless.enter(fmt.Sprint("p", i), "")
		leave()
	}
	e.stateless.mu.Lock()
	n := len(e.stateless.principals)
	_, newest := e.stateless.principals["p9"]
	e.stateless.mu.Unlock()
	if n != 3 || !newest {
		t.Fatalf("%d principals kept (newest kept: %v), want 3", n, newest)
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
