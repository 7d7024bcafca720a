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
