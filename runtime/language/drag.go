package language

import (
	"fmt"
	"math"
)

// DragTail is a drag receipt's last sentence: where the drag was released (top-viewport
// CSS px) and, when the dragged element is known, whether the page moved it.
func DragTail(x, y float64, known, moved bool) string {
	at := fmt.Sprintf("Released at (%d, %d)", int(math.Round(x)), int(math.Round(y)))
	switch {
	case !known:
		return at + "."
	case moved:
		return at + "; the page moved the dragged element."
	}
	return at + "; the page did not move the dragged element."
}

// DragPoints is a point drag's object: "from (10, 20) to (30, 40) in view_1".
func DragPoints(startX, startY, endX, endY int, view string) string {
	return fmt.Sprintf("from (%d, %d) to (%d, %d) in %s", startX, startY, endX, endY, view)
}

// Onto is a target drag's object: its source onto its destination.
func Onto(source, destination string) string { return source + " onto " + destination }
