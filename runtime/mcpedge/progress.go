package mcpedge

import (
	"context"
	"log/slog"
	"math"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func noProgress(float64, float64, string) {}

// progress sends notifications/progress for one call that carried a token.
type progress struct {
	ctx   context.Context
	srv   *server.MCPServer
	own   notifier // the call's own stream, when the transport has one
	token mcp.ProgressToken
	log   *slog.Logger

	mu   sync.Mutex
	last float64
	sent bool
	done bool
}

// newProgress returns the Call.Progress function: a no-op without a token.
func newProgress(ctx context.Context, meta *mcp.Meta, log *slog.Logger) (func(float64, float64, string), *progress) {
	if meta == nil || meta.ProgressToken == nil {
		return noProgress, nil
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return noProgress, nil
	}
	p := &progress{ctx: ctx, srv: srv, token: meta.ProgressToken, log: log}
	p.own, _ = withholderFrom(ctx).(notifier)
	return p.send, p
}

// send drops what MCP forbids: non-finite values, a progress that does not
// increase, and anything once the call was cancelled or has returned.
func (p *progress) send(progress, total float64, message string) {
	if math.IsNaN(progress) || math.IsInf(progress, 0) || math.IsNaN(total) || math.IsInf(total, 0) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done || p.ctx.Err() != nil || (p.sent && progress <= p.last) {
		return
	}
	p.sent, p.last = true, progress
	params := map[string]any{"progressToken": p.token, "progress": progress}
	if total > 0 {
		params["total"] = total
	}
	if message != "" {
		params["message"] = message
	}
	method := string(mcp.MethodNotificationProgress)
	var err error
	if p.own != nil {
		err = p.own.notify(p.ctx, method, params)
	} else {
		err = p.srv.SendNotificationToClient(p.ctx, method, params)
	}
	if err != nil {
		p.log.Debug("mcpedge: progress notification not sent", "err", err)
	}
}

// stop makes later sends no-ops: the answer is on its way.
func (p *progress) stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}
