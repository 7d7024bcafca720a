package input

import "context"

// PressGuard watches a click's presses for the element they were meant for
// (pagejs.PressWatch): Arm before the first press, BeforeRelease after each
// press. BeforeRelease returns nil when the release may go out, or an
// error once the release must not reach what now covers the point: the
// guard has then made the page swallow that release, which is still sent
// so the browser's press ends, and Click returns the error as it is with a
// partial effect (the press happened).
type PressGuard interface {
	Arm(ctx context.Context) error
	BeforeRelease(ctx context.Context) error
}

type pressKey struct{}

// WithPressGuard has clicks under ctx consult g around each press (nil:
// presses are not watched).
func WithPressGuard(ctx context.Context, g PressGuard) context.Context {
	if g == nil {
		return ctx
	}
	return context.WithValue(ctx, pressKey{}, g)
}

func pressGuardOf(ctx context.Context) PressGuard {
	g, _ := ctx.Value(pressKey{}).(PressGuard)
	return g
}
