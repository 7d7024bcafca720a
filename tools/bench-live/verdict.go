package main

import (
	"fmt"
	"time"
)

// tolerance is the bound: a step is as fast as it can be when it
// takes at most 1.5 times what the browser needs for it.
const tolerance = 1.5

// verdict says whether a step is within tolerance of its floor, or else
// whether the browser itself is the floor: Ghostlight either takes at most
// tolerance times the same calls at their smallest, or it waits on DevTools
// for at least 1/tolerance of the step (its own work is the rest) and its
// calls take at most tolerance times those same calls (they are not more
// than the work needs).
func verdict(ghost, floor, same, wire time.Duration) string {
	if float64(ghost) <= tolerance*float64(floor) {
		return "within 1.5x"
	}
	if same <= 0 {
		return "over 1.5x"
	}
	if float64(ghost) <= tolerance*float64(same) {
		return "the browser is the floor: within 1.5x of the same calls"
	}
	if wire > 0 && float64(ghost) <= tolerance*float64(wire) && float64(wire) <= tolerance*float64(same) {
		return fmt.Sprintf("the browser is the floor: %.0f%% of the step waits on DevTools, whose calls take %.2fx the same calls",
			100*float64(wire)/float64(ghost), float64(wire)/float64(same))
	}
	return "over 1.5x"
}
