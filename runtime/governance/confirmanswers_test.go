package governance

import (
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestConfirmAnswers: an approval once runs once on its document; an
// approval for the page runs every action on that document only; a refusal
// is said once.
func TestConfirmAnswers(t *testing.T) {
	var c ConfirmAnswers
	if v := c.Decide("tab", "k", 1); v != ConfirmAsk {
		t.Fatalf("no answer: %v", v)
	}
	c.Answer("tab", "k", 1, AnswerOnce)
	if v := c.Decide("tab", "k", 1); v != ConfirmRun {
		t.Fatalf("once: %v", v)
	}
	if v := c.Decide("tab", "k", 1); v != ConfirmAsk {
		t.Fatalf("once used up: %v", v)
	}
	c.Answer("tab", "k", 1, AnswerOnce)
	if v := c.Decide("tab", "k", 2); v != ConfirmAsk {
		t.Fatalf("once on another document: %v", v)
	}
	c.Answer("tab", "k", 3, AnswerPage)
	if c.Decide("tab", "k", 3) != ConfirmRun || c.Decide("tab", "other", 3) != ConfirmRun || c.Decide("tab", "k", 4) != ConfirmAsk {
		t.Fatal("page approval: runs on its document only")
	}
	c.Answer("tab", "r", 5, AnswerRefuse)
	if c.Decide("tab", "r", 5) != ConfirmRefused || c.Decide("tab", "r", 5) != ConfirmAsk {
		t.Fatal("refusal: said once")
	}
	if c.Decide("other-tab", "k", 3) != ConfirmAsk {
		t.Fatal("answers are per tab")
	}
}

// TestShown: a page the authority reaches is shown whole; another keeps only
// its origin.
func TestShown(t *testing.T) {
	a := New("auto", "test", Layer{Name: "configuration", Caps: surface.CapRead, Hosts: []string{"example.com"}})
	if u, w := a.Shown("https://example.com/a?q=1"); w || u != "https://example.com/a?q=1" {
		t.Fatalf("reached: %q %v", u, w)
	}
	if u, w := a.Shown("https://other.org/secret?q=1#f"); !w || u != "https://other.org/" {
		t.Fatalf("outside: %q %v", u, w)
	}
	var none *Authority
	if u, w := none.Shown("https://other.org/x"); w || u != "https://other.org/x" {
		t.Fatalf("nil authority: %q %v", u, w)
	}
}
