package act

import (
	"context"
	"errors"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// The key guard: every key the model's calls dispatch (type_text,
// press_key, their sequence and flow steps, the Operator's verbs) is checked
// right before it goes down, on the element it will reach (input.Receiver:
// the deep focused element, through closed shadow roots and frames of any
// origin). A key that types or pastes into a credential field stops the
// call with the handoff; under write: deny, Enter in a form's field and
// Space or Enter on a submit button stop it with capability_denied. The
// check runs per key because a page moves focus as it is typed into (code
// boxes that advance on each digit).

// guardRefused carries a key guard's refusal out of the input package.
type guardRefused struct{ r *surface.Refusal }

func (g *guardRefused) Error() string { return language.KeyRefused(string(g.r.Reason)) }

// KeyGuard is the act's guard.
func (a *Act) KeyGuard() input.KeyGuard {
	frames := action.Frames(a.t)
	return func(ctx context.Context, s input.Stroke) error {
		submit := false
		if s.Enter || s.Space {
			if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
				submit = inv.Authority.AdmitCapability(surface.CapabilityWrite) != nil
			}
		}
		if s.Enter || s.Space { // policy confirm: the key activates a control (confirm.go)
			if r := a.confirmKey(ctx, s.Enter); r != nil {
				return &guardRefused{r}
			}
		}
		if !s.Inserts && !s.Paste && !submit {
			return nil
		}
		rc, err := input.FocusedReceiver(ctx, a.t.Page(), frames)
		if err != nil {
			return err // an unknown receiver gets nothing
		}
		if (s.Inserts || s.Paste) && rc.Credential != "" {
			r := &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Message: language.FocusedCredential(rc.Credential)}
			a.s.Handoff(a.call, a.t, r)
			return &guardRefused{r}
		}
		if submit && (s.Enter && (rc.EnterSubmits || rc.SubmitButton) || s.Space && rc.SubmitButton) {
			r := pipeline.FromContext(ctx).Authority.AdmitCapability(surface.CapabilityWrite)
			key := "Enter"
			if s.Space {
				key = "Space"
			}
			r.Message = language.SubmitByKey(key, rc.SubmitButton, r.Message)
			return &guardRefused{r}
		}
		return nil
	}
}

// guarded is the refusal a key guard stopped a dispatch with (nil: none).
func guarded(err error) *surface.Refusal {
	var g *guardRefused
	if errors.As(err, &g) {
		return g.r
	}
	return nil
}
