package mcpedge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// stdioBusy guards mcp-go's process-wide stdio session: two stdio sessions
// served at once in one process would share its notification queue.
var stdioBusy atomic.Bool

// StdioSession is the session id every stdio Call carries (mcp-go's fixed
// stdio session).
const StdioSession = "stdio"

// ServeStdio serves one MCP session, reading requests from in and writing
// only protocol messages to out, until in ends or ctx is done (both return
// nil). Calls still running then see their context cancelled, and
// Dispatcher.SessionClosed(StdioSession) runs once they have returned.
//
// The edge reads stdin itself. A tools/call is admitted (or refused busy) at
// once and runs on a goroutine of its own; every other message goes on to
// mcp-go's stdio server, whose reader therefore never waits for a tool
// (mcp-go would run calls on a pool of 5 workers and then block its reader),
// so ping and notifications/cancelled are answered at once under any load.
func (e *Edge) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	if !stdioBusy.CompareAndSwap(false, true) {
		return &Error{Kind: KindStdioBusy, Detail: "a stdio session is already being served in this process"}
	}
	defer stdioBusy.Store(false)

	w := &lineWriter{w: out, rw: e.rewriter, withheld: make(map[string]bool), echo: e.limits.EchoChars}
	s := server.NewStdioServer(e.srv)
	s.SetErrorLogger(slog.NewLogLogger(e.log.Handler(), slog.LevelError))
	session := make(chan context.Context, 1)
	s.SetContextFunc(func(c context.Context) context.Context {
		session <- c
		return c
	})

	// mcp-go reads everything but tool calls from a pipe, and its session
	// ends when the pipe closes: after every call here has returned, so the
	// session is released last. Its context is not ctx, for the same reason.
	pr, pw := io.Pipe()
	base := context.WithValue(context.WithoutCancel(ctx), withholdKey{}, withholder(w))
	listened := make(chan error, 1)
	go func() {
		err := s.Listen(base, pr, w)
		_ = pr.CloseWithError(io.ErrClosedPipe) // a late forward fails instead of blocking
		listened <- err
	}()
	var sess context.Context
	select {
	case sess = <-session:
	case err := <-listened:
		return err
	}

	d := newStdioDispatcher(e, sess, w, pw)
	read := make(chan error, 1)
	go func() { read <- d.read(in) }()
	var err error
	select {
	case err = <-read:
	case <-ctx.Done():
	}
	d.stop()
	_ = pw.Close()
	if lerr := <-listened; err == nil {
		err = lerr
	}
	return err
}

// stdioDispatcher runs the stdio session's tool calls.
type stdioDispatcher struct {
	e      *Edge
	sess   context.Context    // mcp-go's stdio session context
	calls  context.Context    // every call's parent, ended by stop
	cancel context.CancelFunc // ends calls
	w      *lineWriter
	fwd    io.Writer // mcp-go's input
	wg     sync.WaitGroup
	// refusing bounds the busy refusals being authored at once.
	refusing chan struct{}

	mu      sync.Mutex
	stopped bool
	byID    map[string]*stdioCall // running calls by JSON-RPC id, for notifications/cancelled
}

type stdioCall struct{ cancel context.CancelFunc }

func newStdioDispatcher(e *Edge, sess context.Context, w *lineWriter, fwd io.Writer) *stdioDispatcher {
	calls, cancel := context.WithCancel(sess)
	return &stdioDispatcher{e: e, sess: sess, calls: calls, cancel: cancel, w: w, fwd: fwd, byID: map[string]*stdioCall{},
		refusing: make(chan struct{}, e.limits.SessionCalls)}
}

