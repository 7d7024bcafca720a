package action

import (
	"context"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// Focus is where the page's focus is for typing: an editable element page
// code sees (Seen, ID), or else what the receiver walk found (Receiver):
// focus may be where page code cannot see (a closed shadow root, a
// cross-origin frame), and keys go there all the same.
type Focus struct {
	ID       int
	Seen     bool
	Receiver input.Receiver
}

// Focused finds where typed text would go now.
func (a *Action) Focused(ctx context.Context) (Focus, error) {
	id, ok, err := pagejs.FocusedEditable(ctx, a.w)
	if err != nil || ok {
		return Focus{ID: id, Seen: ok}, err
	}
	rc, err := input.FocusedReceiver(ctx, a.t.Page(), Frames(a.t))
	return Focus{Receiver: rc}, err
}

// TypeInto types text into element id with real per-character key events
// under the key guard: it arms the action, clears the field first when
// clear (a StepClear error), moves focus to it unless focused (a StepFocus
// error; the caret goes to the end when not cleared), then types. Typed is
// how many characters reached the page.
func (a *Action) TypeInto(ctx context.Context, guard input.KeyGuard, id int, focused, clear bool, text string) (typed int, err error) {
	a.Arm(ctx)
	if clear {
		if err := pagejs.Clear(ctx, a.w, id); err != nil {
			return 0, &StepError{StepClear, err}
		}
		a.noteApplied()
	}
	if !focused {
		if err := pagejs.Focus(ctx, a.w, id); err != nil {
			return 0, &StepError{StepFocus, err}
		}
		if !clear {
			_ = pagejs.CaretToEnd(ctx, a.w)
		}
	}
	return a.TypeText(ctx, guard, text)
}

// TypeText types text into whatever has focus, with real per-character key
// events under the key guard (the guard checks each key again). Typed is
// how many characters reached the page; nothing is dispatched for none.
func (a *Action) TypeText(ctx context.Context, guard input.KeyGuard, text string) (typed int, err error) {
	if utf8.RuneCountInString(text) == 0 {
		return 0, nil
	}
	err = a.Dispatch(ctx, guard, func(ctx context.Context) (input.Effect, error) {
		n, eff, err := input.TypeText(ctx, a.t.Page(), text)
		typed = n
		return eff, err
	})
	return typed, err
}
