package tools

import (
	"context"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserRead returns bounded rendered prose of the page or of one target.
// Editable values are never read (the page code never takes them as text).
func (h *Handler) BrowserRead(ctx context.Context, a *surface.BrowserReadArgs) (*surface.BrowserReadFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, 0)
	defer cancel()
	t, r := s.tab(ctx, a.Tab, a.Target)
	if r != nil {
		return nil, outcome.Refused(r)
	}
	f := &surface.BrowserReadFacts{Tab: t.Handle()}
	var ready string
	r = s.onTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		s.World(t).TakeReadiness() // what an earlier call saw is not this one's
		gen := t.Generation()
		req := pagejs.ReadRequest{Mode: a.Mode, MaxChars: a.MaxChars, TitleMax: surface.TitleCharsMax}
		if a.Target != "" || a.Selector != nil {
			id, r := s.element(ctx, t, a.Target, a.Selector, locator(a.Selector, "/target", "/selector"))
			if r != nil {
				return r
			}
			req.Target = id
		}
		res, err := pagejs.Read(ctx, s.World(t), req)
		if err != nil {
			return refusal.For(err, surface.TimeoutMsDefault)
		}
		var cut bool
		f.URL, f.Title, cut = outcome.Page(ctx, res.URL, res.Title)
		if cut { // the page moved outside the authority under the read: nothing of it
			if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
				if d := inv.Authority.AdmitURL(res.URL); d != nil {
					return d // names the host and the deciding layer
				}
			}
			return &surface.Refusal{Reason: surface.ReasonHostDenied, Host: language.Host(f.URL), Message: language.MsgPageLeftHosts}
		}
		f.Text, f.Truncated, f.Mode = res.Text, res.Truncated, res.ModeUsed
		f.DocumentGeneration = int(gen)
		ready = s.readinessSeen(ctx, t)
		return nil
	})
	if r != nil {
		return nil, outcome.Refused(r)
	}
	// The sentence's count is the facts' text measured in characters.
	return f, outcome.Done(language.ReadDone(f.URL, f.Mode, utf8.RuneCountInString(f.Text), f.Truncated), ready, surface.EffectNone, true)
}
