package input

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// What the person typed into a credential field is remembered as a keyed
// hash so no result quotes it back (runtime/echomask). Reconstructing it
// from their keys misses what they edit in the middle and what the page
// makes of it (grouping a card number, an autocomplete), so the live view
// reads the field itself after each of their keys: FocusedField.
//
// The read runs in an isolated world of each frame it walks (fieldWorld):
// the page's code shares the DOM with it but not its JavaScript, so it can
// neither see the read (no getter or global of the page runs) nor change
// what it answers (a value property the page defines on the element, a
// replaced activeElement or selectionStart getter, are the page's world's
// only). Only a credential field's value is read: any other element answers
// its name and nothing else.

// Field is the credential field a key stroke reaches now.
type Field struct {
	// ID names the element within its document: two reads of the same
	// field answer the same ID, of another field or of a field of another
	// document a different one. "" when Credential is.
	ID string
	// Credential is the field's credential class (spec/credentials.cue),
	// "" when the focused element is none (then nothing else is read).
	Credential string
	// Value is the field's value, at most limits.TypedFieldChars characters.
	// The caller owns it: clear it once used.
	Value []rune
	// Start and End are the selection, in characters of Value (a caret:
	// Start == End); -1 when the field has none or it lies past what was
	// read.
	Start, End int
}

// fieldWorld names the isolated world the read runs in, in each frame it
// enters; the same session and frame answer the same world, so an ID stays
// the same from one read to the next while the document lasts.
const fieldWorld = "ghostlight-field"

// fieldProbeJS reads what the read needs of an element, in the isolated
// world: its tag and credential class, and for a credential field its ID
// (kept in the world's own global, out of the page's reach), its value as
// code points (at most the bound) and its selection in code points.
var fieldProbeJS = "function(){'use strict';\n" + pagejs.CredentialSource + fmt.Sprintf(`
const el = this, tag = el.localName || '';
const c = credClass(el);
if (!c) return {t: tag, c: '', a: -1, b: -1};
let k = globalThis.__ghostlightField;
if (!k) {
  const r = new Uint32Array(2);
  crypto.getRandomValues(r);
  k = globalThis.__ghostlightField = {tok: r[0].toString(36) + '.' + r[1].toString(36), n: 0, ids: new WeakMap()};
}
let id = k.ids.get(el);
if (id === undefined) { id = ++k.n; k.ids.set(el, id); }
const s = String(el.value == null ? '' : el.value), v = [];
for (const ch of s) {
  if (v.length >= %d) break;
  v.push(ch.codePointAt(0));
}
const at = (u) => { const n = Array.from(s.slice(0, u)).length; return n <= v.length ? n : -1; };
let a = -1, b = -1;
try {
  if (typeof el.selectionStart === 'number' && typeof el.selectionEnd === 'number') { a = at(el.selectionStart); b = at(el.selectionEnd); }
} catch (e) { a = -1; b = -1; }
if (a < 0 || b < 0) { a = -1; b = -1; }
return {t: tag, c: c, id: k.tok + ':' + id, v: v, a: a, b: b};
}`, limits.TypedFieldCharsMax)

// fieldQuickJS walks from the document and probes where it stops, in one
// round trip, as quickJS does; focus says whether the document has focus.
var fieldQuickJS = "(function(){'use strict';\nconst a = (" + descendJS + ").call(document);\n" +
	"const focus = document.hasFocus();\n" +
	"if (!a) return {t: '', c: '', a: -1, b: -1, more: false, frames: window.length, focus: focus};\n" +
	"const p = (" + fieldProbeJS + ").call(a);\n" +
	"p.more = ['input','textarea','select','button'].indexOf(p.t) < 0;\n" +
	"p.frames = window.length;\np.focus = focus;\nreturn p;})()"

// fieldProbe is what fieldProbeJS answers. The value is decoded straight
// into runes (no Go string holds it) from a reply readOn clears.
type fieldProbe struct {
	T  string `json:"t"`
	C  string `json:"c"`
	ID string `json:"id"`
	V  []rune `json:"v"`
	A  int    `json:"a"`
	B  int    `json:"b"`
	// Of the quick read only.
	More   bool `json:"more"`
	Frames int  `json:"frames"`
	Focus  bool `json:"focus"`
}

func (p *fieldProbe) field() Field {
	if p.C == "" {
		clear(p.V)
		return Field{Start: -1, End: -1}
	}
	return Field{ID: p.ID, Credential: p.C, Value: p.V, Start: p.A, End: p.B}
}

