package capture

import "fmt"

// Kind classifies a capture or geometry failure.
type Kind int

const (
	// KindInvalid: the request itself is malformed (format, quality, limits).
	KindInvalid Kind = iota + 1
	// KindRegionEmpty: a region with a non-positive width or height.
	KindRegionEmpty
	// KindRegionOutside: a region not wholly inside the view's image.
	KindRegionOutside
	// KindClipEmpty: an element clip with no area inside the document.
	KindClipEmpty
	// KindStale: the parent view's binding is no longer current.
	KindStale
	// KindMoved: the geometry kept changing while capturing.
	KindMoved
	// KindTooLarge: the image could not be brought under the byte ceiling.
	KindTooLarge
	// KindProtocol: a DevTools call failed (Err holds the cause, which may
	// be a context error).
	KindProtocol
	// KindDecode: the browser returned bytes whose dimensions cannot be read.
	KindDecode
	// KindTooLong: a full-page capture's aspect ratio (Got) passes
	// Request.MaxAspect (Limit): scaled whole to the edge bound it would be a
	// sliver.
	KindTooLong
)

func (k Kind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindRegionEmpty:
		return "region_empty"
	case KindRegionOutside:
		return "region_outside"
	case KindClipEmpty:
		return "clip_empty"
	case KindStale:
		return "stale"
	case KindMoved:
		return "moved"
	case KindTooLarge:
		return "too_large"
	case KindProtocol:
		return "protocol"
	case KindDecode:
		return "decode"
	case KindTooLong:
		return "too_long"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Edge names the side or dimension of a rectangle that broke a rule.
type Edge string

const (
	EdgeNone   Edge = ""
	EdgeLeft   Edge = "left"
	EdgeTop    Edge = "top"
	EdgeRight  Edge = "right"
	EdgeBottom Edge = "bottom"
	EdgeWidth  Edge = "width"
	EdgeHeight Edge = "height"
)

// Error is the only error type this package returns.
type Error struct {
	Kind Kind
	// Edge names the offending side (RegionOutside) or dimension
	// (RegionEmpty); empty otherwise.
	Edge Edge
	// Got and Limit quantify Edge failures (e.g. right edge 1400 > width
	// 1280) and TooLarge failures (bytes > ceiling).
	Got, Limit float64
	// Reason says why a view is stale (KindStale, KindMoved).
	Reason Reason
	// Op names the DevTools method or step that failed.
	Op     string
	Detail string
	Err    error
}

func (e *Error) Error() string {
	msg := "capture: " + e.Kind.String()
	if e.Op != "" {
		msg += " in " + e.Op
	}
	switch e.Edge {
	case EdgeNone:
	case EdgeWidth, EdgeHeight:
		msg += fmt.Sprintf(": %s %g is not positive", e.Edge, e.Got)
	case EdgeLeft, EdgeTop:
		msg += fmt.Sprintf(": %s edge %g is before %g", e.Edge, e.Got, e.Limit)
	default:
		msg += fmt.Sprintf(": %s edge %g is past %g", e.Edge, e.Got, e.Limit)
	}
	if e.Kind == KindTooLarge {
		msg += fmt.Sprintf(": %g bytes over the %g byte ceiling", e.Got, e.Limit)
	}
	if e.Kind == KindTooLong {
		msg += fmt.Sprintf(": aspect ratio %.0f:1 over the %g:1 bound", e.Got, e.Limit)
	}
	if e.Reason != ReasonNone {
		msg += ": " + e.Reason.String()
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

func protoErr(op string, err error) *Error {
	return &Error{Kind: KindProtocol, Op: op, Err: err}
}

func invalid(detail string) *Error {
	return &Error{Kind: KindInvalid, Detail: detail}
}
