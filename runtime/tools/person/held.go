package person

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

// Held is browser_execute's refusal on a held document: may the model's
// script run on it? nil when the document is not held. Call it holding the
// tab.
func Held(s Session, t *browser.Tab) *surface.Refusal {
	if !s.Person().Held(s.Workspace().ID(), t.Handle(), t.Generation()) {
		return nil
	}
	return &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Tab: t.Handle()}
}

// Pictured is browser_screenshot's refusal: may this document be pictured?
// nil when it may; a held document (Held) may not, nor a page whose text
// shows what the person typed (a later page repeating a card number). Call
// it holding the tab.
func Pictured(ctx context.Context, s Session, t *browser.Tab) *surface.Refusal {
	if r := Held(s, t); r != nil {
		return r
	}
	return shown(ctx, s, t)
}

// shown is the refusal of a page whose text shows what the person typed
// into a credential field: text results mask it (runtime/echomask), a
// picture cannot. Only sessions where the person typed one pay the read; a
// page that cannot be read gets no picture either. Call it holding the tab.
func shown(ctx context.Context, s Session, t *browser.Tab) *surface.Refusal {
	mask := s.Person().Masker(s.Workspace().ID())
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