// readOn is callOn for a read that may answer a field's value: the reply
// is decoded into r, whose value is runes (no Go string of it is made),
// and then cleared.
func readOn(ctx context.Context, p *rod.Page, req proto.Request, r *probeReply) error {
	if ctx.Err() != nil {
		return ctxError(ctx, "field")
	}
	raw, err := p.Call(ctx, string(p.SessionID), req.ProtoReq(), req)
	if err != nil {
		e, _ := callError(ctx, "field", err)
		return e
	}
	err = json.Unmarshal(raw, r)
	clear(raw)
	if err != nil {
		clear(r.Result.Value.V)
		return &Error{Kind: KindProtocol, Op: "field", Err: err}
	}
	return nil
}

// probeReply is a Runtime.evaluate or callFunctionOn reply by value.
type probeReply struct {
	Result struct {
		Value fieldProbe `json:"value"`
	} `json:"result"`
	ExceptionDetails *struct{} `json:"exceptionDetails"`
}

// FocusedField reads the credential field a key stroke dispatched to page
// would reach now (as FocusedReceiver finds it: through open and closed
// shadow roots and frames of any origin; frames lists the page's
// cross-origin frames), in an isolated world. A focused element that is no
// credential field answers Field{} with Credential "" and no value.
func FocusedField(ctx context.Context, page *rod.Page, frames pagejs.FrameSource) (Field, error) {
	const op = "field"
	if page == nil {
		return Field{}, invalid(op, "nil page")
	}
	var list []pagejs.Frame
	listed := false
	all := func() []pagejs.Frame {
		if !listed && frames != nil {
			list, listed = frames(ctx), true
		}
		return list
	}
	byID := func(_ context.Context, id proto.PageFrameID) *rod.Page {
		for _, f := range all() {
			if f.FrameID == id && f.Page != nil {
				return f.Page
			}
		}
		return nil
	}
	q, err := quickField(ctx, page, "")
	if err != nil {
		return Field{}, err
	}
	f := q.field()
	tag := q.T
	if q.More {
		if f, tag, err = walkField(ctx, page, "", byID); err != nil {
			return Field{}, err
		}
	}
	if f.Credential != "" || frames == nil || q.Frames == 0 || tag == "iframe" || tag == "frame" {
		return f, nil
	}
	// Focus moving into an out-of-process frame reaches the embedding
	// document later than the browser (FocusedReceiver): a frame whose
	// document has focus is read too.
	for _, fr := range all() {
		if fr.Page == nil || fr.Owner == nil || fr.Page.SessionID == fr.Owner.SessionID {
			continue // an in-process frame: the page's walk entered it
		}
		q, err := quickField(ctx, fr.Page, fr.FrameID)
		if err != nil || !q.Focus {
			clear(q.V)
			continue // a frame gone meanwhile, or without focus
		}
		ff := q.field()
		if q.More {
			if ff, _, err = walkField(ctx, fr.Page, fr.FrameID, byID); err != nil {
				return Field{}, err
			}
		}
		if ff.Credential != "" {
			return ff, nil
		}
	}
	return f, nil
}

// quickField is the one-round-trip read from the document of frame (the
// session's main frame when "").
func quickField(ctx context.Context, sess *rod.Page, frame proto.PageFrameID) (fieldProbe, error) {
	cid, err := isolatedContext(ctx, sess, frame, fieldWorld)
	if err != nil {
		return fieldProbe{}, err
	}
	var r probeReply
	if err := readOn(ctx, sess, proto.RuntimeEvaluate{Expression: fieldQuickJS, ContextID: cid, ReturnByValue: true, Silent: true}, &r); err != nil {
		return fieldProbe{}, err
	}
	if r.ExceptionDetails != nil {
		clear(r.Result.Value.V)
		return fieldProbe{}, &Error{Kind: KindProtocol, Op: "field", Err: errors.New("the field read threw")}
	}
	return r.Result.Value, nil
}

// walkField reads through closed shadow roots and frames page code cannot
// enter (walkTo in the isolated world), answering the field and the tag of
// the element where the walk ended.
func walkField(ctx context.Context, sess *rod.Page, frame proto.PageFrameID, frames func(context.Context, proto.PageFrameID) *rod.Page) (Field, string, error) {
	var last fieldProbe
	found, err := walkTo(ctx, sess, frame, frames, fieldWorld, func(ctx context.Context, s *rod.Page, el proto.RuntimeRemoteObjectID) (string, error) {
		var r probeReply
		if err := readOn(ctx, s, proto.RuntimeCallFunctionOn{FunctionDeclaration: fieldProbeJS, ObjectID: el, ReturnByValue: true, Silent: true}, &r); err != nil {
			return "", err
		}
		if r.ExceptionDetails != nil {
			clear(r.Result.Value.V)
			return "", &Error{Kind: KindProtocol, Op: "field", Err: errors.New("the field read threw")}
		}
		clear(last.V)
		last = r.Result.Value
		return last.T, nil
	})
	if err != nil || !found {
		clear(last.V)
		return Field{Start: -1, End: -1}, "", err
	}
	return last.field(), last.T, nil
}
