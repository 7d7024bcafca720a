package mcpedge

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Options configure New.
type Options struct {
	Name    string // serverInfo.name
	Version string // serverInfo.version
	// Logger receives every diagnostic; the edge never writes elsewhere. Nil
	// discards.
	Logger *slog.Logger
	// WorkerPoolSize bounds concurrent tool calls on stdio; 0 keeps mcp-go's
	// default.
	WorkerPoolSize int
}

// Edge is the MCP server in front of one Dispatcher.
type Edge struct {
	d        Dispatcher
	srv      *server.MCPServer
	log      *slog.Logger
	pool     int
	rewriter *rewriter // nil when mcp-go already writes every Definition verbatim

	mu    sync.Mutex
	https []*server.StreamableHTTPServer
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
	if opts.WorkerPoolSize < 0 {
		return nil, &Error{Kind: KindInvalidOptions, Detail: "negative WorkerPoolSize"}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	tools, rewrites, err := buildTools(d.Tools())
	if err != nil {
		return nil, err
	}
	e := &Edge{d: d, log: log, pool: opts.WorkerPoolSize, rewriter: newRewriter(rewrites)}
	if len(rewrites) > 0 {
		names := make([]string, len(rewrites))
		for i, r := range rewrites {
			names[i] = r.tool
		}
		log.Debug("mcpedge: serving definition bytes mcp-go re-marshals differently", "tools", names)
	}

	hooks := &server.Hooks{}
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		d.SessionClosed(s.SessionID())
	})
	hooks.AddAfterCallTool(func(ctx context.Context, id any, _ *mcp.CallToolRequest, _ any) {
		withholdIfCancelled(ctx, id)
	})
	hooks.AddOnError(func(ctx context.Context, id any, method mcp.MCPMethod, _ any, _ error) {
		if method == mcp.MethodToolsCall {
			withholdIfCancelled(ctx, id)
		}
	})
	e.srv = server.NewMCPServer(opts.Name, opts.Version,
		server.WithToolCapabilities(false),
		server.WithHooks(hooks),
		server.WithRecovery(),
		server.WithLogger(log),
	)
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

// Close ends every HTTP session this edge serves (each reaches
// Dispatcher.SessionClosed) and stops their idle sweepers.
func (e *Edge) Close(ctx context.Context) error {
	e.mu.Lock()
	https := e.https
	e.https = nil
	e.mu.Unlock()
	var errs []error
	for _, h := range https {
		errs = append(errs, h.Shutdown(ctx))
	}
	return errors.Join(errs...)
}
