package language

import (
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Sentences of the perception and view tools (history, window, read,
// inspect, find, screenshot). Every number a sentence names is passed in
// from the facts beside it and printed as plain digits, so the summary and
// the facts carry the same value.

const (
	stepScreenshotAgain = "Call browser_screenshot for a view of the current geometry; older views are stale."
	stepActOnTargets    = "Act on a target by its handle, or call browser_find to locate a named control."
)

// Moved words a history move: where the tab landed.
func Moved(action, tab, url string) Text {
	host := Host(url)
	var s string
	switch action {
	case "back":
		s = fmt.Sprintf("Went back in %s to %s.", tab, host)
	case "forward":
		s = fmt.Sprintf("Went forward in %s to %s.", tab, host)
	default:
		s = fmt.Sprintf("Reloaded %s on %s.", tab, host)
	}
	return Say(s, "Call browser_inspect or browser_find to get targets on the page.")
}

// DialogAfter adds to a receipt that a dialog now blocks the page; the
// next step is the only way on.
func DialogAfter(t Text, dialogType string) Text {
	d := dialogOr(dialogType)
	return Say(fmt.Sprintf("%s %s %s dialog is blocking the page.", t.Summary, capitalize(article(d)), d), stepDialog)
}

// Zoomed words a zoom: the observed zoom and viewport.
func Zoomed(tab string, zoom, viewportW, viewportH int) Text {
	return Say(fmt.Sprintf("Set the zoom of %s to %d%%; its viewport is now %dx%d CSS px.", tab, zoom, viewportW, viewportH), stepScreenshotAgain)
}

// Resized words a window resize: what was asked and what was observed,
// which a window manager or screen may have bounded.
func Resized(tab string, wantW, wantH, gotW, gotH, viewportW, viewportH int) Text {
	s := fmt.Sprintf("Resized the window of %s to %dx%d; its viewport is now %dx%d CSS px.", tab, gotW, gotH, viewportW, viewportH)
	if wantW != gotW || wantH != gotH {
		s = fmt.Sprintf("Asked for a %dx%d window for %s; the browser made it %dx%d, with a %dx%d CSS px viewport.", wantW, wantH, tab, gotW, gotH, viewportW, viewportH)
	}
	return Say(s, stepScreenshotAgain)
}

// ReadDone words a read: how many characters of which source, and whether
// they were cut.
func ReadDone(url, mode string, chars int, truncated bool) Text {
	src := map[string]string{surface.BrowserReadModeArticle: "article text", surface.BrowserReadModeVisible: "visible text", "target": "the target's text"}[mode]
	if src == "" {
		src = "text"
	}
	if chars == 0 {
		what := "The page on " + Host(url)
		if mode == "target" {
			what = "The target on " + Host(url)
		}
		return Say(what+" holds no visible text.", "Call browser_screenshot to see it, or browser_inspect for its controls.")
	}
	s := fmt.Sprintf("Read %s of %s from %s.", Plural(chars, "character", "characters"), src, Host(url))
	if truncated {
		return Say(strings.TrimSuffix(s, ".")+", cut at max_chars.", "Call browser_read with a larger max_chars, or read one target.")
	}
	return Say(s)
}

// Inspected words a control, structure or "all" inspect.
func Inspected(url, scope string, listed, total int, truncated bool) Text {
	noun := map[string][2]string{surface.BrowserInspectScopeControls: {"control", "controls"}, surface.BrowserInspectScopeStructure: {"structural element", "structural elements"}}[scope]
	if noun[0] == "" {
		noun = [2]string{"element", "elements"}
	}
	host := Host(url)
	switch {
	case total == 0:
		return Say(fmt.Sprintf("%s shows no visible %s.", capitalize(host), noun[1]), "Call browser_read for its text or browser_screenshot to see it.")
	case truncated:
		return Say(fmt.Sprintf("%s shows %s; the first %d are listed.", capitalize(host), Plural(total, noun[0], noun[1]), listed),
			"Call browser_find with a control's text to reach one that is not listed.")
	}
	// Every item is listed with its handle: acting on one needs no advice.
	return Say(fmt.Sprintf("%s shows %s, all listed.", capitalize(host), Plural(total, noun[0], noun[1])))
}

// Snapshotted words a document-scope inspect: the tree, its snapshot and
// the change since the prior one.
func Snapshotted(url, snapshot string, nodes, total int, truncated, depthCut bool, prev string, added, removed, changed int) Text {
	s := fmt.Sprintf("Recorded %s of %s as %s", Plural(nodes, "structural node", "structural nodes"), Host(url), snapshot)
	if truncated {
		s += fmt.Sprintf(" (%d in all within max_depth)", total)
	}
	s += "."
	if prev != "" {
		if added+removed+changed == 0 {
			s += fmt.Sprintf(" No structural change since %s.", prev)
		} else {
			s += fmt.Sprintf(" Since %s: %d added, %d removed, %d changed.", prev, added, removed, changed)
		}
	}
	switch {
	case truncated:
		return Say(s, "Pass a node as root to inspect one part of the document.")
	case depthCut:
		return Say(s+" Deeper structure exists.", "Raise max_depth or pass a node as root to see deeper structure.")
	}
	return Say(s)
}

// FoundMatches words a find: how many matches the page holds and how many
// are listed.
func FoundMatches(url, text string, listed, total int) Text {
	q := Name(text)
	host := Host(url)
	switch {
	case total == 0:
		return Say(fmt.Sprintf("Nothing on %s matches %q.", host, q), "Try other words, or call browser_inspect to list the controls.")
	case listed < total:
		return Say(fmt.Sprintf("Found %s for %q on %s; the best %d are listed.", Plural(total, "match", "matches"), q, host, listed), stepActOnTargets)
	}
	return Say(fmt.Sprintf("Found %s for %q on %s.", Plural(total, "match", "matches"), q, host), stepActOnTargets)
}

// Captured words a screenshot: what was captured, its size and its view.
func Captured(kind, url string, width, height, bytes int, mime, view string) Text {
	what := map[string]string{"viewport": "the viewport of", "full_page": "the full page of", "target": "the target on", "region": "a region of the view of"}[kind]
	if what == "" {
		what = "a capture of"
	}
	format := strings.ToUpper(strings.TrimPrefix(mime, "image/"))
	return Say(fmt.Sprintf("Captured %s %s as a %dx%d %s image (%d bytes) under %s.", what, Host(url), width, height, format, bytes, view),
		fmt.Sprintf("Use %s coordinates for browser_click, or capture a region of %s to magnify it.", view, view))
}
