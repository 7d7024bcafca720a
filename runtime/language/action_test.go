package language

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestActionReceipts(t *testing.T) {
	el := &Acted{Role: "button", Name: "Save"}
	for _, c := range []struct {
		a    Act
		want string
	}{
		{Act{Verb: "Clicked", Object: Target(el, true), Host: "example.com"}, `Clicked the "Save" button on example.com.`},
		{Act{Verb: "Clicked", Object: Target(el, false), Host: "example.com"}, `Clicked a button on example.com.`},
		{Act{Verb: "Clicked", Object: At(3, 4, "view_1"), Host: "a.test", Landing: "https://b.test/x", LandingTitle: "Next"},
			`Clicked (3, 4) in view_1 on a.test; the tab landed on b.test ("Next").`},
		{Act{Verb: "Pressed Enter", Host: "a.test", Opened: []string{"tab_2"}, Dialog: "confirm"},
			`Pressed Enter on a.test. It opened tab_2, now controlled. A confirm dialog opened and is blocking the page.`},
	} {
		if got := Bounded(Say(Action(c.a))).Summary; got != c.want {
			t.Errorf("Action(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
	steps := ActionSteps(Act{Dialog: "alert", Landing: "https://b.test/", Opened: []string{"tab_9"}})
	if len(steps) != surface.NextStepsMax || !strings.Contains(steps[0], "browser_dialog") {
		t.Fatalf("steps: %v", steps)
	}
	for _, tx := range []Text{ActionUnknown("browser_click", "the click", "500"), ActionPartial("browser_fill_form", "Filled 1 field on a.test.", &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/fields/1/value", Message: "bad"})} {
		for _, s := range append(tx.NextSteps, tx.Summary) {
			if strings.Contains(s, "call browser_") && strings.Contains(s, "again") {
				t.Fatalf("an unknown or partial result suggests replay: %q", s)
			}
		}
	}
}

// TestActionVerbs: the verbs the click, key press and form fill receipts
// begin with.
func TestActionVerbs(t *testing.T) {
	for got, want := range map[string]string{
		Clicked(surface.BrowserClickButtonPrimary, 1):   "Clicked",
		Clicked(surface.BrowserClickButtonPrimary, 2):   "Double-clicked",
		Clicked(surface.BrowserClickButtonSecondary, 1): "Right-clicked",
		Clicked(surface.BrowserClickButtonMiddle, 3):    "Middle-triple-clicked",
		Pressed("Enter", 1, false):                      "Pressed Enter",
		Pressed("Control+a", 3, true):                   "Pressed Control+a 3 times in",
		Filled(1, 0):                                    "Filled 1 field",
		Filled(1, 3):                                    "Filled 1 field of 3",
		FilledAndClicked(2):                             "Filled 2 fields and clicked",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
