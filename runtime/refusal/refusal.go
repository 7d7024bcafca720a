// Package refusal maps an executor error to the closed refusal it means:
// one errors.As on the executor packages' typed errors (each keeps its
// Kind -> reason table beside its errors, refusal.go there), and the words
// the executor leaves to this layer (a cover's quoted name, the time
// waited, the person's remedy, the denying layer). Messages never carry
// page content or field values.
package refusal

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// refuser is every executor package's *Error (browser, pagejs, input,
// capture): each maps its Kinds to refusals by a table beside its errors
// (refusal.go), which a test there keeps whole. Refusal is nil when the
// error's cause decides (a protocol call that failed because the deadline
// passed); timeoutMs is the call's deadline, the limit of a timeout.
type refuser interface {
	error
	Refusal(timeoutMs int) *surface.Refusal
}

// What an executor refusal leaves to this layer to word: the executor may
// not quote a page string or name a tool (each method's ok says whether the
// error's Kind has it).
type (
	coverer interface {
		Covering() (role, name string, ok bool)
	}
	waiter   interface{ StillWaiting() (time.Duration, bool) }
	remedied interface {
		StartupRemedy() (browser.Remedy, bool)
	}
	deniedBy interface {
		DeniedBy() (layer string, ok bool)
	}
	aspect interface {
		FullPageAspect() (got, limit float64, ok bool)
	}
)

// For maps an executor error to the closed refusal it means. Messages
// never carry page content or field values.
func For(err error, timeoutMs int) *surface.Refusal {
	if err == nil {
		return nil
	}
	// A crash or a dead browser under the call is the truth, whatever the page-side
	// error it surfaced as (a cancelled evaluation, a closed session).
	if gone := Gone(err); gone != nil {
		return gone
	}
	var re refuser
	if errors.As(err, &re) {
		if r := re.Refusal(timeoutMs); r != nil {
			worded(r, re)
			return r
		}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(timeoutMs)}
	case errors.Is(err, browser.ErrDialogOpened):
		return &surface.Refusal{Reason: surface.ReasonDialogBlocking}
	}
	return &surface.Refusal{Reason: surface.ReasonInternal, Message: language.MsgUnexpected}
}

// worded completes r's message with what the executor leaves to this layer.
func worded(r *surface.Refusal, e refuser) {
	if x, ok := e.(remedied); ok {
		if rem, is := x.StartupRemedy(); is {
			r.Message = startupRemedy[rem]
		}
	}
	if x, ok := e.(deniedBy); ok {
		if layer, is := x.DeniedBy(); is {
			// The host boundary failed the request inside the browser.
			r.Message = language.StoppedInBrowser(layer)
		}
	}
	if x, ok := e.(aspect); ok {
		if got, limit, is := x.FullPageAspect(); is {
			r.Message = language.FullPageTooLong(got, limit)
		}
	}
	if x, ok := e.(coverer); ok {
		if role, name, is := x.Covering(); is {
			r.Message = language.Covering(role, name)
		}
	}
	if x, ok := e.(waiter); ok {
		if waited, is := x.StillWaiting(); is {
			r.Message = strings.TrimPrefix(r.Message+language.StillAfter(waited), ", ")
		}
	}
}

// startupRemedy words what the person does first, for language.Refusal.
var startupRemedy = map[browser.Remedy]string{
	browser.RemedyOpen:           language.StartupOpen,
	browser.RemedyInstall:        language.StartupInstall,
	browser.RemedyGetBrowser:     language.StartupGetBrowser,
	browser.RemedyGetBrowserOpen: language.StartupGetBrowserOpen,
}

// Gone is the refusal of a call whose tab crashed or whose browser went away
// under it (nil otherwise).
func Gone(err error) *surface.Refusal {
	var be *browser.Error
	tab := ""
	if errors.As(err, &be) {
		tab = be.Tab
	}
	switch {
	case errors.Is(err, browser.ErrTabCrashed):
		return &surface.Refusal{Reason: surface.ReasonTabCrashed, Tab: tab}
	case errors.Is(err, browser.ErrBrowserGone), be != nil && be.Kind == browser.KindBrowserGone && be.Op != "start":
		return &surface.Refusal{Reason: surface.ReasonBrowserUnavailable, Tab: tab, Message: language.MsgBrowserWentAway}
	}
	return nil
}
