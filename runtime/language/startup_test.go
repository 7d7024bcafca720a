package language

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestStartupRefusalsHoldTheWholeInstruction: every startup refusal puts the whole
// recovery in its summary (no next steps), names browsers by product name with the
// command that opens each, fits the summary bound with every product named, and
// never says that Ghostlight declined to choose.
func TestStartupRefusalsHoldTheWholeInstruction(t *testing.T) {
	all := []string{"Chromium", "Google Chrome", "Chrome for Testing", "Microsoft Edge", "Brave"}
	cases := []struct {
		msg      string
		browsers []string
		want     []string
	}{
		{StartupOpen, []string{"Chromium"}, []string{"open Chromium prepared for Ghostlight", "`ghostlight open chromium`", "repeat the call"}},
		{StartupOpen, []string{"Google Chrome"}, []string{"open Google Chrome", "`ghostlight open \"google chrome\"`"}},
		{StartupOpen, all, []string{"one of Chromium, Google Chrome, Chrome for Testing, Microsoft Edge or Brave", "`ghostlight open` with its name", "repeat the call"}},
		{StartupInstall, []string{"Chromium"}, []string{"Chromium is installed but not prepared", "`ghostlight install`", "`ghostlight open chromium`"}},
		{StartupInstall, all, []string{"(Chromium, Google Chrome, Chrome for Testing, Microsoft Edge, Brave)", "`ghostlight install`", "repeat the call"}},
		{StartupGetBrowser, nil, []string{"install Chromium or Google Chrome, then repeat the call"}},
		{StartupGetBrowserOpen, nil, []string{"`ghostlight install`", "`ghostlight open`"}},
	}
	for _, c := range cases {
		r := &surface.Refusal{Reason: surface.ReasonBrowserStartupManual, Message: c.msg, Browsers: c.browsers}
		if len(c.browsers) == 1 {
			r.Browser = c.browsers[0]
		}
		txt := Bounded(Refusal("browser_navigate", r))
		if len(txt.NextSteps) != 0 {
			t.Errorf("%q %v: next steps %v", c.msg, c.browsers, txt.NextSteps)
		}
		if n := utf8.RuneCountInString(txt.Summary); n > surface.SummaryCharsMax || strings.HasSuffix(txt.Summary, "…") {
			t.Errorf("%q %v: summary cut or past the bound (%d): %s", c.msg, c.browsers, n, txt.Summary)
		}
		for _, w := range c.want {
			if !strings.Contains(txt.Summary, w) {
				t.Errorf("%q %v: summary lacks %q: %s", c.msg, c.browsers, w, txt.Summary)
			}
		}
		low := strings.ToLower(txt.Summary)
		if strings.Contains(low, "decline") || strings.Contains(low, "choose") || strings.Contains(txt.Summary, "/") {
			t.Errorf("%q %v: %s", c.msg, c.browsers, txt.Summary)
		}
	}
}

func TestOwnedElsewhereAndUnreachableEndpoint(t *testing.T) {
	txt := Bounded(Refusal("browser_tabs", &surface.Refusal{Reason: surface.ReasonNativeHostOwnedElsewhere}))
	if txt.Summary != "Another Ghostlight installation owns the browser registration." || len(txt.NextSteps) != 1 ||
		!strings.Contains(txt.NextSteps[0], "`ghostlight install` from the installation that should own the browsers") {
		t.Fatalf("%+v", txt)
	}
	txt = Bounded(Refusal("browser_tabs", &surface.Refusal{Reason: surface.ReasonBrowserUnavailable, Endpoint: "127.0.0.2:9333",
		Message: "dial tcp 127.0.0.2:9333: connect: connection refused"}))
	if txt.Summary != "The DevTools endpoint 127.0.0.2:9333 could not be reached: dial tcp 127.0.0.2:9333: connect: connection refused." ||
		len(txt.NextSteps) != 1 || strings.Contains(txt.NextSteps[0], "9222") || strings.Contains(txt.NextSteps[0], "relaunch") {
		t.Fatalf("%+v", txt)
	}
}
