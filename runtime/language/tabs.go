package language

import (
	"fmt"
	"strings"
)

// Sentences of browser_tabs and of a relaunched browser. The handles a
// sentence names are the facts'.

// RelaunchNote is said once, by the first call after the browser had to be
// started again.
const RelaunchNote = "The browser had stopped and was relaunched; earlier tabs closed."

// TabFocused words a focus.
func TabFocused(tab string) Text { return Say(fmt.Sprintf("Focused %s.", tab)) }

// TabClosed words a close, or a tab that was closed already.
func TabClosed(tab string, closed bool) Text {
	if !closed {
		return Say(fmt.Sprintf("%s was already closed; nothing to do.", tab))
	}
	return Say(fmt.Sprintf("Closed %s.", tab))
}

// TabsListed words a listing: listed of all this session's tabs, and the
// crashed ones (the first three by handle).
func TabsListed(listed, all int, crashed []string) Text {
	if listed == 0 {
		return Say("This session controls no tab.", "Open one with browser_navigate.")
	}
	s := fmt.Sprintf("Listed %s.", Plural(listed, "tab", "tabs")) // this session's, all of them
	if all > listed {
		verb := "are"
		if listed == 1 {
			verb = "is"
		}
		s = fmt.Sprintf("This session controls %d tabs; the first %d %s listed.", all, listed, verb)
	}
	if len(crashed) == 0 {
		return Say(s)
	}
	// A crashed tab is listed with readiness unknown; its handle still works.
	names := strings.Join(crashed[:min(len(crashed), 3)], ", ")
	if len(crashed) > 3 {
		names += fmt.Sprintf(" and %d more", len(crashed)-3)
	}
	s += fmt.Sprintf(" The page of %s crashed.", names)
	return Say(s, "Call browser_navigate with a crashed tab's handle to reload it, or close it with browser_tabs.")
}
