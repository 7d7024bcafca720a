package person

import (
	"context"
	"log/slog"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
)

// Session is what asking the person needs of the call's session
// (runtime/tools).
type Session interface {
	// Workspace is the session's browser workspace.
	Workspace() *browser.Workspace
	// Person is what waits on the person: handoffs, held documents, typed
	// secrets and confirmation answers.
	Person() *handoff.Store
	// Downloads is, per call, the handoff to open if a download it starts is held.
	Downloads() *Downloads
	// World is the isolated world of t's current page.
	World(t *browser.Tab) *pagejs.World
	// OnTab runs fn holding t, after its page is admitted and with no dialog blocking it.
	OnTab(ctx context.Context, t *browser.Tab, fn func(ctx context.Context) *surface.Refusal) *surface.Refusal
	// Log is the handler's logger.
	Log() *slog.Logger
}
