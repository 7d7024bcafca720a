package action

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// Locate waits, frame by frame within the call's timeout, for element id to
// be able to take the action (pagejs.AwaitActionable), and returns the
// verified point to press in input coordinates and the element there. A
// click's releases are then watched for that element.
func (a *Action) Locate(ctx context.Context, id int, opt pagejs.LocateOptions) (input.Point, pagejs.Point, error) {
	p, err := pagejs.AwaitActionable(ctx, a.w, id, opt, pagejs.ActionDeadline(ctx))
	if err != nil {
		return input.Point{}, p, err
	}
	a.press, a.located = nil, p
	if pw := pagejs.WatchPress(a.w, id, p.X, p.Y, pagejs.ActionDeadline(ctx)); pw != nil {
		a.press = pw
	}
	return a.Zoom(p.X, p.Y), p, nil
}

// Ready waits, frame by frame within the call's timeout, until every
// element can take the action as opt says (pagejs.AwaitAllActionable).
func (a *Action) Ready(ctx context.Context, ids []int, opt pagejs.LocateOptions) error {
	_, err := pagejs.AwaitAllActionable(ctx, a.w, ids, opt, pagejs.ActionDeadline(ctx))
	return err
}

// zoomFactor is the tab's zoom emulation as a factor (1 without one).
func (a *Action) zoomFactor() float64 {
	f := float64(a.t.ZoomPercent()) / 100
	if f <= 0 {
		f = 1
	}
	return f
}

// Zoom converts CSS viewport px to input coordinates under the tab's zoom
// emulation (Chromium takes input in unscaled window px there).
func (a *Action) Zoom(x, y float64) input.Point {
	f := a.zoomFactor()
	return input.Point{X: x * f, Y: y * f}
}

// Unzoom converts input coordinates back to CSS viewport px (see Zoom).
func (a *Action) Unzoom(p input.Point) (float64, float64) {
	f := a.zoomFactor()
	return p.X / f, p.Y / f
}

// Frames lists every cross-origin frame of the tab, admitted or not: focus
// may be in any of them, and a key's check must see where it is (the
// workbench's check of the person's keys uses it too).
func Frames(t *browser.Tab) pagejs.FrameSource {
	return func(ctx context.Context) []pagejs.Frame {
		var out []pagejs.Frame
		for _, f := range t.Frames(ctx) {
			out = append(out, pagejs.Frame{Page: f.Page, FrameID: f.FrameID, URL: f.URL, Owner: f.Owner, Parent: f.Parent})
		}
		return out
	}
}

// ViewFault says why a point of a view cannot take input (ViewOK: it can).
type ViewFault int

const (
	ViewOK      ViewFault = iota
	ViewStale             // the view's binding is no longer the tab's
	ViewOutside           // the point lies outside the image
	ViewHidden            // the point lies outside the visible part of the page
)

// ViewPoint maps image point (fx, fy) of view v to input coordinates,
// checking v against the tab's binding now, and waits for the element under
// the point to hold still two frames running (pagejs.AwaitPointStable).
func (a *Action) ViewPoint(ctx context.Context, v capture.View, fx, fy float64) (input.Point, ViewFault, error) {
	now, err := capture.ReadBinding(ctx, a.t.Page(), a.t.Generation())
	switch {
	case err != nil:
		return input.Point{}, ViewOK, err
	case !capture.Current(v, now):
		return input.Point{}, ViewStale, nil
	case !v.Contains(fx, fy):
		return input.Point{}, ViewOutside, nil
	case !v.VisibleAt(now, fx, fy):
		return input.Point{}, ViewHidden, nil
	}
	vx, vy := v.ToViewportAt(now, fx, fy)
	cx, cy := a.Unzoom(input.Point{X: vx, Y: vy})
	if err := pagejs.AwaitPointStable(ctx, a.w, cx, cy, pagejs.ActionDeadline(ctx)); err != nil {
		return input.Point{}, ViewOK, err
	}
	return input.Point{X: vx, Y: vy}, ViewOK, nil
}
