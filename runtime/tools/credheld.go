package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// A credential the person typed stays theirs. Once the person has typed
// into a credential field through the workbench, the page holds it in its
// DOM, where script run by the model (browser_execute) could read it. The
// tab's document is then held (runtime/handoff's Hold): browser_execute and
// browser_screenshot on it are refused until the tab's document changes (a
// navigation raises its generation) or the person releases it in the
// workbench. browser_read, inspect and find never return a field's value,
// so they stay open.

// heldCredential is browser_execute's and browser_screenshot's refusal on a held document (nil when
// the document is not held). Call it holding the tab.
func (s *session) heldCredential(t *browser.Tab) *surface.Refusal {
	if !s.h.person.Held(s.ws.ID(), t.Handle(), t.Generation()) {
		return nil
	}
	return &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Tab: t.Handle()}
}

// secretShown is browser_screenshot's refusal on a page whose text shows
// what the person typed into a credential field (a later page repeating a
// card number): text results mask it (runtime/echomask), a picture cannot.
// Only sessions where the person typed one pay the read; a page that cannot
// be read gets no picture either. Call it holding the tab.
func (s *session) secretShown(ctx context.Context, t *browser.Tab) *surface.Refusal {
	mask := s.h.person.Masker(s.ws.ID())
	if mask == nil {
		return nil
	}
	r := &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Tab: t.Handle(), Message: language.MsgSecretShown}
	res, err := pagejs.Read(ctx, s.World(t), pagejs.ReadRequest{Mode: pagejs.ReadVisible, MaxChars: surface.ReadCharsMax, TitleMax: surface.TitleCharsMax})
	if err != nil {
		return r
	}
	if _, shown := mask(res.Title + "\n" + res.Text); shown {
		return r
	}
	return nil
}
