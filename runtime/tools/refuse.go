package tools

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// refusalFor maps an executor error to the closed refusal it means. Messages
// never carry page content or field values.
func refusalFor(err error, timeoutMs int) *surface.Refusal {
	if err == nil {
		return nil
	}
	timeout := &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(timeoutMs)}
	// A crash or a dead browser under the call is the truth, whatever the page-side
	// error it surfaced as (a cancelled evaluation, a closed session).
	if gone := goneRefusal(err); gone != nil {
		return gone
	}
	var be *browser.Error
	if errors.As(err, &be) {
		r := &surface.Refusal{Tab: be.Tab}
		switch be.Kind {
		case browser.KindStartupManual:
			// Product names only: a model result never carries a filesystem path.
			r.Reason, r.Message = surface.ReasonBrowserStartupManual, startupRemedy[be.Remedy]
			for _, b := range be.Browsers {
				r.Browsers = append(r.Browsers, b.Name)
			}
			if len(r.Browsers) == 1 {
				r.Browser = r.Browsers[0]
			}
		case browser.KindOwnedElsewhere:
			r.Reason = surface.ReasonNativeHostOwnedElsewhere
		case browser.KindUnreachable:
			r.Reason, r.Endpoint = surface.ReasonBrowserUnavailable, browser.EndpointHost(be.Endpoint)
			r.Message = bounded(errLine(be.Err), surface.MessageCharsMax)
		case browser.KindTabCrashed:
			r.Reason = surface.ReasonTabCrashed
		case browser.KindLaunchFailed:
			r.Reason = surface.ReasonBrowserUnavailable
			r.Browser, r.Message = launchFailure(be)
		case browser.KindBrowserGone, browser.KindClosed:
			r.Reason, r.Message = surface.ReasonBrowserUnavailable, "the browser stopped or could not start"
		case browser.KindNoTab:
			r.Reason = surface.ReasonNoTab
		case browser.KindAmbiguousTab:
			r.Reason = surface.ReasonAmbiguousTab
		case browser.KindUnknownTab:
			r.Reason = surface.ReasonUnknownTab
		case browser.KindTabGone:
			r.Reason, r.Message = surface.ReasonUnknownTab, "that tab has closed"
		case browser.KindBeforeUnload:
			r.Reason = surface.ReasonBeforeunload
		case browser.KindDialogOpen:
			r.Reason = surface.ReasonDialogBlocking
			if be.Dialog != nil {
				r.DialogType = surface.DialogType(be.Dialog.Type)
			}
		case browser.KindNoHistoryEntry:
			r.Reason = surface.ReasonNoHistoryEntry
		case browser.KindTimeout:
			timeout.Tab = be.Tab
			return timeout
		case browser.KindHostDenied:
			// The host boundary failed the request inside the browser.
			r.Reason, r.Host, r.Layer = surface.ReasonHostDenied, be.Host, be.Layer
			r.Message = layerWords(be.Layer) + " stopped it before it left the browser; the tab stayed on its page"
		case browser.KindNavigation:
			r.Reason, r.Message = surface.ReasonNavigationFailed, be.NetError
		case browser.KindInvalidArgument:
			r.Reason, r.Message = surface.ReasonInvalidArguments, be.Error()
		default:
			r.Reason, r.Message = surface.ReasonInternal, "the browser returned an unexpected error"
		}
		return r
	}
	var pe *pagejs.Error
	if errors.As(err, &pe) {
		r := &surface.Refusal{Message: pe.Detail}
		switch pe.Kind {
		case pagejs.KindStale, pagejs.KindNavigated:
			r.Reason = surface.ReasonStaleTarget
		case pagejs.KindHidden:
			r.Reason = surface.ReasonTargetHidden
		case pagejs.KindObscured:
			r.Reason = surface.ReasonTargetObscured
			r.Message = "another element"
			if pe.Role != "" {
				r.Message = "a " + pe.Role
				if q := language.Quote(pe.Name); q != "" {
					r.Message += " named " + q
				}
			}
			r.Message += language.StillAfter(pe.Waited)
		case pagejs.KindUnstable:
			r.Reason = surface.ReasonTimeout
			r.Message = pe.Detail + language.StillAfter(pe.Waited)
		case pagejs.KindDisabled:
			r.Reason = surface.ReasonTargetDisabled
		case pagejs.KindReadOnly, pagejs.KindNotEditable, pagejs.KindNotFocusable:
			r.Reason = surface.ReasonNotEditable
		case pagejs.KindMismatch:
			r.Reason = surface.ReasonValueMismatch
		case pagejs.KindCredential:
			r.Reason = surface.ReasonCredentialHandoff
		case pagejs.KindNoMatch:
			r.Reason = surface.ReasonTargetNotFound
			r.Message = strings.TrimPrefix(language.StillAfter(pe.Waited), ", ") // a selector looked for until the deadline
		case pagejs.KindAmbiguous:
			r.Reason, r.Candidates = surface.ReasonTargetAmbiguous, pe.Count
		case pagejs.KindUnavailable:
			if errors.Is(err, context.DeadlineExceeded) {
				return timeout
			}
			r.Reason = surface.ReasonBrowserUnavailable
		default:
			r.Reason = surface.ReasonInternal
		}
		return r
	}
	var ce *capture.Error
	if errors.As(err, &ce) {
		switch ce.Kind {
		case capture.KindRegionEmpty, capture.KindRegionOutside:
			return &surface.Refusal{Reason: surface.ReasonRegionOutside, Message: ce.Error()}
		case capture.KindStale:
			return &surface.Refusal{Reason: surface.ReasonStaleView}
		case capture.KindClipEmpty:
			return &surface.Refusal{Reason: surface.ReasonTargetHidden}
		case capture.KindTooLong:
			return &surface.Refusal{Reason: surface.ReasonNotSupported, Limit: strconv.FormatFloat(ce.Limit, 'f', -1, 64),
				Message: fmt.Sprintf("a full page %.0f times as long as it is wide passes the %g:1 bound (full_page_aspect), so its image would be a sliver; capture the viewport after browser_scroll, or a target", ce.Got, ce.Limit)}
		}
	}
	var ie *input.Error
	if errors.As(err, &ie) {
		switch ie.Kind {
		case input.KindTimeout:
			return timeout
		case input.KindTargetClosed:
			return &surface.Refusal{Reason: surface.ReasonBrowserUnavailable, Message: "the tab closed"}
		case input.KindNoDialog:
			return &surface.Refusal{Reason: surface.ReasonNoDialog}
		case input.KindNavigated:
			return &surface.Refusal{Reason: surface.ReasonStaleTarget, Message: "the page navigated"}
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return timeout
	}
	if errors.Is(err, browser.ErrDialogOpened) || errors.Is(err, input.ErrDialogOpened) {
		return &surface.Refusal{Reason: surface.ReasonDialogBlocking}
	}
	return &surface.Refusal{Reason: surface.ReasonInternal, Message: "unexpected error"}
}

