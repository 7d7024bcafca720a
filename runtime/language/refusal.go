package language

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

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
	case surface.ReasonUnknownHandle:
		switch r.Pointer {
		case "/view", "/source_image":
			return Say("That view handle was not issued by this session.", "Call browser_screenshot and use its view.")
		}
		return Say("That handle was not issued by this session.", stepInspect)
	case surface.ReasonUnknownTab:
		return Say("That tab handle is not one of this session's tabs.", stepTabsList)
	case surface.ReasonBrowserStartupManual:
		return startupManual(r)
	case surface.ReasonNativeHostOwnedElsewhere:
		return Say("Another Ghostlight installation owns the browser registration.", "Ask the user to run `ghostlight install` from the installation that should own the browsers.")
	case surface.ReasonBrowserUnavailable:
		if r.Endpoint != "" { // the person's configured endpoint: say which, and why
			return Say(fmt.Sprintf("The DevTools endpoint %s could not be reached: %s.", r.Endpoint, msg),
				fmt.Sprintf("Ask the user to start the browser with DevTools at %s, or to correct the configured endpoint, then repeat the call.", r.Endpoint))
		}
		if r.Browser != "" { // a launch failed: retrying starts the same failing browser
			return Say(fmt.Sprintf("%s could not start: %s.", capitalize(r.Browser), msg),
				`Ask the user to read the "browser launch failed" line in Ghostlight's log (stderr), fix what it names, then repeat the call.`)
		}
		return Say(fmt.Sprintf("The browser could not be reached: %s.", msg), "Call "+tool+" again; Ghostlight relaunches the browser.")
	case surface.ReasonCredentialHandoff:
		if tool == "browser_execute" || tool == "browser_screenshot" { // no field: the person's credential is in the page
			return credentialHeld(tool, r) // handoff.go
		}
		return credentialHandoff(r, msg) // handoff.go
	case surface.ReasonTimeout:
		if msg != "" { // a bound other than the call's own (a flow's ceiling)
			return Say(fmt.Sprintf("%s did not run: %s.", tool, msg), "Check the page with browser_read or browser_screenshot before acting again.")
		}
		return Say(fmt.Sprintf("%s did not finish within %s ms.", tool, r.Limit), "Check the page with browser_read or browser_screenshot before acting again.")
	case surface.ReasonDialogBlocking:
		d := dialogOr(string(r.DialogType))
		return Say(fmt.Sprintf("%s %s dialog is blocking the tab.", capitalize(article(d)), d), stepDialog)
	case surface.ReasonNoDialog:
		return Say("No dialog is open on that tab.")
	case surface.ReasonBeforeunload:
		return Say("The page asked to keep unsaved changes, so the navigation was stopped and the prompt dismissed.", `Repeat with "beforeunload":"discard" to leave anyway.`)
	case surface.ReasonNoHistoryEntry:
		return Say(fmt.Sprintf("There is no page to go %s to.", msg))
	case surface.ReasonTargetNotFound:
		if msg != "" { // how long an action looked for it
			return Say(fmt.Sprintf("No control on the page matches that selector, %s.", msg), "Call browser_find with the text you expect to see.")
		}
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
	case surface.ReasonBusy:
		return Say(fmt.Sprintf("%s did not run: this session already has %s calls in flight, the most it may have.", tool, r.Limit), "Wait for an earlier call to answer, or cancel one, then call "+tool+" again.")
	case surface.ReasonTabCrashed:
		return Say("The page in that tab crashed (its renderer died, for example out of memory); nothing more can run on it.", "Call browser_navigate with that tab handle and a URL to reload it in a fresh tab.")
	case surface.ReasonTabLimit:
		return Say(fmt.Sprintf("This session already controls %s tabs, the most it may, so no tab was opened.", r.Limit), "Close a tab with browser_tabs, or navigate one of the open tabs instead.")
	case surface.ReasonPathDenied:
		return Say(fmt.Sprintf("%s may not read %s: %s.", tool, r.Pointer, msg), "Ask the user to put the file inside a directory uploads may read, or call policy_explain.")
	case surface.ReasonDataFlowDenied:
		if f := r.DataFlow; f != nil {
			return Say(fmt.Sprintf("%s was not run: the value carries %d characters of text from %s, and the %s layer denies carrying text from one site to another (%s).", tool, f.Chars, f.From, f.Layer, f.To),
				"Write only what the user gave you for this site, or ask the user to allow this flow in the policy.", stepPolicy)
		}
		return Say(fmt.Sprintf("%s was not run: %s.", tool, msg), stepPolicy)
	case surface.ReasonDataFlowConfirm:
		return flowConfirm(tool, r) // handoff.go
	case surface.ReasonOtherReplica:
		// The router sends a request to the replica its tab or target header
		// names while that replica answers; otherwise anywhere.
		return Say(fmt.Sprintf("That handle belongs to replica %s, which holds its tab, and this request reached another replica: either it named no tab or target for the router to read, or replica %s did not answer.", r.Replica, r.Replica),
			fmt.Sprintf("Repeat the call naming its tab, so the router sends it to replica %s.", r.Replica),
			fmt.Sprintf("If replica %s is gone, its tabs went with it: call browser_navigate without a tab to open a new one.", r.Replica))
	case surface.ReasonActionConfirm:
		return actionConfirm(tool, r) // handoff.go
	case surface.ReasonNotSupported:
		return Say(fmt.Sprintf("%s is not supported here: %s.", tool, msg))
	}
	if msg == "" {
		msg = strings.ReplaceAll(string(r.Reason), "_", " ")
	}
	return Say(fmt.Sprintf("%s failed: %s.", tool, msg))
}

