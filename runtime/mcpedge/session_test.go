package mcpedge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func callMin(t *testing.T, c interface {
	CallTool(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
}) {
	t.Helper()
	if _, err := c.CallTool(testCtx(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "browser_min"}}); err != nil {
		t.Fatalf("call: %v", err)
	}
}

func TestSessionClosedStdioEOF(t *testing.T) {
	f := newFake(nil)
	e := newEdge(t, f)
	c, conn := stdioClient(t, e)
	callMin(t, c)
	if s := f.lastCall(t).Session; s != StdioSession {
		t.Fatalf("session %q", s)
	}
	if err := conn.wait(t); err != nil {
		t.Fatalf("ServeStdio after EOF: %v", err)
	}
	f.waitClosed(t, StdioSession, 5*time.Second)
}

func TestSessionClosedStdioContext(t *testing.T) {
	f := newFake(nil)
	e := newEdge(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- e.ServeStdio(ctx, inR, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeStdio after cancel: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after cancel")
	}
	f.waitClosed(t, StdioSession, 5*time.Second)
}

// mcp-go keeps one stdio session per process: a second one at the same time
// is refused, one after the other is fine.
func TestStdioOneAtATime(t *testing.T) {
	e := newEdge(t, newFake(nil))
	_, conn := stdioClient(t, e)
	err := e.ServeStdio(context.Background(), eofReader{}, io.Discard)
	var ee *Error
	if !errors.As(err, &ee) || ee.Kind != KindStdioBusy {
		t.Fatalf("second stdio session: %v", err)
	}
	if err := conn.wait(t); err != nil {
		t.Fatal(err)
	}
	c, _ := stdioClient(t, e)
	callMin(t, c)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

func TestSessionClosedHTTPDelete(t *testing.T) {
	f := newFake(nil)
	e := newEdge(t, f)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	c := httpClient(t, srv)
	callMin(t, c)
	session := f.lastCall(t).Session
	if err := c.Close(); err != nil { // sends DELETE
		t.Fatal(err)
	}
	f.waitClosed(t, session, 5*time.Second)
	resp, body := httpPost(t, testCtx(t), srv.URL+MCPPath, session, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("deleted session still served: %v %s", resp, body)
	}
}

func TestSessionClosedHTTPExpiry(t *testing.T) {
	f := newFake(nil)
	e := newEdge(t, f)
	defer func() { _ = e.Close(context.Background()) }()
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{SessionIdleTTL: 100 * time.Millisecond}))
	defer srv.Close()
	c := httpClient(t, srv)
	callMin(t, c)
	// mcp-go sweeps at most once a second.
	f.waitClosed(t, f.lastCall(t).Session, 5*time.Second)
}

func TestSessionClosedOnEdgeClose(t *testing.T) {
	f := newFake(nil)
	e := newEdge(t, f)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	session := httpSession(t, srv.URL+MCPPath)
	if err := e.Close(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	f.waitClosed(t, session, 5*time.Second)
}

func TestSessionClosedInProcess(t *testing.T) {
	f := newFake(nil)
	e := newEdge(t, f)
	c := inProcess(t, e)
	callMin(t, c)
	session := f.lastCall(t).Session
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	f.waitClosed(t, session, 5*time.Second)
}

// Everything ServeStdio writes is a JSON-RPC message.
func assertProtocolOnly(t *testing.T, lines []string) {
	t.Helper()
	for _, l := range lines {
		var m struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" {
			t.Errorf("non-protocol output line %q", l)
		}
	}
}
