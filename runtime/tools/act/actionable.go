package act

import (
	"context"
	"errors"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
)

// Ready waits, frame by frame within the call's timeout, until every element
// can take key input or a value: attached, rendered, enabled and holding
// still (pagejs.AwaitAllActionable; no point is pressed, so covers do not
// matter and nothing is scrolled). pointer names the argument of element i
// for the refusal.
func (a *Act) Ready(ctx context.Context, ids []int, pointer func(i int) string) *surface.Refusal {
	return a.ReadyWith(ctx, ids, pointer, pagejs.LocateOptions{Keys: true, AllowObscured: true})
}

func (a *Act) ReadyWith(ctx context.Context, ids []int, pointer func(i int) string, opt pagejs.LocateOptions) *surface.Refusal {
	return a.ReadyRefusal(a.x.Ready(ctx, ids, opt), pointer)
}

// ReadyRefusal is the refusal of a wait for elements to take an action
// (nil: they can); pointer names the argument of element i.
func (a *Act) ReadyRefusal(err error, pointer func(i int) string) *surface.Refusal {
	if err == nil {
		return nil
	}
	r := refusal.For(err, 0)
	var ae *pagejs.ActionableError
	if errors.As(err, &ae) && r.Pointer == "" {
		r.Pointer = pointer(ae.Index)
	}
	return r
}

// ReadyOne is Ready for one element named by one argument.
func (a *Act) ReadyOne(ctx context.Context, id int, pointer string) *surface.Refusal {
	return a.Ready(ctx, []int{id}, func(int) string { return pointer })
}
