package action

import (
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

func TestPlaceMoved(t *testing.T) {
	at := pagejs.Place{Parent: 3, Index: 1, Box: pagejs.Box{X: 10, Y: 20, Width: 100, Height: 30}}
	nudged := at
	nudged.Box.X += 0.8 // sub-pixel jitter is not a move
	moved := at
	moved.Box.Y += 1.5
	for _, c := range []struct {
		name  string
		after pagejs.Place
		want  bool
	}{
		{"same place", at, false},
		{"under a pixel", nudged, false},
		{"box moved", moved, true},
		{"gone", pagejs.Place{Gone: true}, true},
		{"other parent", pagejs.Place{Parent: 4, Index: 1, Box: at.Box}, true},
		{"other index", pagejs.Place{Parent: 3, Index: 2, Box: at.Box}, true},
	} {
		if got := placeMoved(at, c.after); got != c.want {
			t.Errorf("%s: moved %v, want %v", c.name, got, c.want)
		}
	}
}
