package tools

import (
	"context"
	"errors"
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// refusalFor maps an executor error to the closed refusal it means. Messages
// never carry page content or field values.
func refusalFor(err error, timeoutMs int) *surface.Refusal {
	if err == nil {
		return nil
	}
	timeout := &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(timeoutMs)}
	var be *browser.Error
	if errors.As(err, &be) {
		r := &surface.Refusal{Tab: be.Tab}
		switch be.Kind {
		case browser.KindStartupManual:
			r.Reason = surface.ReasonBrowserStartupManual
			for _, b := range be.Browsers {
				r.Browsers = append(r.Browsers, b.String())
			}
			if len(r.Browsers) == 1 {
				r.Browser = r.Browsers[0]
			}
		case browser.KindLaunchFailed, browser.KindBrowserGone, browser.KindClosed:
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
				r.DialogType = be.Dialog.Type
			}
		case browser.KindNoHistoryEntry:
			r.Reason = surface.ReasonNoHistoryEntry
		case browser.KindTimeout:
			timeout.Tab = be.Tab
			return timeout
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
				if pe.Name != "" {
					r.Message += " named " + strconv.Quote(pe.Name)
				}
			}
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

// refused is the outcome of a refusal with no effect.
func refused(r *surface.Refusal) surface.Outcome {
	return surface.Outcome{Effect: surface.EffectNone, Refusal: r}
}
