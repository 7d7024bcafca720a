package language

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestRoleIsClosed(t *testing.T) {
	for raw, want := range map[string]surface.Role{"button": surface.RoleButton, "img": surface.RoleImage, "BUTTON": surface.RoleButton, "treegrid-weird": surface.RoleControl, "": surface.RoleControl, "contentinfo": surface.RoleFooter} {
		if got := Role(raw); got != want {
			t.Errorf("Role(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestNameBound(t *testing.T) {
	long := strings.Repeat("é", 200)
	n := Name("  Save \n\t changes  " + long)
	if got := utf8.RuneCountInString(n); got > surface.TargetNameCharsMax {
		t.Fatalf("name has %d characters, bound %d", got, surface.TargetNameCharsMax)
	}
	if !strings.HasPrefix(n, "Save changes é") {
		t.Fatalf("name not normalized: %q", n)
	}
	// A combining mark is never separated from its base at the cut.
	comb := strings.Repeat("e\u0301", 100)
	c := Name(comb)
	if r, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(c, "…")); r != '\u0301' {
		t.Fatalf("cut split a combining mark from its base: %q", c)
	}
}

func TestElement(t *testing.T) {
	if got := Bounded(Say(Element(surface.RoleButton, "Save", true))).Summary; got != `the "Save" button` {
		t.Errorf("got %s", got)
	}
	if got := Element(surface.RoleImage, "x", false); got != "an image" {
		t.Errorf("got %s", got)
	}
}

// TestRefusalsAreWordedAndBounded words every reason and holds every sentence
// to the envelope bounds; a named host or count equals the refusal's fact.
func TestRefusalsAreWordedAndBounded(t *testing.T) {
	for _, reason := range surface.ReasonValues {
		r := &surface.Refusal{Reason: reason, Host: "example.com", Candidates: 3, Capability: surface.CapabilityExecute, Pointer: "/x", Message: "x must be at most 3", Limit: "8000", Browsers: []string{"Chromium"}}
		txt := Bounded(Refusal("browser_click", r))
		if txt.Summary == "" {
			t.Errorf("%s: empty summary", reason)
		}
		if utf8.RuneCountInString(txt.Summary) > surface.SummaryCharsMax || len(txt.NextSteps) > surface.NextStepsMax {
			t.Errorf("%s: text beyond bounds", reason)
		}
		switch reason {
		case surface.ReasonHostDenied:
			if !strings.Contains(txt.Summary, r.Host) {
				t.Errorf("host sentence does not name the host fact: %s", txt.Summary)
			}
		case surface.ReasonTargetAmbiguous:
			if !strings.Contains(txt.Summary, "3 controls") {
				t.Errorf("count sentence does not carry the candidates fact: %s", txt.Summary)
			}
		case surface.ReasonBrowserStartupManual:
			if len(txt.NextSteps) != 0 || !strings.Contains(txt.Summary, "Chromium") {
				t.Errorf("startup refusal must hold the whole recovery in its summary: %+v", txt)
			}
			if strings.Contains(strings.ToLower(txt.Summary), "decline") {
				t.Errorf("startup refusal says Ghostlight declined to choose: %s", txt.Summary)
			}
		}
	}
}
