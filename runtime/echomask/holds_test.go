package echomask

import (
	"strings"
	"testing"
)

// A query the page matched only inside the secret no longer holds; one that
// still matches the text with the secret masked does.
func TestHoldsOnTheMaskedText(t *testing.T) {
	s := New(testLimits)
	s.Put(1, "4111111111111111")
	whole := "Card 4111 1111 1111 1111 ships to Berlin"
	for _, c := range []struct {
		query string
		want  bool
	}{
		{"Card 41", false},   // the oracle's first step
		{"card 4111", false}, // case and all
		{"4111", false},
		{"1111 1111", false},
		{"Card", true}, // the name holds it outside the secret
		{"CARD", true},
		{"card  ", true},  // whitespace-normalised, as the page matched
		{"card\n*", true}, // what the model sees: the mask's stars
		{"ships   to berlin", true},
		{"Berlin", true},
		{"1111 ships", false}, // straddles the secret's end
	} {
		if got := Holds(s.Mask, c.query, Haystack{Whole: whole}); got != c.want {
			t.Errorf("Holds(%q) = %v, want %v", c.query, got, c.want)
		}
	}
	if !Holds(noMask, "Card 41", Haystack{Whole: whole}) {
		t.Error("with nothing masked the page's answer stands")
	}
	if Holds(s.Mask, "Card", Haystack{}) {
		t.Error("an empty haystack holds a match")
	}
}

// Windows: a match holds where none of its characters is masked; the
// secret around it lies in the window, so the mask finds it whole.
func TestHoldsInWindows(t *testing.T) {
	s := New(testLimits)
	s.Put(1, "4111111111111111")
	pad := strings.Repeat("x", 40)
	inSecret := []string{pad + " Card 4", "111", " 1111 1111 1111 " + pad}
	outside := []string{pad + " ref ", "4111", "-9 " + pad}
	twice := []string{"Card 4", "111", " 1111 1111 1111 and ", "4111", "-9"}
	for _, c := range []struct {
		name string
		h    Haystack
		want bool
	}{
		{"the match inside the secret", Haystack{Near: [][]string{inSecret}}, false},
		{"a match outside it", Haystack{Near: [][]string{outside}}, true},
		{"one window of each", Haystack{Near: [][]string{inSecret, outside}}, true},
		{"two matches in one window, one outside", Haystack{Near: [][]string{twice}}, true},
		{"two matches in one window, both inside", Haystack{Near: [][]string{{"Card 4", "111", " 1111 ", "1111", " 1111"}}}, false},
		{"a whole name that is the match", Haystack{Near: [][]string{{"", "Pay 4111 1111 1111 1111", ""}}}, false},
		{"a whole name with nothing masked", Haystack{Near: [][]string{{"", "Pay now", ""}}}, true},
		{"occurrences past the windows: the page's answer", Haystack{Near: [][]string{inSecret}, More: true}, true},
		{"multi-byte context", Haystack{Near: [][]string{{"ünï ✓ Card 4", "111", " 1111 1111 1111 ✓ ünï"}}}, false},
	} {
		if got := Holds(s.Mask, "4111", c.h); got != c.want {
			t.Errorf("%s: Holds = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestContainsOnTheMaskedURL(t *testing.T) {
	s := New(testLimits)
	s.Put(1, "4111111111111111")
	u := "http://127.0.0.1/pay?n=4111111111111111&step=2"
	for q, want := range map[string]bool{"4111": false, "n=41": false, "step=2": true, "/pay?n=": true, "STEP": false} {
		if got := Contains(s.Mask, u, q); got != want {
			t.Errorf("Contains(%q) = %v, want %v", q, got, want)
		}
	}
}

func noMask(s string) (string, bool) { return s, false }

// BenchmarkHolds: judging a find's matches in a masked session. worst: 16
// secrets of 16 lengths, 50 matches each of query_haystack_chars (4096)
// characters; typical: one card number, 20 names of 40 characters.
func BenchmarkHolds(b *testing.B) {
	worst := New(Limits{Kept: 16, MinChars: 6, Chars: 256})
	for i := range 16 {
		worst.Put(uint64(i), strings.Repeat(string(rune('a'+i)), 8+i))
	}
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 92)[:4096]
	typical := New(Limits{Kept: 16, MinChars: 6, Chars: 256})
	typical.Put(1, "4111111111111111")
	name := "Card ending 4111 1111 1111 1111, expires"
	for _, c := range []struct {
		name string
		s    *Set
		text string
		n    int
	}{{"worst", worst, long, 50}, {"typical", typical, name, 20}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for range c.n {
					Holds(c.s.Mask, "lazy dog", Haystack{Whole: c.text})
				}
			}
		})
	}
}
