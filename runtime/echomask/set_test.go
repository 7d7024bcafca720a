package echomask

import (
	"strings"
	"testing"
)

var testLimits = Limits{Kept: 3, MinChars: 6, Chars: 16}

func TestMaskEchoes(t *testing.T) {
	s := New(testLimits)
	s.Put(1, "4242424242424242")
	s.Put(2, "hunter2-Secret")
	for _, c := range []struct{ in, want string }{
		{"Card 4242 4242 4242 4242 ready", "Card ******************* ready"},
		{"Card 4242-4242-4242-4242", "Card *******************"},
		{"password: hunter2Secret!", "password: *************!"},
		{"password: hunter2-Secret", "password: **************"},
		{"ending 4242", "ending 4242"},           // a part is not the secret
		{"4242424242424243", "4242424242424243"}, // one digit off
		{"HUNTER2SECRET", "HUNTER2SECRET"},       // case counts
		{"a 4242424242424242 b 4242424242424242", "a **************** b ****************"},
		{"ünï 4242424242424242 ✓", "ünï **************** ✓"}, // multi-byte around
	} {
		got, masked := s.Mask(c.in)
		if got != c.want || masked != (c.in != c.want) {
			t.Errorf("Mask(%q) = %q, %v; want %q", c.in, got, masked, c.want)
		}
		if len([]rune(got)) != len([]rune(c.in)) {
			t.Errorf("Mask(%q) changed the length in characters", c.in)
		}
	}
}

// A run's later keys replace its earlier state: what was typed before a
// backspace is not a secret of its own.
func TestPutReplacesTheRun(t *testing.T) {
	s := New(testLimits)
	s.Put(7, "abcdefX")
	s.Put(7, "abcdef")
	if got, _ := s.Mask("abcdefX"); got != "******X" {
		t.Fatalf("got %q", got)
	}
	s.Put(7, "abc") // below MinChars: forgotten
	if !s.Empty() {
		t.Fatal("a run shorter than MinChars is kept")
	}
}

func TestKeptIsBounded(t *testing.T) {
	s := New(testLimits)
	for i, v := range []string{"first-secret", "second-secret", "third-secret", "fourth-secret"} {
		s.Put(uint64(i), v)
	}
	if got, masked := s.Mask("firstsecret"); masked {
		t.Fatalf("the oldest outlived the bound: %q", got)
	}
	if got, _ := s.Mask("fourthsecret"); got != strings.Repeat("*", 12) {
		t.Fatalf("the newest: %q", got)
	}
}

// A secret longer than Chars is remembered over its first Chars characters.
func TestLongSecretMaskedOverItsStart(t *testing.T) {
	s := New(testLimits)
	s.Put(1, "0123456789abcdefXYZ")
	if got, _ := s.Mask("0123456789abcdefXYZ"); got != strings.Repeat("*", 16)+"XYZ" {
		t.Fatalf("got %q", got)
	}
}

// Two sets never share a seed: a hash means nothing outside its set.
func TestSeedsDiffer(t *testing.T) {
	a, b := New(testLimits), New(testLimits)
	a.Put(1, "same-secret")
	b.Put(1, "same-secret")
	if a.entries[0].h == b.entries[0].h {
		t.Fatal("two sets hashed alike")
	}
}

func BenchmarkMaskRead(b *testing.B) {
	s := New(Limits{Kept: 16, MinChars: 6, Chars: 256})
	for i := range 16 {
		s.Put(uint64(i), strings.Repeat(string(rune('a'+i)), 8+i))
	}
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 2000) // 90 KB
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s.Mask(text)
	}
}