// What the person does first when startup is left to them (Refusal.Message of
// browser_startup_manual; the executor's remedy).
const (
	StartupOpen           = ""                 // open one of the browsers, prepared for Ghostlight
	StartupInstall        = "install"          // prepare the installed browsers, then open one
	StartupGetBrowser     = "get-browser"      // install a browser; Ghostlight launches it
	StartupGetBrowserOpen = "get-browser-open" // install a browser, prepare it, open it
)

// startupManual puts the whole recovery in the summary; next steps stay empty. It
// names browsers by product name and commands, never paths, and never says that
// Ghostlight declined to choose: the person chooses by opening one.
func startupManual(r *surface.Refusal) Text {
	const none = "No browser is connected and no Chromium-family browser is installed. Ask the user to install Chromium or Google Chrome"
	switch {
	case r.Message == StartupGetBrowser || len(r.Browsers) == 0 && r.Message != StartupGetBrowserOpen:
		return Say(none + ", then repeat the call.")
	case r.Message == StartupGetBrowserOpen:
		return Say(none + ", run `ghostlight install`, then open it with `ghostlight open` and its name, and repeat the call.")
	}
	example := openCommand(r.Browsers[0])
	if r.Message == StartupInstall {
		if len(r.Browsers) == 1 {
			return Say(fmt.Sprintf("No browser is connected, and %s is installed but not prepared for Ghostlight. Ask the user to run `ghostlight install`, then `%s`, and repeat the call.", r.Browsers[0], example))
		}
		return Say(fmt.Sprintf("No browser is connected, and none of the installed browsers (%s) is prepared for Ghostlight. Ask the user to run `ghostlight install`, then open one of them with `ghostlight open` and its name (e.g. `%s`), and repeat the call.", strings.Join(r.Browsers, ", "), example))
	}
	if len(r.Browsers) == 1 {
		return Say(fmt.Sprintf("No browser is connected and startup is left to the user. Ask the user to open %s prepared for Ghostlight, by running `%s`, then repeat the call.", r.Browsers[0], example))
	}
	return Say(fmt.Sprintf("No browser is connected and startup is left to the user. Ask the user to open one of %s prepared for Ghostlight, by running `ghostlight open` with its name (e.g. `%s`), then repeat the call.", orList(r.Browsers), example))
}

// openCommand is the command that opens a browser by its product name.
func openCommand(product string) string {
	name := strings.ToLower(product)
	if strings.ContainsRune(name, ' ') {
		name = `"` + name + `"`
	}
	return "ghostlight open " + name
}

// orList is "A", "A or B", "A, B or C".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
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
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
