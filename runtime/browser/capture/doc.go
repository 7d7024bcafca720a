// Package capture owns screenshots and the geometry of views.
//
// A View binds the pixels of one captured image to the tab geometry that
// was current when it was taken (document generation, scroll origin,
// viewport size, device scale, zoom) and carries the affine transform from
// image pixels to CSS page pixels. Coordinate input goes image px -> CSS
// page px (ToCSS) -> CSS viewport px (ToViewport) and is refused when the
// view's Binding is no longer current (StaleReason / Current).
//
// Facts about Chromium this package relies on (measured on Chromium 156):
//   - Page.captureScreenshot clip rectangles are CSS page (document)
//     coordinates; the output is round(clip size * clip.scale * DPR) pixels
//     and output pixel i starts exactly at clip.X + i/(clip.scale*DPR),
//     whatever the fractional parts.
//   - A clip outside the visual viewport renders blank unless
//     captureBeyondViewport is set, and every captureBeyondViewport capture
//     fires a resize event in the page and leaves the tab's scrollbars
//     hidden. Beyond-viewport capture is therefore used only when the clip
//     is not wholly visible, and Shot.BeyondViewport reports it.
//   - Page.getLayoutMetrics reports CSS geometry but not the device scale
//     factor (its device-pixel fields equal the CSS ones), so the device
//     pixel ratio is read with one Runtime.evaluate sent concurrently, and
//     cross-checked against the dimensions of every captured image.
//   - A dispatched mouse point p is hit-tested as the 1x1 CSS px square
//     starting at p, so ToViewport snaps to the top-left corner of the CSS
//     pixel that contains the image point.
//   - Under Emulation.setDeviceMetricsOverride with a `scale` (how
//     runtime/browser emulates zoom), Input.dispatchMouseEvent takes
//     unscaled window px, i.e. CSS viewport px times that scale; ReadBinding
//     records it as Binding.InputScale from rod's per-session call state.
//   - While a JavaScript dialog is open every call here blocks until ctx
//     expires (getLayoutMetrics and captureScreenshot included).
//
// The package knows nothing of MCP; it works on a *rod.Page and takes every
// bound (longest edge, byte ceiling) as a parameter.
package capture
