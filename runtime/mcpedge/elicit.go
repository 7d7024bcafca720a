package mcpedge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Call.Elicit: a URL-mode elicitation (MCP 2025-11-25) asks the client to
// show the person a link, outside the model's context. Only a client that
// declared elicitation.url is asked (a bare elicitation capability means
// form mode only); the request goes out on the call's own stream.

// elicitOf is the Call.Elicit of a call under ctx, nil when its client did
// not declare URL-mode elicitation.
func (e *Edge) elicitOf(ctx context.Context) func(ctx context.Context, id, url, message string) (bool, func(), bool) {
	cs := server.ClientSessionFromContext(ctx)
	info, ok := cs.(server.SessionWithClientInfo)
	if !ok {
		return nil
	}
	if el := info.GetClientCapabilities().Elicitation; el == nil || el.URL == nil {
		return nil
	}
	// mcp-go finds the session and the call's stream in the call's own
	// context; the handler's context (with its deadline) bounds the wait.
	callCtx := ctx
	return func(wait context.Context, id, url, message string) (bool, func(), bool) {
		rctx, cancel := context.WithCancel(callCtx)
		defer cancel()
		stop := context.AfterFunc(wait, cancel)
		defer stop()
		res, err := e.srv.RequestURLElicitation(rctx, cs, id, url, message)
		if err != nil {
			e.log.Debug("mcpedge: URL elicitation unanswered", "err", err)
			return false, nil, false
		}
		complete := func() {
			if err := e.srv.SendElicitationComplete(context.WithoutCancel(callCtx), cs, id); err != nil {
				e.log.Debug("mcpedge: elicitation complete not sent", "err", err)
			}
		}
		return res.Action == mcp.ElicitationResponseActionAccept, complete, true
	}
}
