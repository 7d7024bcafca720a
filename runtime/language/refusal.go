package language

import (
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

const (
	stepPolicy   = "Call policy_explain to see what this session may do."
	stepInspect  = "Call browser_inspect or browser_find for fresh targets."
	stepTabsList = `Call browser_tabs with {"action":"list"} and pass one tab handle.`
	stepDialog   = "Call browser_dialog to see the dialog, then accept, dismiss or respond."
)

// Refusal words a refusal. The sentence names only values the refusal's own
// facts carry (host, capability, pointer, counts).
func Refusal(tool string, r *surface.Refusal) Text {
	msg := strings.TrimSuffix(r.Message, ".")
	switch r.Reason {
	case surface.ReasonInvalidArguments:
		field := strings.TrimPrefix(r.Pointer, "/")
		if field == "" {
			return Say(fmt.Sprintf("%s refused its arguments: %s.", tool, msg), "Correct the arguments and call "+tool+" again.")
		}
		return Say(fmt.Sprintf("%s refused %s: %s.", tool, r.Pointer, msg), "Correct "+field+" and call "+tool+" again.")
	case surface.ReasonCapabilityDenied:
		return Say(fmt.Sprintf("%s needs the %s capability, which is not allowed here (%s).", tool, r.Capability, msg), stepPolicy)
	case surface.ReasonHostDenied:
		return Say(fmt.Sprintf("%s may not reach %s (%s).", tool, hostOr(r.Host), msg), stepPolicy)
	case surface.ReasonConstraintDenied:
		return Say(fmt.Sprintf("%s is not allowed: %s.", tool, msg), stepPolicy)
	case surface.ReasonStaleTarget:
		return Say("That target belongs to a page that has changed since it was inspected.", stepInspect)
	case surface.ReasonStaleView:
		return Say("That view no longer matches the page: it navigated, scrolled, resized or zoomed since the screenshot.", "Call browser_screenshot and use the new view.")
	case surface.ReasonNoTab:
		return Say("No tab is controlled yet.", "Open one with browser_navigate.")
	case surface.ReasonAmbiguousTab:
		return Say("Several tabs are controlled and none was named.", stepTabsList)
	case surface.ReasonUnknownTab:
		return Say("That tab handle is not one of this session's tabs.", stepTabsList)
	case surface.ReasonBrowserStartupManual:
		return startupManual(r)
	case surface.ReasonNativeHostOwnedElsewhere:
		return Say("Another Ghostlight installation owns the browser registration.", "Ask the user to run `ghostlight install` from the installation that should own the browsers.")
	case surface.ReasonBrowserUnavailable:
		return Say(fmt.Sprintf("The browser could not be reached: %s.", msg), "Call "+tool+" again; Ghostlight relaunches the browser.")
	case surface.ReasonCredentialHandoff:
		return Say(fmt.Sprintf("%s is a credential field, so Ghostlight typed nothing. Ask the user to fill it in the visible browser.", capitalize(msg)), "When the user says it is done, continue with the next step.")
	case surface.ReasonTimeout:
		return Say(fmt.Sprintf("%s did not finish within %s ms.", tool, r.Limit), "Check the page with browser_read or browser_screenshot before acting again.")
	case surface.ReasonDialogBlocking:
		return Say(fmt.Sprintf("A %s dialog is blocking the tab.", dialogOr(r.DialogType)), stepDialog)
	case surface.ReasonNoDialog:
		return Say("No dialog is open on that tab.")
	case surface.ReasonBeforeunload:
		return Say("The page asked to keep unsaved changes, so the navigation was stopped and the prompt dismissed.", `Repeat with "beforeunload":"discard" to leave anyway.`)
	case surface.ReasonNoHistoryEntry:
		return Say(fmt.Sprintf("There is no page to go %s to.", msg))
	case surface.ReasonTargetNotFound:
		return Say("No control on the page matches that selector.", "Call browser_find with the text you expect to see.")
	case surface.ReasonTargetAmbiguous:
		return Say(fmt.Sprintf("%s match that selector.", Plural(r.Candidates, "control", "controls")), `Add "role" or "exact":true, or pick a target from browser_find.`)
	case surface.ReasonTargetObscured:
		return Say(fmt.Sprintf("The target is covered by %s.", msg), "Close what covers it, or call browser_scroll to reveal the target.")
	case surface.ReasonTargetHidden:
		return Say("The target is not visible on the page.", stepInspect)
	case surface.ReasonTargetDisabled:
		return Say("The target is disabled.", stepInspect)
	case surface.ReasonRegionOutside:
		return Say(fmt.Sprintf("That rectangle is not inside the view: %s.", msg), "Choose coordinates within the view's image.")
	case surface.ReasonNotSupported:
		return Say(fmt.Sprintf("%s is not supported here: %s.", tool, msg))
	}
	if msg == "" {
		msg = strings.ReplaceAll(string(r.Reason), "_", " ")
	}
	return Say(fmt.Sprintf("%s failed: %s.", tool, msg))
}

// startupManual puts the whole recovery in the summary; next steps stay empty.
func startupManual(r *surface.Refusal) Text {
	if len(r.Browsers) == 0 {
		return Say("No browser is connected and none is installed that Ghostlight can start. Ask the user to install Chromium or Chrome, start it with --remote-debugging-port=9222, and repeat the call.")
	}
	which := r.Browser
	if which == "" {
		which = "one of " + strings.Join(r.Browsers, ", ")
	}
	return Say(fmt.Sprintf("No browser is connected and startup is left to the user. Ask the user to open %s with --remote-debugging-port=9222 (Ghostlight connects to it), then repeat the call.", which))
}

func hostOr(h string) string {
	if h == "" {
		return "that page"
	}
	return h
}

func dialogOr(d string) string {
	if d == "" {
		return "JavaScript"
	}
	return d
}

func capitalize(s string) string {
	if s == "" {
		return "The target"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
