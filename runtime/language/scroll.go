package language

import "fmt"

// Sentences of browser_scroll. The offsets a receipt names are the facts'
// scroll_x and scroll_y.

// NothingScrolled ends a wheel receipt that moved nothing.
const NothingScrolled = "Nothing scrolled."

// Revealed is a reveal receipt's verb and object: "Scrolled" obj "into
// view", or "Found" obj "already in view".
func Revealed(obj string, scrolled bool) (verb, object string) {
	if scrolled {
		return "Scrolled", obj + " into view"
	}
	return "Found", obj + " already in view"
}

// ScrolledBy is a scroll-by receipt's verb: what moved (the page, or the
// scrolling pane when container), which way and by how much, or that there
// was no room.
func ScrolledBy(container bool, direction, amount string, scrolled bool) string {
	what := "the page"
	if container {
		what = "the scrolling pane"
	}
	if scrolled {
		return fmt.Sprintf("Scrolled %s %s by a %s step", what, direction, amount)
	}
	return fmt.Sprintf("Found no room to scroll %s %s", what, direction)
}

// Wheeled is a wheel receipt's verb: "Turned the wheel 3 ticks down at".
func Wheeled(ticks int, up bool) string {
	dir := "down"
	if up {
		dir = "up"
	}
	return fmt.Sprintf("Turned the wheel %s %s at", Plural(ticks, "tick", "ticks"), dir)
}

// ScrollPosition ends a scroll receipt: the offsets after it.
func ScrollPosition(x, y int) string { return fmt.Sprintf("Scroll position: x %d, y %d.", x, y) }
