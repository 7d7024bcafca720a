package emit

import (
	"regexp"
	"testing"
)

// TestAlternation: grouping by stem keeps the language of the plain
// alternation: every name matches, and no stem, prefix or join of two does.
func TestAlternation(t *testing.T) {
	names := []string{"Enter", "Tab", "ArrowUp", "ArrowDown", "Page", "PageUp", "F1", "F2", "F10", "F12", "Alt"}
	got := alternation(names)
	if want := "Enter|Tab|Arrow(Up|Down)|Page(|Up)|F(1|2|10|12)|Alt"; got != want {
		t.Fatalf("alternation = %q, want %q", got, want)
	}
	re := regexp.MustCompile("^(" + got + ")$")
	for _, n := range names {
		if !re.MatchString(n) {
			t.Errorf("%q does not match", n)
		}
	}
	for _, n := range []string{"Arrow", "F", "F11", "F3", "Up", "ArrowUpDown", "PageDown", "EnterTab", "F1F2", ""} {
		if re.MatchString(n) {
			t.Errorf("%q matches", n)
		}
	}
}
