package tools

import (
	"context"
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// PolicyExplain reads the authority in force for this call. It never touches
// the browser, holds no workspace and writes nothing.
func (h *Handler) PolicyExplain(ctx context.Context, a *surface.PolicyExplainArgs) (*surface.PolicyExplainFacts, surface.Outcome) {
	auth := governance.AllOpen("auto")
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
		auth = inv.Authority
	}
	lines, rules := auth.Explain()
	f := &surface.PolicyExplainFacts{
		Ceilings:     governance.Ceilings,
		Rules:        rules,
		Startup:      auth.Startup(),
		Organization: auth.Organization(),
		Provenance:   "command-line configuration of this server process",
		Layers:       len(auth.Layers()),
	}
	denied := 0
	for _, l := range lines {
		f.Capabilities = append(f.Capabilities, &surface.CapabilityLine{Capability: string(l.Capability), Allowed: l.Allowed, Layer: l.Layer})
		if !l.Allowed {
			denied++
		}
	}
	if denied == 0 && len(rules) == 0 {
		f.Situation = "Every capability is allowed on every http(s) host, under the permanent ceilings."
	} else {
		f.Situation = fmt.Sprintf("%s of %d denied; %s.", language.Plural(denied, "capability is", "capabilities are"), len(lines), language.Plural(len(rules), "rule applies", "rules apply"))
	}
	summary := fmt.Sprintf("Explained %s over %s in force. %s", language.Plural(len(f.Capabilities), "capability area", "capability areas"), language.Plural(f.Layers, "layer", "layers"), f.Situation)
	return f, done(language.Say(summary), "", surface.EffectNone, true)
}
