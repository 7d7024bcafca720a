package person

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/recorder"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/recordings"
)

// A replay is pictures, and a picture cannot be masked. Frames of a
// document the person typed a credential into are dropped as they arrive
// (Recording); but a later page may show it again (a receipt repeating the
// card number). So, in a session where the person typed one, every frame is
// stamped with its document, and the save keeps only frames of the document
// on screen at the save, and only when that page's text does not show the
// secret then (Pictured). Frames stamped before the person typed anything
// stay: nothing of theirs was on screen yet.

// Recording is what a recording of t asks as each frame arrives: held
// reports whether the tab's document is held (its frames are never kept: a
// card number or a code shows in plain sight), and tag stamps the frame: 0
// while the session's person has typed nothing, else the tab's document
// generation plus one.
func Recording(s Session, t *browser.Tab) (held func() bool, tag recorder.Tag) {
	person, session, handle := s.Person(), s.Workspace().ID(), t.Handle()
	held = func() bool { return person.Held(session, handle, t.Generation()) }
	tag = func() uint64 {
		if person.Masker(session) == nil {
			return 0
		}
		return uint64(t.Generation()) + 1
	}
	return held, tag
}

// DropFrames erases the stopped recording's frames that may not leave:
// those that may show what the person typed; it reports how many went. A
// frame is kept when it was stamped before the person typed, or when it is
// of the document on screen now, that document does not show a secret, and
// the frame before it was of the same document (a screencast frame is
// painted before it is stamped: the first after a navigation may still show
// the page before).
func DropFrames(ctx context.Context, s Session, rec *recordings.Entry) int {
	if s.Person().Masker(s.Workspace().ID()) == nil {
		return 0
	}
	t := rec.Tab
	now := uint64(t.Generation()) + 1
	shows := true // a page that cannot be read keeps no frame of its own
	_ = s.OnTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		now = uint64(t.Generation()) + 1
		shows = shown(ctx, s, t) != nil
		return nil
	})
	return rec.R.Keep(func(tag, prev uint64) bool {
		return tag == 0 || tag == now && prev == now && !shows
	})
}

// FramesRefusal is a save's refusal when every frame went (DropFrames).
func FramesRefusal(t *browser.Tab) *surface.Refusal {
	return &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Tab: t.Handle(), Message: language.MsgSecretShown}
}
