package language

import (
	"fmt"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Stateless says how the client of a call keeps its tabs when it has no
// protocol session (MCP 2026-07-28 over HTTP): they belong to its principal,
// the bearer token (runtime/mcpedge/stateless.go), and the principal's
// workspace is released after an idle bound.
type Stateless struct {
	On bool
	// ReleasedIdle, when not 0, is the idle bound after which this
	// principal's earlier workspace, its tabs and handles, was released.
	ReleasedIdle time.Duration
}

// The next step of a stateless client that named no tab: the handle it was
// given, not another tab opened in vain.
const stepPassTab = `Pass "tab": the handle in facts.tab of your browser_navigate result (navigate first if you have none).`

// RefusalOver words a refusal for the client's transport: a stateless
// client's missing or unknown tab or handle is told what to pass, and that
// idle tabs were released when they were; everything else as Refusal.
func RefusalOver(tool string, r *surface.Refusal, st Stateless) Text {
	if !st.On {
		return Refusal(tool, r)
	}
	released := ""
	if st.ReleasedIdle > 0 {
		released = fmt.Sprintf("this client's tabs were released after %s without a call", idleWords(st.ReleasedIdle))
	}
	switch r.Reason {
	case surface.ReasonNoTab:
		if released != "" {
			return Say(capitalize(released)+", so no tab is open now; their tab, target and view handles no longer work.", "Call browser_navigate with the URL again and use the tab handle it returns.")
		}
		return Say("No tab of this client is open: calls without a session keep the tabs of their bearer token, and this one named none it controls.", stepPassTab)
	case surface.ReasonUnknownTab:
		if r.Message != "" { // that tab has closed: said as for any client
			return Refusal(tool, r)
		}
		if released != "" {
			return Say("That tab handle is not one of this client's tabs: "+released+".", "Call browser_navigate with the URL again and use the tab handle it returns.")
		}
		return Say("That tab handle is not one of this client's tabs: tabs belong to the bearer token that opened them.", stepTabsList)
	case surface.ReasonUnknownHandle:
		if released != "" {
			return Say("That handle is not one of this client's: "+released+".", "Call browser_navigate with the URL again, then browser_inspect for fresh targets.")
		}
	}
	return Refusal(tool, r)
}

// idleWords is an idle bound in words: whole minutes, else seconds.
func idleWords(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return Plural(int(d/time.Minute), "minute", "minutes")
	case d >= time.Second:
		return Plural(int(d/time.Second), "second", "seconds")
	}
	return Plural(int(d/time.Millisecond), "millisecond", "milliseconds")
}
