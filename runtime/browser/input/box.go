package input

import "github.com/ghostlight-dev/ghostlight/runtime/browser/actionable"

// Box is a rectangle in top-viewport CSS pixels: the one the actionability
// decision samples (runtime/browser/actionable, a leaf both this package and
// the page code import), so a drag's layout looks compare like its samples.
type Box = actionable.Box
