package outcome

import (
	"context"
	"net/url"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Done is a successful outcome.
func Done(t language.Text, readiness string, effect surface.Effect, repeatSafe bool) surface.Outcome {
	return surface.Outcome{Status: surface.StatusSucceeded, Effect: effect, Readiness: Readiness(readiness), RepeatSafe: repeatSafe, Summary: t.Summary, NextSteps: t.NextSteps}
}

// Readiness is the envelope readiness of a document.readyState ("" none).
func Readiness(s string) surface.Readiness {
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

// URL is the URL facts may carry: no credentials, no fragment,
// bounded.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return bounded(raw, surface.URLCharsMax)
	}
	u.User = nil
	u.Fragment = ""
	return bounded(u.String(), surface.URLCharsMax)
}

// Title bounds a page title for facts, cleaned as a sentence would carry it
// (no bidi, zero-width or control characters).
func Title(s string) string {
	return bounded(language.Clean(s), surface.TitleCharsMax)
}

func bounded(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// Page is a page's URL and title as a result may carry them: a page
// outside the call's authority keeps only its origin, and its title is
// withheld (withheld reports that). Tab lists, diagnose and perception use it.
func Page(ctx context.Context, rawURL, pageTitle string) (u, t string, withheld bool) {
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil || rawURL == "" || rawURL == "about:blank" || inv.Authority.AdmitURL(rawURL) == nil {
		return URL(rawURL), Title(pageTitle), false
	}
	return URL(governance.Origin(rawURL)), "", true
}

// Withheld says that some URLs and titles a result would name were cut
// to their origin.
func Withheld(ctx context.Context, n int, what string) {
	if inv := pipeline.FromContext(ctx); inv != nil && n > 0 {
		inv.Note(language.Withheld(what, n))
	}
}

// Landing is where a navigation-like call landed, as facts may carry
// it: outside the call's authority (a redirect, a history entry) only the
// origin is kept, the title is withheld, and the summary says so.
func Landing(ctx context.Context, rawURL, pageTitle string) (string, string) {
	inv := pipeline.FromContext(ctx)
	if inv == nil || rawURL == "" || rawURL == "about:blank" || inv.Authority.AdmitURL(rawURL) == nil {
		return URL(rawURL), Title(pageTitle)
	}
	origin := governance.Origin(rawURL)
	inv.Note(language.LandedOutside(language.Host(origin)))
	return URL(origin), ""
}

// Refused is the outcome of a refusal with no effect.
func Refused(r *surface.Refusal) surface.Outcome {
	return surface.Outcome{Effect: surface.EffectNone, Refusal: r}
}

// Timeout is a call's timeout_ms, the spec default when unset.
func Timeout(ms int) int {
	if ms <= 0 {
		return surface.TimeoutMsDefault
	}
	return ms
}
