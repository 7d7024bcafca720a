package language

import "fmt"

// Sentences of browser_navigate. The host a sentence names is the facts'
// URL's; the counts of what still loads are the landing's.

// NavigatingTo is the progress a client sees while a navigation runs.
func NavigatingTo(url string) string { return "Navigating to " + Host(url) }

// Navigated words a navigation's landing on url: a reused tab, a closed tab
// reopened under tab, a new tab, or the tab moved.
func Navigated(url, tab string, reused, recreated, created bool) Text {
	host := Host(url)
	var s string
	switch {
	case reused:
		s = fmt.Sprintf("Reused the %s tab", host)
	case recreated:
		s = fmt.Sprintf("Reopened %s in a new tab under %s, because its tab had closed", host, tab)
	case created:
		s = fmt.Sprintf("Opened %s", host)
	default:
		s = fmt.Sprintf("Navigated to %s", host) // the tab is in the facts
	}
	// No next step: inspecting or finding is what a model does next anyway,
	// and a receipt that says so on every navigation pays for it each time.
	return Say(s + ".")
}

// StillLoading adds to a receipt that its page was still loading at the
// call's bound, and points at the wait for it.
func StillLoading(t Text) Text {
	return Say(t.Summary+" The page was still loading when the call's time ran out.",
		`Call browser_wait with {"condition":"load_ready"} before acting on the page.`)
}

// StillFetching adds to a receipt that its page is interactive but its load
// event is still pending at the call's bound, naming what still loads
// (images and frames; neither counted: "some of its resources").
func StillFetching(t Text, images, frames int) Text {
	what := "some of its resources are"
	switch {
	case images > 0 && frames > 0:
		what = Plural(images, "image", "images") + " and " + Plural(frames, "frame", "frames") + " are"
	case images > 0:
		what = Plural(images, "image", "images") + isAre(images)
	case frames > 0:
		what = Plural(frames, "frame", "frames") + isAre(frames)
	}
	return Say(t.Summary+" The page is interactive, but "+what+" still loading.", t.NextSteps...)
}

func isAre(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}
