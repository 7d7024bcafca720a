package pagejs

import (
	"context"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/actionable"
)

// PressWatch guards a click's releases for the main-document element the
// click was meant for (js/release.js, actionable.DecideRelease): after each
// press it looks at the point, once per animation frame, until the target
// is under it again; a cover the press did not bring up that stays
// click_release_hold_frames frames does not get the release. It implements
// input.PressGuard.
type PressWatch struct {
	w        *World
	id       int
	x, y     float64 // top-viewport CSS px: the point located
	deadline time.Time
}

// WatchPress watches presses at (x, y) meant for element id (nil when id
// is not of the main document: an out-of-process frame's clicks are
// watched by input's frame sync instead).
func WatchPress(w *World, id int, x, y float64, deadline time.Time) *PressWatch {
	if w == nil || !w.Local(id) {
		return nil
	}
	return &PressWatch{w: w, id: id, x: x, y: y, deadline: deadline}
}

// Arm starts noting what is added to the document: call it before the press.
func (p *PressWatch) Arm(ctx context.Context) error {
	var ok bool
	return p.w.invokeLocal(ctx, "pressArm", mustJSON(struct{}{}), &ok)
}

type releaseLook struct {
	Hit       bool   `json:"hit"`
	Fresh     bool   `json:"fresh"`
	Beneath   bool   `json:"beneath"`
	CoverRole string `json:"coverRole"`
	CoverName string `json:"coverName"`
}

// BeforeRelease returns once the release may go out (nil), or with a
// KindObscured error naming the cover once the release must not reach it;
// the page then swallows that release and its click. A look that fails (the
// press navigated, the page is busy past the deadline) lets the release go:
// the press has happened, and only the page's own answer can say more.
func (p *PressWatch) BeforeRelease(ctx context.Context) error {
	req := mustJSON(map[string]any{"id": p.id, "x": p.x, "y": p.y, "nameMax": p.w.Limits().NameMax})
	start := time.Now()
	for frame := 0; ; frame++ {
		var l releaseLook
		if err := p.w.invokeLocal(ctx, "releaseSample", req, &l); err != nil {
			return nil
		}
		v := actionable.DecideRelease(actionable.ReleaseSample{Frame: frame, Hit: l.Hit, Fresh: l.Fresh, Beneath: l.Beneath},
			limits.ClickReleaseHoldFrames, !time.Now().Before(p.deadline))
		switch v {
		case actionable.Release:
			return nil
		case actionable.Withhold:
			var ok bool
			if err := p.w.invokeLocal(ctx, "releaseWithhold", mustJSON(map[string]any{"id": p.id, "ms": limits.ClickWithholdMs}), &ok); err != nil {
				return nil // no guard in place: the release goes out as a person's would
			}
			return &Error{Kind: KindObscured, Op: "click", Role: l.CoverRole, Name: l.CoverName, Waited: time.Since(start),
				Detail: "after the press, another element came over the point and stayed: the release was withheld, and nothing was clicked"}
		}
		if err := p.w.AwaitFrame(ctx); err != nil {
			return nil
		}
	}
}
