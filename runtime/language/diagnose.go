package language

import "fmt"

// Sentences of browser_diagnose. The count a summary names is the number of
// entries in the facts beside it; evidence text itself is never quoted.

const (
	stepDiagnoseReproduce = "Reproduce the problem or reload the page (browser_history reload), then call browser_diagnose again."
	stepDiagnoseMore      = "Call browser_diagnose with after set to next_cursor for the entries that wait."
	stepDiagnoseAll       = `Call browser_diagnose with detail "all" to see ordinary console events and successful requests too.`
)

// Diagnosed words a diagnose read: how many entries it returned from which
// tab, whether more wait, and whether observation only started now.
func Diagnosed(tab, detail string, entries int, truncated, started bool, evicted, withheld int) Text {
	noun := Plural(entries, "problem", "problems")
	if detail == "all" {
		noun = Plural(entries, "entry", "entries")
	}
	if started {
		return Say(fmt.Sprintf("Started observing the console and network of %s now, with %s so far; earlier evidence is not available.", tab, noun), stepDiagnoseReproduce)
	}
	s := fmt.Sprintf("Found %s in the console and network of %s", noun, tab)
	if truncated {
		s += "; more wait"
	}
	if withheld > 0 {
		s += fmt.Sprintf("; %s withheld by host policy", Plural(withheld, "request", "requests"))
	}
	if evicted > 0 {
		s += fmt.Sprintf("; %s evicted by the buffer bound", Plural(evicted, "older entry was", "older entries were"))
	}
	s += "."
	switch {
	case truncated:
		return Say(s, stepDiagnoseMore)
	case entries == 0 && detail != "all":
		return Say(s, stepDiagnoseReproduce, stepDiagnoseAll)
	}
	return Say(s)
}
