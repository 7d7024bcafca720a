package tools

// Handlers not written yet answer not_supported. Each moves to its own
// tool_<name>.go file as it is implemented; this file shrinks to nothing.

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func pending() surface.Outcome {
	return refused(&surface.Refusal{Reason: surface.ReasonNotSupported, Message: "not implemented yet"})
}

func (h *Handler) BrowserRecord(ctx context.Context, a *surface.BrowserRecordArgs) (*surface.BrowserRecordFacts, surface.Outcome) {
	return nil, pending()
}
