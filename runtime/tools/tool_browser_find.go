package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
)

// BrowserFind ranks current targets by visible or accessible text across
// the whole rendered document, not only the part inspect would list, so a
// control far down a large page is one call away.
func (h *Handler) BrowserFind(ctx context.Context, a *surface.BrowserFindArgs) (*surface.BrowserFindFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, 0)
	defer cancel()
	t, r := s.tab(ctx, a.Tab, "")
	if r != nil {
		return nil, outcome.Refused(r)
	}
	f := &surface.BrowserFindFacts{Tab: t.Handle(), Matches: []*surface.Item{}}
	var ready string
	r = s.onTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		s.World(t).TakeReadiness() // what an earlier call saw is not this one's
		gen := t.Generation()
		f.DocumentGeneration = int(gen)
		res, err := pagejs.Find(ctx, s.World(t), pagejs.FindRequest{Text: a.Text, Scope: a.Scope, Max: a.MaxResults, NameMax: surface.TargetNameCharsMax, CredentialAutocomplete: surface.CredentialAutocomplete, Judge: person.Judge(s, a.Text)})
		if err != nil {
			return refusal.For(err, surface.TimeoutMsDefault)
		}
		for _, m := range res.Matches {
			f.Matches = append(f.Matches, s.item(t, gen, m.Item))
		}
		f.Total = max(res.Total, len(f.Matches))
		ready = s.readinessSeen(ctx, t)
		return nil
	})
	if r != nil {
		return nil, outcome.Refused(r)
	}
	return f, outcome.Done(language.FoundMatches(t.URL(), a.Text, len(f.Matches), f.Total), ready, surface.EffectNone, true)
}
