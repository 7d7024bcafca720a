package browser

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// kindRefusal is what one Kind means to the model: its closed reason and, when the
// Kind alone says it, the message.
type kindRefusal struct {
	reason  surface.Reason
	message string
}

// kindRefusals maps every Kind to its refusal (TestEveryKindRefuses keeps it whole).
var kindRefusals = map[Kind]kindRefusal{
	KindInternal:        {surface.ReasonInternal, "the browser returned an unexpected error"},
	KindStartupManual:   {reason: surface.ReasonBrowserStartupManual},
	KindLaunchFailed:    {reason: surface.ReasonBrowserUnavailable},
	KindBrowserGone:     {surface.ReasonBrowserUnavailable, "the browser stopped or could not start"},
	KindClosed:          {surface.ReasonBrowserUnavailable, "the browser stopped or could not start"},
	KindNoTab:           {reason: surface.ReasonNoTab},
	KindAmbiguousTab:    {reason: surface.ReasonAmbiguousTab},
	KindUnknownTab:      {reason: surface.ReasonUnknownTab},
	KindTabGone:         {surface.ReasonUnknownTab, "that tab has closed"},
	KindBeforeUnload:    {reason: surface.ReasonBeforeunload},
	KindDialogOpen:      {reason: surface.ReasonDialogBlocking},
	KindNoHistoryEntry:  {reason: surface.ReasonNoHistoryEntry},
	KindTimeout:         {reason: surface.ReasonTimeout},
	KindCanceled:        {surface.ReasonInternal, "the browser returned an unexpected error"},
	KindNavigation:      {reason: surface.ReasonNavigationFailed},
	KindInvalidArgument: {reason: surface.ReasonInvalidArguments},
	KindTabCrashed:      {reason: surface.ReasonTabCrashed},
	KindOwnedElsewhere:  {reason: surface.ReasonNativeHostOwnedElsewhere},
	KindUnreachable:     {reason: surface.ReasonBrowserUnavailable},
	KindHostDenied:      {reason: surface.ReasonHostDenied},
}

// Refusal is the closed refusal e means, with the facts the executor holds
// (tab, browsers, endpoint, dialog type, host and layer). timeoutMs is the
// call's deadline, the limit of a timeout. Messages never carry page content
// or field values; what only the language layer words (the remedy of a manual
// startup, the layer that denied a host) it adds through StartupRemedy and
// DeniedBy.
func (e *Error) Refusal(timeoutMs int) *surface.Refusal {
	rf, ok := kindRefusals[e.Kind]
	if !ok {
		rf = kindRefusals[KindInternal]
	}
	r := &surface.Refusal{Reason: rf.reason, Tab: e.Tab, Message: rf.message}
	switch e.Kind {
	case KindStartupManual:
		// Product names only: a model result never carries a filesystem path.
		for _, b := range e.Browsers {
			r.Browsers = append(r.Browsers, b.Name)
		}
		if len(r.Browsers) == 1 {
			r.Browser = r.Browsers[0]
		}
	case KindUnreachable:
		r.Endpoint = EndpointHost(e.Endpoint)
		r.Message = boundRunes(firstLine(e.Err), limits.MessageCharsMax)
	case KindLaunchFailed:
		r.Browser, r.Message = e.launchFailure()
	case KindDialogOpen:
		if e.Dialog != nil {
			r.DialogType = surface.DialogType(e.Dialog.Type)
		}
	case KindTimeout:
		r.Limit = strconv.Itoa(timeoutMs)
	case KindHostDenied:
		r.Host, r.Layer = e.Host, e.Layer
	case KindNavigation:
		r.Message = e.NetError
	case KindInvalidArgument:
		r.Message = e.Error()
	}
	return r
}

// StartupRemedy is what the person does first, for a KindStartupManual error.
func (e *Error) StartupRemedy() (Remedy, bool) {
	return e.Remedy, e.Kind == KindStartupManual
}

// DeniedBy is the policy layer whose host rules stopped a KindHostDenied
// navigation inside the browser ("" when no one layer did).
func (e *Error) DeniedBy() (layer string, ok bool) {
	return e.Layer, e.Kind == KindHostDenied
}

// launchFailure names the browser that would not start and why, in the
// executor's words (LaunchError.Cause: what a person can change).
func (e *Error) launchFailure() (who, why string) {
	who = "the browser"
	if len(e.Browsers) > 0 {
		who = e.Browsers[0].Name // never its path: the log line names that
	}
	why = "it started but did not answer over DevTools"
	var le *LaunchError
	if errors.As(e, &le) {
		why = le.Cause
	}
	return who, boundRunes(why, limits.MessageCharsMax)
}

// firstLine is the first line of err ("" for nil).
func firstLine(err error) string {
	if err == nil {
		return ""
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// boundRunes cuts s to n runes.
func boundRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
