package mcpedge

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Options configure New.
type Options struct {
	Name    string // serverInfo.name
	Version string // serverInfo.version
	// Logger receives every diagnostic; the edge never writes elsewhere. Nil
	// discards. Its records are bounded to Limits.LogValueChars.
	Logger *slog.Logger
	// Limits are the edge's bounds; every one is required.
	Limits Limits
	// Advertise, when set, is called when a session starts (and after each
	// call, and at each tools/list) and returns which tools the authority
	// in force lets a session call some way; tools/list names only those,
	// and grows (with notifications/tools/list_changed) when it allows more,
	// never shrinking within a session (advertise.go). Nil lists every tool.
	Advertise func() func(tool string) bool
	// RootsWait bounds the wait for a client's answer to roots/list when a
	// call asks for its roots (Call.Roots); 0 never asks (roots.go).
	RootsWait time.Duration
	// Instructions are the server instructions sent in initialize and in
	// server/discover ("" sends none).
	Instructions string
}

// Edge is the MCP server in front of one Dispatcher.
type Edge struct {
	d        Dispatcher
	srv      *server.MCPServer
	log      *slog.Logger
	limits   Limits
	calls    *inflight   // tool calls in flight, per session
	adv      *advertiser // nil: every tool is listed
	roots    *rootsCache // nil: Call.Roots is nil
	rewriter *rewriter   // nil when mcp-go already writes every Definition verbatim
	// stateless keeps the workspaces of calls without a protocol session
	// (MCP 2026-07-28 over HTTP).
	stateless *stateless
	drain     *drainer // ops.go

	mu    sync.Mutex
	https []*server.StreamableHTTPServer
	stops []context.CancelFunc // the idle sweepers (idle.go)
}

// New registers every tool of d with mcp-go. It fails when a Definition is not
// a compact JSON tool object naming its tool.
func New(d Dispatcher, opts Options) (*Edge, error) {
	if d == nil {
		return nil, &Error{Kind: KindInvalidOptions, Detail: "nil Dispatcher"}
	}
	if opts.Name == "" || opts.Version == "" {
		return nil, &Error{Kind: KindInvalidOptions, Detail: "Name and Version are required"}
	}
	tools, rewrites, err := buildTools(d.Tools())
	if err != nil {
		return nil, err
	}
	if err := opts.Limits.check(); err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = slog.New(BoundLogs(log.Handler(), opts.Limits.LogValueChars))
	e := &Edge{d: d, log: log, limits: opts.Limits, calls: newInflight(opts.Limits.SessionCalls), rewriter: newRewriter(rewrites),
		adv: newAdvertiser(opts.Advertise, tools), roots: newRootsCache(opts.RootsWait)}
	e.stateless = newStateless(e)
	e.drain = &drainer{retry: opts.Limits.DrainRetryAfter}
	if len(rewrites) > 0 {
		names := make([]string, len(rewrites))
		for i, r := range rewrites {
			names[i] = r.tool
		}
		log.Debug("mcpedge: serving definition bytes mcp-go re-marshals differently", "tools", names)
	}

	hooks := &server.Hooks{}
	// A session that ends (EOF, DELETE, idle expiry, Close) has its calls
	// cancelled, and its workspace is released once they have returned.
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		id := s.SessionID()
		e.calls.end(id, func() { d.SessionClosed(id) })
		if e.adv != nil {
			e.adv.end(id)
		}
		if e.roots != nil {
			e.roots.end(id)
		}
	})
	e.registerAdvertising(hooks)
	hooks.AddAfterCallTool(func(ctx context.Context, id any, _ *mcp.CallToolRequest, _ any) {
		withholdIfCancelled(ctx, id)
	})
	hooks.AddOnError(func(ctx context.Context, id any, method mcp.MCPMethod, _ any, _ error) {
		if method == mcp.MethodToolsCall {
			withholdIfCancelled(ctx, id)
		}
	})
	sopts := []server.ServerOption{
		// listChanged only when the list can change (Advertise).
		server.WithToolCapabilities(e.adv != nil),
		server.WithHooks(hooks),
		server.WithRecovery(),
		server.WithLogger(log),
	}
	if opts.Instructions != "" {
		sopts = append(sopts, server.WithInstructions(opts.Instructions))
	}
	if e.adv != nil {
		sopts = append(sopts, server.WithToolFilter(e.filter))
	}
	e.srv = server.NewMCPServer(opts.Name, opts.Version, sopts...)
	e.registerRoots()
	st := make([]server.ServerTool, len(tools))
	for i, t := range tools {
		st[i] = server.ServerTool{Tool: t, Handler: e.callTool}
	}
	e.srv.AddTools(st...)
	return e, nil
}

// withholdIfCancelled runs after mcp-go has the call's result and before the
// transport writes it: a context that ended means the client cancelled (or
// left), and the answer must not be written.
func withholdIfCancelled(ctx context.Context, id any) {
	if ctx.Err() == nil || id == nil {
		return
	}
	if w := withholderFrom(ctx); w != nil {
		w.withhold(id)
	}
}

// Close ends every HTTP session this edge serves, and every workspace of
// stateless calls (each reaches Dispatcher.SessionClosed), and stops their
// idle sweepers.
func (e *Edge) Close(ctx context.Context) error {
	e.mu.Lock()
	https, stops := e.https, e.stops
	e.https, e.stops = nil, nil
	e.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
	var errs []error
	for _, h := range https {
		errs = append(errs, h.Shutdown(ctx))
	}
	e.stateless.close()
	return errors.Join(errs...)
}

// InFlight is how many tool calls of session are in flight now (stdio:
// StdioSession), for tests and diagnostics.
func (e *Edge) InFlight(session string) int { return e.calls.count(session) }
