package tools

import (
	"context"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// PolicyExplain reads the authority in force for this call: the compiled
// projection `ghostlight explain` prints too, without paths or layer texts.
// It never touches the browser, holds no workspace and writes nothing.
func (h *Handler) PolicyExplain(ctx context.Context, a *surface.PolicyExplainArgs) (*surface.PolicyExplainFacts, surface.Outcome) {
	auth := governance.AllOpen(governance.DefaultStartup())
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
		auth = inv.Authority
	}
	f := auth.Explain()
	if note := auth.InterceptionOnlyNote(h.b != nil && h.b.EndpointRemote()); note != "" {
		f.Note = strings.TrimSpace(f.Note + " " + note)
	}
	return f, outcome.Done(language.Explained(len(f.Capabilities), len(f.Layers), f.Situation, f.Note), "", surface.EffectNone, true)
}