// launchFailure names the browser that would not start and why, in the executor's
// words (LaunchError.Cause: what a person can change, with the browser's own line).
func launchFailure(be *browser.Error) (who, why string) {
	who = "the browser"
	if len(be.Browsers) > 0 {
		who = be.Browsers[0].Name // never its path: the log line names that
	}
	why = "it started but did not answer over DevTools"
	var le *browser.LaunchError
	if errors.As(be, &le) {
		why = le.Cause
	}
	return who, bounded(why, surface.MessageCharsMax)
}

// startupRemedy words what the person does first, for language.Refusal.
var startupRemedy = map[browser.Remedy]string{
	browser.RemedyOpen:           language.StartupOpen,
	browser.RemedyInstall:        language.StartupInstall,
	browser.RemedyGetBrowser:     language.StartupGetBrowser,
	browser.RemedyGetBrowserOpen: language.StartupGetBrowserOpen,
}

// errLine is the first line of err ("" for nil).
func errLine(err error) string {
	if err == nil {
		return ""
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// goneRefusal is the refusal of a call whose tab crashed or whose browser went away
// under it (nil otherwise).
func goneRefusal(err error) *surface.Refusal {
	var be *browser.Error
	tab := ""
	if errors.As(err, &be) {
		tab = be.Tab
	}
	switch {
	case errors.Is(err, browser.ErrTabCrashed):
		return &surface.Refusal{Reason: surface.ReasonTabCrashed, Tab: tab}
	case errors.Is(err, browser.ErrBrowserGone), be != nil && be.Kind == browser.KindBrowserGone && be.Op != "start":
		return &surface.Refusal{Reason: surface.ReasonBrowserUnavailable, Tab: tab, Message: browserWentAway}
	}
	return nil
}

// browserWentAway says the browser ended under a call, not that the call's condition
// failed.
const browserWentAway = "the browser went away during the call"

// refused is the outcome of a refusal with no effect.
func refused(r *surface.Refusal) surface.Outcome {
	return surface.Outcome{Effect: surface.EffectNone, Refusal: r}
}