// read handles every line of in until it ends (nil) or fails.
func (d *stdioDispatcher) read(in io.Reader) error {
	lr := newLineReader(in, d.e.limits.RequestBytes)
	for {
		line, over, err := lr.next()
		if len(line) > 0 || over {
			if !d.handle(line, over) {
				return nil // mcp-go's reader is gone; Listen reports why
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// handle answers, dispatches or forwards one line; false when mcp-go no
// longer reads.
func (d *stdioDispatcher) handle(line []byte, over bool) bool {
	if over {
		d.write(errorLine(scanID(line), mcp.INVALID_REQUEST, tooLarge(d.e.limits.RequestBytes)))
		return true
	}
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return true // a blank line is no message
	}
	in := peek(msg)
	request := in.id != nil && string(in.id) != "null" // mcp-go treats id null as a notification
	switch {
	case in.bad:
		d.write(errorLine(in.id, in.errCode, in.errMsg))
		return true
	case request && in.method == string(mcp.MethodToolsCall):
		d.call(msg, in.id)
		return true
	case in.method == string(mcp.MethodNotificationCancelled):
		d.cancelCall(msg) // mcp-go gets it too, for whatever it runs itself
	}
	_, err := d.fwd.Write(append(msg, '\n'))
	return err == nil
}

// call admits one tools/call and runs it on its own goroutine, or answers it
// busy at once when the session is full.
func (d *stdioDispatcher) call(msg []byte, id json.RawMessage) {
	ctx, leave, ok := d.e.calls.enter(d.calls, StdioSession)
	if !ok {
		d.refuse(msg, id)
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &stdioCall{cancel: cancel}
	key := idKey(id)
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		cancel()
		leave()
		return
	}
	d.byID[key] = c
	d.wg.Add(1)
	d.mu.Unlock()
	go func() {
		defer d.wg.Done()
		defer leave()
		defer d.forget(key, c)
		d.respond(d.serve(context.WithValue(ctx, admissionKey{}, admissionHeld), id, msg))
	}()
}

// refuse answers a call busy. The refusal is authored (and audited) off the
// reader, up to limit at once; past that the reader authors it itself, which
// slows only the client sending faster than refusals can be written.
func (d *stdioDispatcher) refuse(msg []byte, id json.RawMessage) {
	ctx := context.WithValue(d.sess, admissionKey{}, admissionRefused)
	select {
	case d.refusing <- struct{}{}:
	default:
		d.respond(d.serve(ctx, id, msg))
		return
	}
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		<-d.refusing
		return
	}
	d.wg.Add(1)
	d.mu.Unlock()
	go func() {
		defer d.wg.Done()
		defer func() { <-d.refusing }()
		d.respond(d.serve(ctx, id, msg))
	}()
}

func (d *stdioDispatcher) forget(key string, c *stdioCall) {
	c.cancel()
	d.mu.Lock()
	if d.byID[key] == c {
		delete(d.byID, key)
	}
	d.mu.Unlock()
}

// cancelCall ends the call a notifications/cancelled names. Its answer is
// then withheld (withholdIfCancelled).
func (d *stdioDispatcher) cancelCall(msg []byte) {
	var n struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &n) != nil || !isID(n.Params.RequestID) {
		return
	}
	d.mu.Lock()
	c := d.byID[idKey(n.Params.RequestID)]
	d.mu.Unlock()
	if c != nil {
		c.cancel()
	}
}

// serve runs one message through mcp-go; a panic outside the tool handler
// (which mcp-go recovers) still gets an answer.
func (d *stdioDispatcher) serve(ctx context.Context, id json.RawMessage, msg []byte) (resp mcp.JSONRPCMessage) {
	defer func() {
		if r := recover(); r != nil {
			d.e.log.Error("mcpedge: panic serving a tool call", "panic", fmt.Sprint(r))
			d.write(errorLine(id, mcp.INTERNAL_ERROR, "internal error"))
			resp = nil
		}
	}()
	return d.e.srv.HandleMessage(ctx, msg)
}

func (d *stdioDispatcher) respond(resp mcp.JSONRPCMessage) {
	if resp == nil {
		return
	}
	b, err := json.Marshal(resp)
	if err != nil {
		d.e.log.Error("mcpedge: response cannot be encoded", "err", err)
		return
	}
	d.write(b)
}

// write sends one message (a fresh slice) as one line.
func (d *stdioDispatcher) write(b []byte) {
	if _, err := d.w.Write(append(b, '\n')); err != nil {
		d.e.log.Debug("mcpedge: stdout write failed", "err", err)
	}
}

// stop ends every call and waits until all have returned.
func (d *stdioDispatcher) stop() {
	d.mu.Lock()
	d.stopped = true
	d.mu.Unlock()
	d.cancel()
	d.wg.Wait()
}

// lineReader reads newline-framed messages of at most limit bytes.
type lineReader struct {
	r     *bufio.Reader
	limit int
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, surface.StdioBufferBytesMax), limit: limit}
}

// next returns the next line without its line ending. A line longer than
// limit is read to its end without being kept: over is set and line holds
// only its first idPrefixBytes, where its id may be.
func (l *lineReader) next() (line []byte, over bool, err error) {
	for {
		frag, err := l.r.ReadSlice('\n')
		if !over {
			line = append(line, frag...)
			n := len(line)
			if err == nil {
				n-- // the newline
			}
			if n > l.limit {
				over = true
				line = append([]byte(nil), line[:min(len(line), idPrefixBytes)]...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if !over {
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		}
		return line, over, err
	}
}
