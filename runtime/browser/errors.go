package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an executor failure so the caller can map it to a refusal reason.
type Kind int

// Failure kinds.
const (
	KindInternal        Kind = iota // unexpected protocol or library failure
	KindStartupManual               // no browser connected and startup is left to the person
	KindLaunchFailed                // a browser was found but would not start
	KindBrowserGone                 // the browser died or the connection closed during the call
	KindClosed                      // the executor was closed
	KindNoTab                       // the workspace controls no tab
	KindAmbiguousTab                // several controlled tabs could be meant
	KindUnknownTab                  // the handle does not belong to this workspace
	KindTabGone                     // the handle's tab has closed
	KindBeforeUnload                // the page asked to confirm leaving; the prompt was dismissed
	KindDialogOpen                  // a JavaScript dialog blocks the page
	KindNoHistoryEntry              // there is no history entry in that direction
	KindTimeout                     // the call's deadline passed
	KindCanceled                    // the caller cancelled the call
	KindNavigation                  // the navigation failed with a network error
	KindInvalidArgument             // an argument is outside the configured limits
	KindTabCrashed                  // the tab's page crashed; navigating its handle reloads it
	KindOwnedElsewhere              // the browser registration belongs to another Ghostlight installation
	KindUnreachable                 // the configured DevTools endpoint could not be reached
	KindHostDenied                  // the host boundary stopped the navigation before it left the browser
)

var kindNames = [...]string{
	KindInternal:        "internal",
	KindStartupManual:   "startup_manual",
	KindLaunchFailed:    "launch_failed",
	KindBrowserGone:     "browser_gone",
	KindClosed:          "closed",
	KindNoTab:           "no_tab",
	KindAmbiguousTab:    "ambiguous_tab",
	KindUnknownTab:      "unknown_tab",
	KindTabGone:         "tab_gone",
	KindBeforeUnload:    "beforeunload",
	KindDialogOpen:      "dialog_open",
	KindNoHistoryEntry:  "no_history_entry",
	KindTimeout:         "timeout",
	KindCanceled:        "canceled",
	KindNavigation:      "navigation",
	KindInvalidArgument: "invalid_argument",
	KindTabCrashed:      "tab_crashed",
	KindOwnedElsewhere:  "owned_elsewhere",
	KindUnreachable:     "unreachable",
	KindHostDenied:      "host_denied",
}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Remedy is what a person does so that a refused startup can succeed.
type Remedy int

// Remedies of KindStartupManual.
const (
	RemedyOpen           Remedy = iota // open one of Browsers, prepared (ghostlight open)
	RemedyInstall                      // prepare the installed browsers (ghostlight install), then open one
	RemedyGetBrowser                   // install a Chromium-family browser; auto then launches it
	RemedyGetBrowserOpen               // install one, prepare it and open it (startup never launches)
)

// Error is the only error type the executor returns from its public methods.
type Error struct {
	Kind Kind
	Op   string // the executor operation, e.g. "navigate"
	// Tab is the handle involved, when there is one.
	Tab string
	// Browsers names the installed browsers found, for KindStartupManual: the prepared
	// ones to open (RemedyOpen), else every one found.
	Browsers []Installed
	// Remedy is what the person does first, for KindStartupManual.
	Remedy Remedy
	// Endpoint is the configured DevTools endpoint, when connecting to one failed
	// (KindUnreachable; Err is the connection error).
	Endpoint string
	// NetError is the browser's network error text for KindNavigation (e.g. "net::ERR_CONNECTION_REFUSED").
	NetError string
	// Dialog describes the blocking dialog for KindDialogOpen and KindBeforeUnload.
	Dialog *DialogState
	// Landing is the tab's state when the call ended, when the call got far enough to observe it.
	Landing *Landing
	// Host and Layer name the host a KindHostDenied navigation was for and the
	// layer whose boundary stopped it.
	Host, Layer string
	// Sent: the call's command reached the browser before it failed, so its effect may
	// still happen (a timed-out navigation can commit later).
	Sent bool
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("browser")
	if e.Op != "" {
		b.WriteString(" ")
		b.WriteString(e.Op)
	}
	b.WriteString(": ")
	b.WriteString(e.Kind.String())
	if e.Tab != "" {
		b.WriteString(" (")
		b.WriteString(e.Tab)
		b.WriteString(")")
	}
	if e.NetError != "" {
		b.WriteString(": ")
		b.WriteString(e.NetError)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the Kind of err when it is (or wraps) an *Error, and KindInternal otherwise.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// Causes attached to contexts the executor cancels.
var (
	// ErrDialogOpened is the cancellation cause of a Guard context when a dialog opens.
	ErrDialogOpened = errors.New("a JavaScript dialog opened")
	// ErrTabClosed is the cancellation cause when the tab's target closed.
	ErrTabClosed = errors.New("tab closed")
	// ErrBrowserGone is the cancellation cause when the browser connection ended.
	ErrBrowserGone = errors.New("browser connection ended")
	// ErrTabCrashed is the cancellation cause when the tab's renderer crashed.
	ErrTabCrashed = errors.New("tab crashed")
)

// GoneCause is why ctx ended when the tab or the browser went away under it
// (ErrTabCrashed, ErrTabClosed or ErrBrowserGone), and nil otherwise. A loop that
// watches ctx (a wait, a settle) reports this instead of "did not happen in time".
func GoneCause(ctx context.Context) error {
	c := context.Cause(ctx)
	for _, gone := range []error{ErrTabCrashed, ErrTabClosed, ErrBrowserGone} {
		if errors.Is(c, gone) {
			return gone
		}
	}
	return nil
}

// classify turns any failure of op into an *Error, reading the context's cause first so
// that a dialog, a closed tab or a dead browser is reported as what it is.
func classify(ctx context.Context, op, tab string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(err, ErrBrowserGone) || errors.Is(cause, ErrBrowserGone):
		return &Error{Kind: KindBrowserGone, Op: op, Tab: tab, Err: err}
	case errors.Is(err, ErrTabCrashed) || errors.Is(cause, ErrTabCrashed):
		return &Error{Kind: KindTabCrashed, Op: op, Tab: tab, Err: err}
	case errors.Is(err, ErrTabClosed) || errors.Is(cause, ErrTabClosed):
		return &Error{Kind: KindTabGone, Op: op, Tab: tab, Err: err}
	case errors.Is(err, ErrDialogOpened) || errors.Is(cause, ErrDialogOpened):
		return &Error{Kind: KindDialogOpen, Op: op, Tab: tab, Err: err}
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(cause, context.DeadlineExceeded):
		return &Error{Kind: KindTimeout, Op: op, Tab: tab, Err: err}
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return &Error{Kind: KindCanceled, Op: op, Tab: tab, Err: err}
	}
	return &Error{Kind: KindInternal, Op: op, Tab: tab, Err: err}
}
