package pagejs

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies a perception or action failure so callers can branch
// without parsing messages.
type Kind int

const (
	// KindInternal is an unexpected failure inside Ghostlight's page code.
	KindInternal Kind = iota
	// KindUnavailable means the page or its isolated world could not be reached.
	KindUnavailable
	// KindBadRequest means the Go caller passed an unusable argument.
	KindBadRequest
	// KindStale means the id names no live element of the current document.
	KindStale
	// KindHidden means the element is not rendered or has no size.
	KindHidden
	// KindObscured means another element receives input at the element's point.
	KindObscured
	// KindDisabled means the control is disabled (or inert).
	KindDisabled
	// KindReadOnly means the control refuses edits.
	KindReadOnly
	// KindNotEditable means the element does not hold a value of that sort.
	KindNotEditable
	// KindMismatch means the value's kind does not fit the control.
	KindMismatch
	// KindCredential means the target is credential-class and was not touched.
	KindCredential
	// KindNoMatch means a selector or option text matched nothing.
	KindNoMatch
	// KindAmbiguous means a selector matched more than one control.
	KindAmbiguous
	// KindRejected means the page undid or refused the change.
	KindRejected
	// KindNotFocusable means the element cannot take focus.
	KindNotFocusable
	// KindNavigated means the document was replaced while the call ran; it
	// may or may not have taken effect.
	KindNavigated
	// KindUnstable means the element kept moving (its box changed between
	// animation frames) until the call's deadline.
	KindUnstable
)

var kindNames = [...]string{
	KindInternal:     "internal",
	KindUnavailable:  "unavailable",
	KindBadRequest:   "bad_request",
	KindStale:        "stale",
	KindHidden:       "hidden",
	KindObscured:     "obscured",
	KindDisabled:     "disabled",
	KindReadOnly:     "readonly",
	KindNotEditable:  "not_editable",
	KindMismatch:     "mismatch",
	KindCredential:   "credential",
	KindNoMatch:      "no_match",
	KindAmbiguous:    "ambiguous",
	KindRejected:     "rejected",
	KindNotFocusable: "not_focusable",
	KindNavigated:    "navigated",
	KindUnstable:     "unstable",
}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

func kindFromName(s string) Kind {
	for i, n := range kindNames {
		if n == s {
			return Kind(i)
		}
	}
	return KindInternal
}

// Error is every failure this package returns. Detail never carries a
// field value: it is safe to show and to audit.
type Error struct {
	Kind   Kind
	Op     string // the operation, e.g. "locate"
	Detail string // short human explanation
	Count  int    // KindAmbiguous: how many matched
	Role   string // KindObscured: role of the covering element
	Name   string // KindObscured: name of the covering element
	Err    error  // underlying transport error, if any
	// Waited is how long an action waited for its target before this
	// refusal (AwaitActionable); zero for a refusal at the first look.
	Waited time.Duration
}

func (e *Error) Error() string {
	msg := "pagejs " + e.Op + ": " + e.Kind.String()
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf reports the Kind of err, or KindInternal when err is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}
