package pagejs

import (
	"context"
	"math"
)

// Box is a rectangle in top-level viewport CSS pixels.
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Point is where to press an element: its centre (or another verified
// point of its visible part) in top-level viewport CSS pixels, after any
// scrolling, plus what the element is.
type Point struct {
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Box        Box     `json:"box"`
	Role       string  `json:"role"`
	Name       string  `json:"name"`
	Credential bool    `json:"credential,omitempty"`
	Editable   bool    `json:"editable,omitempty"`
	Tag        string  `json:"tag"`       // of the element holding the value (a label's control)
	InputType  string  `json:"inputType"` // input type when Tag is "input"
	// Submit is the URL activating the element submits its form to (a
	// submit control); Enter, the URL Enter in it submits to (a form's text
	// field). "" when it submits nothing (policy confirm.submit_to).
	Submit   string `json:"submit,omitempty"`
	Enter    string `json:"enter,omitempty"`
	Scrolled bool   `json:"scrolled"`
	// ScrollX and ScrollY are the top document's scroll offsets once the
	// element was located (nil for an element in a cross-origin frame,
	// whose offsets are its frame's): a reveal needs no second round trip.
	ScrollX *float64 `json:"sx,omitempty"`
	ScrollY *float64 `json:"sy,omitempty"`
}

// LocateOptions relax Locate's refusals for actions where they do not
// apply (hovering a disabled control, reading a covered element's box).
type LocateOptions struct {
	AllowDisabled bool `json:"allowDisabled"`
	AllowObscured bool `json:"allowObscured"`
	// Keys: the action reaches the element by focus or page code, not at a
	// point (AwaitActionable): it is neither scrolled to nor hit-tested.
	Keys bool `json:"keys,omitempty"`
	// Mark rides in the call's message, unread by the page code, for a
	// caller that sends a message right behind it (browser.NewSendMark).
	Mark string `json:"mark,omitempty"`
}

// Locate scrolls the element into view only if needed (instant, centred),
// and returns a point verified by hit testing to reach it.
// Errors: KindStale, KindHidden, KindObscured (Role/Name of the cover),
// KindDisabled.
func Locate(ctx context.Context, w *World, id int) (Point, error) {
	return LocateWith(ctx, w, id, LocateOptions{})
}

// LocateWith is Locate with options.
func LocateWith(ctx context.Context, w *World, id int, opt LocateOptions) (Point, error) {
	l := w.Limits()
	req := struct {
		LocateOptions
		ID                     int      `json:"id"`
		NameMax                int      `json:"nameMax"`
		CredentialAutocomplete []string `json:"credentialAutocomplete"`
	}{opt, id, l.NameMax, l.CredentialAutocomplete}
	var out Point
	if err := w.invoke(ctx, "locate", req, &out); err != nil {
		return Point{}, err
	}
	return out, nil
}

type idReq struct {
	ID                     int      `json:"id"`
	NameMax                int      `json:"nameMax,omitempty"`
	CredentialAutocomplete []string `json:"credentialAutocomplete,omitempty"`
}

func (w *World) idReq(id int) idReq {
	l := w.Limits()
	return idReq{ID: id, NameMax: l.NameMax, CredentialAutocomplete: l.CredentialAutocomplete}
}

// Describe returns the item for a registered element, visible or not.
func Describe(ctx context.Context, w *World, id int) (Item, error) {
	var out Item
	if err := w.invoke(ctx, "describe", w.idReq(id), &out); err != nil {
		return Item{}, err
	}
	return out, nil
}

// Value kinds.
const (
	ValueString = "string"
	ValueBool   = "bool"
	ValueNumber = "number"
)

// Value is a typed form value.
type Value struct {
	Kind   string  `json:"kind"`
	String string  `json:"string,omitempty"`
	Bool   bool    `json:"bool,omitempty"`
	Number float64 `json:"number,omitempty"`
}

// StringValue, BoolValue and NumberValue build Values.
func StringValue(s string) Value  { return Value{Kind: ValueString, String: s} }
func BoolValue(b bool) Value      { return Value{Kind: ValueBool, Bool: b} }
func NumberValue(n float64) Value { return Value{Kind: ValueNumber, Number: n} }

// SetValue sets a control's value the way frameworks observe: text through
// the native setter plus input and change events, checkboxes and radios
// by click, selects by visible option text then value, editable regions by
// an insertText edit. Credential-class targets are refused with
// KindCredential before the value is touched. Other errors: KindStale,
// KindMismatch, KindNotEditable, KindDisabled, KindReadOnly, KindNoMatch
// (no such option), KindRejected (the page undid a toggle).
func SetValue(ctx context.Context, w *World, id int, v Value) error {
	switch v.Kind {
	case ValueString, ValueBool:
	case ValueNumber:
		if math.IsNaN(v.Number) || math.IsInf(v.Number, 0) {
			return &Error{Kind: KindBadRequest, Op: "setValue", Detail: "number value is not finite"}
		}
	default:
		return &Error{Kind: KindBadRequest, Op: "setValue", Detail: "unknown value kind " + v.Kind}
	}
	req := struct {
		idReq
		Value Value `json:"value"`
	}{w.idReq(id), v}
	return w.invoke(ctx, "setValue", req, nil)
}

// Focus focuses the element. Errors: KindStale, KindDisabled, KindNotFocusable.
func Focus(ctx context.Context, w *World, id int) error {
	return w.invoke(ctx, "focus", w.idReq(id), nil)
}

// Clear empties a text field or editable region (credential-class refused).
func Clear(ctx context.Context, w *World, id int) error {
	return w.invoke(ctx, "clear", w.idReq(id), nil)
}

// FocusedEditable returns the registered id of the focused editable
// control (through shadow roots and same-origin frames), if any.
func FocusedEditable(ctx context.Context, w *World) (int, bool, error) {
	var out struct {
		ID int  `json:"id"`
		OK bool `json:"ok"`
	}
	if err := w.invoke(ctx, "focusedEditable", struct{}{}, &out); err != nil {
		return 0, false, err
	}
	return out.ID, out.OK, nil
}

// Focused returns the registered id of the focused element, if any.
func Focused(ctx context.Context, w *World) (int, bool, error) {
	var out struct {
		ID int  `json:"id"`
		OK bool `json:"ok"`
	}
	if err := w.invoke(ctx, "focused", struct{}{}, &out); err != nil {
		return 0, false, err
	}
	return out.ID, out.OK, nil
}

// Offsets are scroll offsets in CSS pixels after a scroll. Container: the
// window could not move, so an inner scroll pane under the viewport centre
// was scrolled and X/Y are that pane's offsets.
type Offsets struct {
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Scrolled  bool    `json:"scrolled"`
	Container bool    `json:"container,omitempty"`
}

// ScrollBy scrolls by dx, dy CSS pixels, instantly.
func ScrollBy(ctx context.Context, w *World, dx, dy float64) (Offsets, error) {
	var out Offsets
	err := w.invoke(ctx, "scrollBy", map[string]float64{"dx": dx, "dy": dy}, &out)
	return out, err
}

// Revealed is an element a reveal brought into view, or found in view.
type Revealed struct {
	Role     string `json:"role"`
	Name     string `json:"name"`
	Scrolled bool   `json:"scrolled"` // it was not in view, and was scrolled to
	// ScrollX and ScrollY are the top document's scroll offsets after the
	// reveal (nil for an element in a cross-origin frame, as in Point).
	ScrollX *float64 `json:"sx,omitempty"`
	ScrollY *float64 `json:"sy,omitempty"`
}

// Reveal scrolls the element into view (centred) if it is not already, and
// names it. mark rides in the call's message as LocateOptions.Mark does.
// Errors: KindStale, KindHidden.
func Reveal(ctx context.Context, w *World, id int, mark string) (Revealed, error) {
	l := w.Limits()
	req := struct {
		ID                     int      `json:"id"`
		NameMax                int      `json:"nameMax"`
		CredentialAutocomplete []string `json:"credentialAutocomplete"`
		Mark                   string   `json:"mark,omitempty"`
	}{id, l.NameMax, l.CredentialAutocomplete, mark}
	var out Revealed
	err := w.invoke(ctx, "reveal", req, &out)
	return out, err
}

// PageMetrics describes the viewport and document.
type PageMetrics struct {
	ViewportWidth    float64 `json:"viewportWidth"`
	ViewportHeight   float64 `json:"viewportHeight"`
	ScrollX          float64 `json:"scrollX"`
	ScrollY          float64 `json:"scrollY"`
	DevicePixelRatio float64 `json:"devicePixelRatio"`
	ReadyState       string  `json:"readyState"`
	Title            string  `json:"title"`
	URL              string  `json:"url"`
}

// Metrics returns viewport size (CSS px), scroll offsets, device pixel
// ratio, ready state, bounded title and URL.
func Metrics(ctx context.Context, w *World) (PageMetrics, error) {
	var out PageMetrics
	err := w.invoke(ctx, "metrics", map[string]int{"titleMax": w.Limits().TitleMax}, &out)
	return out, err
}

// IsFileInput reports whether the element (or the hidden input a label
// stands for) is a file input.
func IsFileInput(ctx context.Context, w *World, id int) (bool, error) {
	var out struct {
		File bool `json:"file"`
	}
	err := w.invoke(ctx, "isFileInput", idReq{ID: id}, &out)
	return out.File, err
}

// FileInputs are the file inputs of the page and of the cross-origin frames
// the world may perceive: Count in all, IDs of at most the first two.
type FileInputs struct {
	IDs   []int `json:"ids"`
	Count int   `json:"count"`
}

// FindFileInputs lists the file inputs an upload with no target chooses
// from: the page's own and its admitted frames'.
func FindFileInputs(ctx context.Context, w *World) (FileInputs, error) {
	var out FileInputs
	err := w.invoke(ctx, "fileInputs", map[string]int{"max": 2}, &out)
	return out, err
}

// Present reports whether the element still exists and is rendered
// (connected, not display:none/visibility:hidden, non-zero size). Stale ids
// answer false, not an error.
func Present(ctx context.Context, w *World, id int) (bool, error) {
	var out struct {
		Present bool `json:"present"`
	}
	err := w.invoke(ctx, "present", idReq{ID: id}, &out)
	return out.Present, err
}
