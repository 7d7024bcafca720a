package operator

import (
	"context"
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// OperatorCapture returns a PNG of the surface's viewport
// (browser_screenshot) as an image block, with its width and height.
func (Handler) OperatorCapture(ctx context.Context, a *operator.OperatorCaptureArgs) (*operator.OperatorCaptureFacts, surface.Outcome) {
	r := child(ctx, "browser_screenshot", a.SurfaceID, map[string]any{})
	if failed(r) {
		return nil, refused("operator_capture", r)
	}
	f := &operator.OperatorCaptureFacts{}
	if sf, ok := r.Facts.(*surface.BrowserScreenshotFacts); ok {
		f.Width, f.Height = sf.Width, sf.Height
	}
	return f, surface.Outcome{RepeatSafe: true, Readiness: r.Envelope.Readiness, Image: r.Image,
		Summary:   fmt.Sprintf("Captured the surface: a %dx%d image.", f.Width, f.Height),
		NextSteps: []string{"Call operator_perceive for target refs to act on."}}
}
