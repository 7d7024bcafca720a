package tools

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// done is a successful outcome.
func done(t language.Text, readiness string, effect surface.Effect, repeatSafe bool) surface.Outcome {
	return surface.Outcome{Status: surface.StatusSucceeded, Effect: effect, Readiness: readinessOf(readiness), RepeatSafe: repeatSafe, Summary: t.Summary, NextSteps: t.NextSteps}
}

func readinessOf(s string) surface.Readiness {
	switch s {
	case "loading":
		return surface.ReadinessLoading
	case "interactive":
		return surface.ReadinessInteractive
	case "complete":
		return surface.ReadinessComplete
	case "":
		return surface.ReadinessNotApplicable
	}
	return surface.ReadinessUnknown
}

// governedURL is the URL facts may carry: no credentials, no fragment,
// bounded.
func governedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return bounded(raw, surface.URLCharsMax)
	}
	u.User = nil
	u.Fragment = ""
	return bounded(u.String(), surface.URLCharsMax)
}

// title bounds a page title for facts.
func title(s string) string {
	return bounded(strings.Join(strings.Fields(s), " "), surface.TitleCharsMax)
}

func bounded(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
