package mcpedge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Outbound filtering. mcp-go offers no hook for either job, so both happen on
// the newline-framed messages the transports write:
//   - serving the generator's bytes for tools mcp.Tool cannot reproduce
//     (see buildTools);
//   - withholding the answer to a call the client cancelled: mcp-go cancels the
//     handler's context on notifications/cancelled but still writes the
//     handler's result, and MCP asks for no response.

// toolsMarker precedes every tools/list result; other messages skip the scan.
var toolsMarker = []byte(`"tools":[`)

type rewriter struct {
	pairs []rewrite
}

func newRewriter(pairs []rewrite) *rewriter {
	if len(pairs) == 0 {
		return nil
	}
	return &rewriter{pairs: pairs}
}

// apply returns line with every mcp-go tool rendering replaced by the
// generator's bytes. A compact JSON object cannot occur inside a JSON string
// (its quotes would be escaped), so a match is always the tool itself.
func (r *rewriter) apply(line []byte) []byte {
	if r == nil || !bytes.Contains(line, toolsMarker) {
		return line
	}
	for _, p := range r.pairs {
		if bytes.Contains(line, p.from) {
			line = bytes.ReplaceAll(line, p.from, p.to)
		}
	}
	return line
}

// withholdKey carries the transport's withholder to the call hooks.
type withholdKey struct{}

// withholder is told the JSON-RPC id of a call whose context ended before
// its result was written; the transport then drops that answer.
type withholder interface {
	withhold(id any)
}

func withholderFrom(ctx context.Context) withholder {
	w, _ := ctx.Value(withholdKey{}).(withholder)
	return w
}

// notifier is a transport that writes a call's notifications on the call's
// own stream (HTTP); without one, mcp-go's session channel carries them.
type notifier interface {
	notify(ctx context.Context, method string, params map[string]any) error
}

// framer splits a byte stream into lines, keeping an incomplete tail until
// its newline arrives.
type framer struct {
	tail []byte
}

// feed calls emit for every complete line (newline included) in tail+p.
func (f *framer) feed(p []byte, emit func(line []byte) error) error {
	data := p
	if len(f.tail) > 0 {
		data = append(f.tail, p...)
		f.tail = nil
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			f.tail = append([]byte(nil), data...)
			return nil
		}
		if err := emit(data[:i+1]); err != nil {
			return err
		}
		data = data[i+1:]
	}
	return nil
}

// responseID returns the id of a JSON-RPC response line, or "" for requests
// and notifications.
func responseID(line []byte) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "" || len(m.ID) == 0 {
		return ""
	}
	return string(m.ID)
}

// idKey renders a hook's request id as mcp-go writes it in the response.
func idKey(id any) string {
	b, err := json.Marshal(id)
	if err != nil {
		return ""
	}
	return string(b)
}

// lineWriter is the stdio output: one JSON-RPC message per line.
type lineWriter struct {
	mu       sync.Mutex
	w        io.Writer
	rw       *rewriter
	withheld map[string]bool // ids of cancelled calls whose answer is not yet seen
	echo     int             // bound of an error message (boundError); 0: none
	f        framer
}

func (l *lineWriter) withhold(id any) {
	key := idKey(id)
	if key == "" {
		return
	}
	l.mu.Lock()
	l.withheld[key] = true
	l.mu.Unlock()
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rw == nil && l.echo == 0 && len(l.withheld) == 0 && len(l.f.tail) == 0 {
		return l.w.Write(p)
	}
	if err := l.f.feed(p, l.emit); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (l *lineWriter) emit(line []byte) error {
	if len(l.withheld) > 0 {
		if id := responseID(line); id != "" && l.withheld[id] {
			delete(l.withheld, id)
			return nil
		}
	}
	if l.echo > 0 {
		line = boundError(line, l.echo)
	}
	_, err := l.w.Write(l.rw.apply(line))
	return err
}

// httpWriter wraps one HTTP response of the streamable transport (a JSON body
// or an SSE stream, both newline-framed).
type httpWriter struct {
	http.ResponseWriter
	rw        *rewriter
	echo      int // bound of an error message (boundError); 0: none
	cancelled atomic.Bool
	mu        sync.Mutex
	wrote     bool // status line sent
	sse       bool // ... as an event stream
	f         framer
}

// withhold is called for the one call this POST carries: everything the
// transport writes afterwards is dropped, and a JSON answer becomes an empty
// 202, as for a message that needs no response.
func (h *httpWriter) withhold(any) { h.cancelled.Store(true) }

func (h *httpWriter) WriteHeader(code int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.writeHeaderLocked(code)
}

func (h *httpWriter) writeHeaderLocked(code int) {
	if h.wrote {
		return
	}
	h.wrote = true
	if code == http.StatusOK && h.cancelled.Load() {
		h.Header().Del("Content-Type")
		code = http.StatusAccepted
	}
	h.sse = strings.HasPrefix(h.Header().Get("Content-Type"), "text/event-stream")
	h.ResponseWriter.WriteHeader(code)
}

// notify writes a notification on this call's own response stream, upgrading
// it to SSE as mcp-go does. mcp-go's own route is the session's shared
// notification channel, where the forwarder of a session's previous request
// can still take a message and drop it, and a concurrent request can carry
// it on its stream.
func (h *httpWriter) notify(ctx context.Context, method string, params map[string]any) error {
	msg, err := json.Marshal(mcp.JSONRPCNotification{
		JSONRPC:      mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{Method: method, Params: mcp.NotificationParams{AdditionalFields: params}},
	})
	if err != nil {
		return err
	}
	// mcp-go then writes the final answer as an SSE event too.
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithStreamableHTTPConfig); ok {
		s.UpgradeToSSEWhenReceiveNotification()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cancelled.Load() {
		return nil
	}
	if !h.wrote {
		hdr := h.Header()
		hdr.Set("Content-Type", "text/event-stream")
		hdr.Set("Cache-Control", "no-cache")
		hdr.Set("Connection", "keep-alive")
		h.writeHeaderLocked(http.StatusOK)
	}
	if !h.sse {
		return errNotStreaming
	}
	event := make([]byte, 0, len(sseData)+len(msg)+2)
	event = append(append(append(event, sseData...), msg...), "\n\n"...)
	if _, err := h.ResponseWriter.Write(event); err != nil {
		return err
	}
	if f, ok := h.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}

// sseData frames an event exactly as mcp-go's writeSSEEvent does.
const sseData = "event: message\ndata: "

var errNotStreaming = errors.New("mcpedge: the response is not an event stream")

func (h *httpWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.writeHeaderLocked(http.StatusOK)
	if h.cancelled.Load() {
		return len(p), nil
	}
	if h.rw == nil && h.echo == 0 && len(h.f.tail) == 0 {
		return h.ResponseWriter.Write(p)
	}
	err := h.f.feed(p, func(line []byte) error {
		if h.echo > 0 {
			line = boundError(line, h.echo)
		}
		_, err := h.ResponseWriter.Write(h.rw.apply(line))
		return err
	})
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush keeps mcp-go's SSE streaming working through the wrapper.
func (h *httpWriter) Flush() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if f, ok := h.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection (write deadlines).
func (h *httpWriter) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// finish writes an unterminated tail, which mcp-go never produces today.
func (h *httpWriter) finish() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.f.tail) > 0 && !h.cancelled.Load() {
		_, _ = h.ResponseWriter.Write(h.f.tail)
	}
	h.f.tail = nil
}
