package emit

import (
	"regexp"
	"strconv"
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

// TestAlternationNumberRun: F1 to F12 in order become character classes
// with the same language.
func TestAlternationNumberRun(t *testing.T) {
	var names []string
	for i := 1; i <= 12; i++ {
		names = append(names, "F"+strconv.Itoa(i))
	}
	got := alternation(append(names, "Alt"))
	if want := "F([1-9]|1[0-2])|Alt"; got != want {
		t.Fatalf("alternation = %q, want %q", got, want)
	}
	re := regexp.MustCompile("^(" + got + ")$")
	for _, n := range names {
		if !re.MatchString(n) {
			t.Errorf("%q does not match", n)
		}
	}
	for _, n := range []string{"F", "F0", "F13", "F19", "F01", "F1F2", "F100"} {
		if re.MatchString(n) {
			t.Errorf("%q matches", n)
		}
	}
}
