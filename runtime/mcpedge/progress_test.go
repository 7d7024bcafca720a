package mcpedge

import (
	"context"
	"math"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// progressLog collects notifications/progress params as the client got them.
type progressLog struct {
	mu   sync.Mutex
	got  []map[string]any
	more chan struct{}
}

func watchProgress(c *client.Client) *progressLog {
	l := &progressLog{more: make(chan struct{}, 64)}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != string(mcp.MethodNotificationProgress) {
			return
		}
		l.mu.Lock()
		l.got = append(l.got, n.Params.AdditionalFields)
		l.mu.Unlock()
		l.more <- struct{}{}
	})
	return l
}

// waitFor returns the first n notifications once they have arrived.
func (l *progressLog) waitFor(t *testing.T, n int) []map[string]any {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		l.mu.Lock()
		if len(l.got) >= n {
			got := append([]map[string]any(nil), l.got...)
			l.mu.Unlock()
			return got
		}
		l.mu.Unlock()
		select {
		case <-l.more:
		case <-deadline:
			t.Fatalf("%d progress notifications arrived, want %d", len(l.got), n)
		}
	}
}

// progressCalls: the first call reports progress (some of it invalid), keeps
// its Progress function and later uses it after returning; the second
// reports progress without a token.
func progressDispatcher() (*fakeDispatcher, *func(float64, float64, string)) {
	var kept func(float64, float64, string)
	f := newFake(func(_ context.Context, c Call) Reply {
		switch string(c.Arguments) {
		case `{"step":"report"}`:
			c.Progress(1, 3, "loading")
			c.Progress(2, 3, "")
			c.Progress(2, 3, "not increasing")
			c.Progress(math.NaN(), 3, "not finite")
			c.Progress(3, 0, "done")
			kept = c.Progress
		case `{"step":"silent"}`:
			c.Progress(1, 1, "nobody asked")
		case `{"step":"once"}`:
			c.Progress(1, 0, "")
		}
		return okReply()
	})
	return f, &kept
}

func wantReported(token any) []map[string]any {
	return []map[string]any{
		{"progressToken": token, "progress": 1.0, "total": 3.0, "message": "loading"},
		{"progressToken": token, "progress": 2.0, "total": 3.0},
		{"progressToken": token, "progress": 3.0, "message": "done"},
	}
}

func callStep(t *testing.T, c *client.Client, step string, token any) {
	t.Helper()
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "browser_min", Arguments: map[string]any{"step": step}}}
	if token != nil {
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	res, err := c.CallTool(testCtx(t), req)
	if err != nil {
		t.Fatalf("call %s: %v", step, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("call %s: empty result", step)
	}
}

func TestProgressStdio(t *testing.T) {
	f, kept := progressDispatcher()
	e := newEdge(t, f)
	c, _ := stdioClient(t, e)
	log := watchProgress(c)

	callStep(t, c, "report", "tok-1")
	if got := log.waitFor(t, 3); !reflect.DeepEqual(got, wantReported("tok-1")) {
		t.Fatalf("progress\n got %v\nwant %v", got, wantReported("tok-1"))
	}
	(*kept)(4, 0, "after the answer")
	callStep(t, c, "silent", nil)
	callStep(t, c, "once", "tok-3")
	// stdio notifications leave through one FIFO queue: anything sent by the
	// calls above would arrive before tok-3's.
	got := log.waitFor(t, 4)
	want := append(wantReported("tok-1"), map[string]any{"progressToken": "tok-3", "progress": 1.0})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("progress\n got %v\nwant %v", got, want)
	}
}

func TestProgressHTTP(t *testing.T) {
	f, _ := progressDispatcher()
	e := newEdge(t, f)
	srv := httptest.NewServer(e.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	c := httpClient(t, srv)
	defer c.Close()
	log := watchProgress(c)

	callStep(t, c, "silent", nil)
	callStep(t, c, "report", 42)
	// Over HTTP a call's notifications are drained onto its own stream before
	// the answer: all three are in by now.
	log.mu.Lock()
	got := log.got
	log.mu.Unlock()
	if !reflect.DeepEqual(got, wantReported(42.0)) {
		t.Fatalf("progress\n got %v\nwant %v", got, wantReported(42.0))
	}
}
