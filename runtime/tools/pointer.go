package tools

import "github.com/ghostlight-dev/ghostlight/generated/surface"

// locator names the argument that locates an element, for refusals: the
// selector field when the call gave a selector, else the target field.
// Target fields and their selector twins are exclusive (the decoder
// refuses both), so one of them at most is set.
func locator(sel *surface.Selector, targetField, selectorField string) string {
	if sel != nil {
		return selectorField
	}
	return targetField
}
