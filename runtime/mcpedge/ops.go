package mcpedge

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// What operators run beside /mcp: the probes, /metrics and the drain.
//
// /healthz and /readyz answer GET and HEAD before the Host, Origin and
// bearer checks (a Kubernetes probe sends the pod's address as Host and no
// token) and say nothing but ok or why not ready: they are the only paths
// served that way. /metrics is behind the bearer token.

// Probe paths and the metrics path.
const (
	HealthzPath = "/healthz"
	ReadyzPath  = "/readyz"
	MetricsPath = "/metrics"
)

// serveProbe answers a probe path; false when r is not one.
func (g *httpEdge) serveProbe(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != HealthzPath && r.URL.Path != ReadyzPath {
		return false
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return true
	}
	if r.URL.Path == ReadyzPath {
		if g.drain.on() {
			http.Error(w, "draining", http.StatusServiceUnavailable)
			return true
		}
		if g.ready != nil {
			ctx, cancel := context.WithTimeout(r.Context(), g.readyWait)
			err := g.ready(ctx)
			cancel()
			if err != nil {
				// The kind of failure only: an error may carry an endpoint.
				http.Error(w, "not ready: browser", http.StatusServiceUnavailable)
				return true
			}
		}
	}
	_, _ = w.Write([]byte("ok\n"))
	return true
}

// drainer counts the HTTP requests at work and, once draining, refuses
// those that would open a new workspace.
type drainer struct {
	retry time.Duration // Retry-After of the refusal

	mu      sync.Mutex
	started bool
	busy    int
	quiet   []chan struct{} // closed when busy reaches 0
}

func (d *drainer) on() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.started
}

// admit counts one request; ok is false (nothing counted) when the drain
// began and the request would open a new workspace.
func (d *drainer) admit(opens bool) (leave func(), ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.started && opens {
		return nil, false
	}
	d.busy++
	return d.leave, true
}

func (d *drainer) leave() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.busy--
	if d.busy == 0 {
		for _, q := range d.quiet {
			close(q)
		}
		d.quiet = nil
	}
}

// begin starts the drain and returns a channel closed once no request is
// at work.
func (d *drainer) begin() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.started = true
	q := make(chan struct{})
	if d.busy == 0 {
		close(q)
	} else {
		d.quiet = append(d.quiet, q)
	}
	return q
}

// Drain refuses, from now on, every HTTP request that would open a new
// workspace (503 with Retry-After: a new session's initialize, a stateless
// call of a principal holding none) and /readyz, while requests of existing
// workspaces are still served; it returns once no request is at work or ctx
// ends (the caller then closes the server). It reports whether the requests
// finished.
func (e *Edge) Drain(ctx context.Context) bool {
	select {
	case <-e.StartDrain():
		return true
	case <-ctx.Done():
		return false
	}
}

// opensWorkspace says whether a POST of method, by its headers, would open
// a workspace: a new session's initialize, or a stateless tools/call whose
// principal holds none (its HTTP part: a token, or the client address).
func (g *httpEdge) opensWorkspace(r *http.Request, method, principal string) bool {
	if r.Header.Get(server.HeaderKeySessionID) != "" {
		return false
	}
	switch method {
	case string(mcp.MethodInitialize):
		return true
	case string(mcp.MethodToolsCall):
		return mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) && !g.stateless.holds(principal)
	}
	return false
}

// refuseDraining answers a request that would open a workspace on a
// draining server: 503, retryable elsewhere or later.
func refuseDraining(w http.ResponseWriter, id json.RawMessage, retry time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int((retry+time.Second-1)/time.Second))))
	rpcError(w, http.StatusServiceUnavailable, id, mcp.INTERNAL_ERROR, "Server draining: it opens no new workspace; retry (another replica serves it)")
}

// StartDrain begins the drain (Drain) and returns at once a channel closed
// when no HTTP request is at work.
func (e *Edge) StartDrain() <-chan struct{} { return e.drain.begin() }

// Draining reports whether the drain has begun.
func (e *Edge) Draining() bool { return e.drain.on() }
