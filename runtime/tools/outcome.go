package tools

import (
	"context"
	"net/url"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
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

// title bounds a page title for facts, cleaned as a sentence would carry it
// (no bidi, zero-width or control characters).
func title(s string) string {
	return bounded(language.Clean(s), surface.TitleCharsMax)
}

func bounded(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// governPage is a page's URL and title as a result may carry them: a page
// outside the call's authority keeps only its origin, and its title is
// withheld (withheld reports that). Tab lists, diagnose and perception use it.
func governPage(ctx context.Context, rawURL, pageTitle string) (u, t string, withheld bool) {
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil || rawURL == "" || rawURL == "about:blank" || inv.Authority.AdmitURL(rawURL) == nil {
		return governedURL(rawURL), title(pageTitle), false
	}
	return governedURL(governance.Origin(rawURL)), "", true
}

// withheldNote says that some URLs and titles a result would name were cut
// to their origin.
func withheldNote(ctx context.Context, n int, what string) {
	if inv := pipeline.FromContext(ctx); inv != nil && n > 0 {
		inv.Note(language.Withheld(what, n))
	}
}

// governLanding is where a navigation-like call landed, as facts may carry
// it: outside the call's authority (a redirect, a history entry) only the
// origin is kept, the title is withheld, and the summary says so.
func governLanding(ctx context.Context, rawURL, pageTitle string) (string, string) {
	inv := pipeline.FromContext(ctx)
	if inv == nil || rawURL == "" || rawURL == "about:blank" || inv.Authority.AdmitURL(rawURL) == nil {
		return governedURL(rawURL), title(pageTitle)
	}
	origin := governance.Origin(rawURL)
	inv.Note(language.LandedOutside(language.Host(origin)))
	return governedURL(origin), ""
}

// refused is the outcome of a refusal with no effect.
func refused(r *surface.Refusal) surface.Outcome {
	return surface.Outcome{Effect: surface.EffectNone, Refusal: r}
}
