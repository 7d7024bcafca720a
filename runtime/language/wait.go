package language

import (
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Sentences of browser_wait. The milliseconds a sentence names are the
// facts' elapsed_ms or the call's bound.

// waitHeld says what held, for the receipt, by condition.
var waitHeld = map[string]string{
	surface.BrowserWaitBranchLoadReady:       "The page finished loading",
	surface.BrowserWaitBranchURLContains:     "The URL contained the text",
	surface.BrowserWaitBranchTextPresent:     "The text was on the page",
	surface.BrowserWaitBranchTextAbsent:      "The text was not on the page",
	surface.BrowserWaitBranchTargetPresent:   "The target was present",
	surface.BrowserWaitBranchTargetAbsent:    "The target was gone",
	surface.BrowserWaitBranchSelectorPresent: "A control matching the selector was present",
}

// WaitStage is the progress a client sees while a wait runs.
func WaitStage(condition string, limitMs int) string {
	return fmt.Sprintf("Waiting for %s, at most %d ms", condition, limitMs)
}

// WaitHeld words a condition that held.
func WaitHeld(condition string, elapsedMs int) Text {
	return Say(fmt.Sprintf("%s after %d ms.", waitHeld[condition], elapsedMs))
}

// Waited words a plain duration waited on the page at url.
func Waited(elapsedMs int, url string) Text {
	return Say(fmt.Sprintf("Waited %d ms on %s.", elapsedMs, Host(url)))
}

// WaitTimedOut words a condition that did not hold within the bound.
func WaitTimedOut(condition string, limitMs int) Text {
	return Say(fmt.Sprintf("The %s condition did not hold within %d ms.", condition, limitMs),
		"Check the page with browser_read or browser_screenshot, then wait again or act.")
}
