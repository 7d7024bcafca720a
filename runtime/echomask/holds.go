package echomask

import (
	"strings"
)

// A page-side text query (browser_find, a wait on text, a selector by name)
// is answered by the page on its own text, secret and all: left as it is,
// "Card 41", then "Card 411", ... would tell by match or no match what the
// mask hides. In a session where the person typed a secret the page gives
// back the text each match was made on (a Haystack), and the match counts
// only if it still holds on that text masked: the answer the page would give
// if it showed what the model sees.

// Haystack is the text a page-side match was made on: the whole text when it
// fit the page's bound (query_haystack_chars), else windows of it around the
// query's occurrences.
type Haystack struct {
	// Whole is the text whole (whitespace-normalised, as the page matched it).
	Whole string
	// Near are windows around occurrences, each its parts in order: context
	// and matched characters alternating, context first and last (a match
	// is an odd index). A window reaches far enough either side that a
	// secret overlapping one of its matches lies inside it.
	Near [][]string
	// More: occurrences past the windows the page did not give back. They
	// are the page's answer: the match holds.
	More bool
}

// Holds reports whether a page-side match of query still holds on the text
// masked by mask, by the page's own rule: a case-insensitive substring of the
// whole text, whitespace-normalised; in a window, a match none of whose
// characters the mask covers. A Haystack that is empty holds nothing.
func Holds(mask func(string) (string, bool), query string, h Haystack) bool {
	if h.More {
		return true
	}
	if h.Whole != "" {
		masked, _ := mask(h.Whole)
		q := strings.ToLower(strings.Join(strings.Fields(query), " "))
		if q != "" && strings.Contains(strings.ToLower(masked), q) {
			return true
		}
	}
	for _, parts := range h.Near {
		if windowHolds(mask, parts) {
			return true
		}
	}
	return false
}

// windowHolds: some matched part of the window is unmasked. Masking keeps a
// text's length in characters, so each part is found by its rune offsets.
func windowHolds(mask func(string) (string, bool), parts []string) bool {
	masked, changed := mask(strings.Join(parts, ""))
	if !changed {
		for i := 1; i < len(parts); i += 2 {
			if parts[i] != "" {
				return true
			}
		}
		return false
	}
	rs := []rune(masked)
	at := 0
	for i, p := range parts {
		pr := []rune(p)
		if i%2 == 1 && len(pr) > 0 && at+len(pr) <= len(rs) && same(rs[at:at+len(pr)], pr) {
			return true
		}
		at += len(pr)
	}
	return false
}

func same(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Contains reports whether query is a substring of text masked (the exact,
// case-sensitive rule of a URL's match).
func Contains(mask func(string) (string, bool), text, query string) bool {
	masked, _ := mask(text)
	return strings.Contains(masked, query)
}
