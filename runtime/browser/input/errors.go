package input

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/cdp"
)

// Kind classifies an input failure for the caller's outcome mapping.
type Kind int

const (
	// KindInvalidArgument: the caller passed a value no dispatch can honour (unknown button,
	// non-finite coordinate, count below one, nil page). Nothing was sent.
	KindInvalidArgument Kind = iota + 1
	// KindCancelled: the caller's context was cancelled (for example because a dialog opened).
	KindCancelled
	// KindTimeout: a deadline passed, either the caller's context deadline or Execute's script timeout.
	KindTimeout
	// KindTargetClosed: the page's DevTools session is gone (tab closed, browser disconnected).
	KindTargetClosed
	// KindNoDialog: HandleDialog found no JavaScript dialog showing.
	KindNoDialog
	// KindProtocol: the browser rejected a command.
	KindProtocol
	// KindStaging: DropFiles could not write the dropped bytes to its staging directory.
	KindStaging
	// KindNavigated: the document went away (navigation, reload, close) while the call waited for
	// its reply; whatever ran before that stands.
	KindNavigated
)

var kindNames = map[Kind]string{
	KindInvalidArgument: "invalid_argument",
	KindCancelled:       "cancelled",
	KindTimeout:         "timeout",
	KindTargetClosed:    "target_closed",
	KindNoDialog:        "no_dialog",
	KindProtocol:        "protocol",
	KindStaging:         "staging",
	KindNavigated:       "navigated",
}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is the only error type this package returns.
type Error struct {
	Kind Kind
	// Op names the operation that failed: "click", "press_key", "execute", ...
	Op string
	// Err is the underlying cause: the context's cause, the browser's error, or a description.
	Err error
	// ctxErr keeps context.Canceled / context.DeadlineExceeded reachable by errors.Is when the
	// context was cancelled with a custom cause.
	ctxErr error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return "input: " + e.Op + ": " + e.Kind.String()
	}
	return "input: " + e.Op + ": " + e.Kind.String() + ": " + e.Err.Error()
}

// Unwrap exposes the cause and, for cancellations, the context error.
func (e *Error) Unwrap() []error {
	errs := make([]error, 0, 2)
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	if e.ctxErr != nil && e.ctxErr != e.Err {
		errs = append(errs, e.ctxErr)
	}
	return errs
}

// KindOf returns the Kind of an error from this package, or 0 for any other error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

func invalid(op, format string, args ...any) *Error {
	return &Error{Kind: KindInvalidArgument, Op: op, Err: fmt.Errorf(format, args...)}
}

// ctxError reports why ctx ended, keeping the caller's cause.
func ctxError(ctx context.Context, op string) *Error {
	kind := KindCancelled
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		kind = KindTimeout
	}
	return &Error{Kind: kind, Op: op, Err: context.Cause(ctx), ctxErr: ctx.Err()}
}

// callError classifies a failed protocol call. rejected reports whether the browser answered with an
// error, which means the command took no effect; any other failure leaves its effect unknown.
func callError(ctx context.Context, op string, err error) (e *Error, rejected bool) {
	if ctx.Err() != nil {
		return ctxError(ctx, op), false
	}
	var ce *cdp.Error
	if errors.As(err, &ce) {
		switch {
		case ce.Code == cdp.ErrSessionNotFound.Code || strings.Contains(ce.Message, "Target closed"):
			return &Error{Kind: KindTargetClosed, Op: op, Err: err}, true
		case strings.Contains(ce.Message, "No dialog is showing"):
			return &Error{Kind: KindNoDialog, Op: op, Err: err}, true
		case strings.Contains(ce.Message, "navigated or closed") || ce.Message == cdp.ErrCtxDestroyed.Message:
			return &Error{Kind: KindNavigated, Op: op, Err: err}, false
		}
		return &Error{Kind: KindProtocol, Op: op, Err: err}, true
	}
	// Transport failures (closed websocket, browser gone) after the message may have left.
	return &Error{Kind: KindTargetClosed, Op: op, Err: err}, false
}
