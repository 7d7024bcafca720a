package input

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
)

// Stroke is one key about to go down, as a KeyGuard sees it.
type Stroke struct {
	Key KeyDef
	// Inserts: the key types text into whatever has focus (a character,
	// or a run of text inserted without key events).
	Inserts bool
	// Paste: the key is a paste shortcut (Control+V, Meta+V, Shift+Insert),
	// which puts the clipboard's text where focus is.
	Paste bool
	// Enter or Space (with any modifiers): the keys that submit a form from
	// a text field or press a focused button.
	Enter, Space bool
}

// KeyGuard decides, right before a key goes down, whether it may: a non-nil
// error stops the operation there, nothing of that key sent, and is
// returned as it is. The caller's own checks (the focused element's
// credential class, a form a key would submit) live in the guard; keyboard
// dispatch asks it for every key of TypeText, PressKey and Strokes.
type KeyGuard func(ctx context.Context, s Stroke) error

type guardKey struct{}

// WithKeyGuard has keyboard dispatch under ctx ask g before every key.
func WithKeyGuard(ctx context.Context, g KeyGuard) context.Context {
	if g == nil {
		return ctx
	}
	return context.WithValue(ctx, guardKey{}, g)
}

// guardOf is ctx's key guard (nil: none).
func guardOf(ctx context.Context) KeyGuard {
	g, _ := ctx.Value(guardKey{}).(KeyGuard)
	return g
}

// strokeOf describes k going down with the modifier bits held.
func strokeOf(k KeyDef, held int) Stroke {
	cmd := held&(modAlt|modControl|modMeta) != 0
	s := Stroke{Key: k, Inserts: k.Text != "" && k.Text != "\r" && !cmd}
	switch {
	case (k.Code == "KeyV") && held&(modControl|modMeta) != 0 && held&modAlt == 0:
		s.Paste = true
	case k.Code == "Insert" && held&modShift != 0 && !cmd:
		s.Paste = true
	}
	// Modifiers held or not: whether a page submits on Control+Enter is its
	// own choice, so the check asks about every Enter and Space.
	s.Enter = k.Key == "Enter"
	s.Space = k.Code == "Space"
	return s
}

// check asks the run's guard about a key (nil guard: every key may). A
// refusal after posted messages (key-ups) confirms them first with one
// awaited no-op on the session, so the run's effect says what reached the
// page rather than unknown.
func (r *run) check(s Stroke) error {
	if r.guard == nil {
		return nil
	}
	err := r.guard(r.ctx, s)
	if err != nil && r.posted > 0 {
		_, _ = r.call(proto.RuntimeEvaluate{Expression: "0", Silent: true})
	}
	return err
}
