package input

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// The element a key stroke will reach. Keyboard input goes to the focused
// element of the focused frame, wherever it is: behind open and closed
// shadow roots, and in frames of any origin. Page code sees none of a closed
// root and none of a cross-origin frame, so Receiver walks through DevTools:
// page code steps through what it can see (open roots, same-origin frames);
// where it stops, DOM.describeNode (pierce) names a closed root or a frame's
// document in the same process, DOM.resolveNode gives a handle on it, and an
// out-of-process frame is entered on its own target's session (frames).

// Receiver is what a key stroke would reach now.
type Receiver struct {
	// Credential is the credential class of the focused element
	// (spec/credentials.cue), "" when it is none.
	Credential string
	// EnterSubmits: Enter there submits a form (a text field of a form; a
	// textarea takes Enter as a newline).
	EnterSubmits bool
	// SubmitButton: the focused element is a form's submit button, which
	// Space and Enter press.
	SubmitButton bool
	// Tag is the focused element's local name ("" when nothing has focus).
	Tag string
}

// receiverGroup holds the remote objects one walk makes, released together.
const receiverGroup = "ghostlight-receiver"

// descend follows focus from `this` (a document, a shadow root or an
// element) through open shadow roots and same-origin frames, as far as page
// code can see.
var descendJS = fmt.Sprintf(`function(){
  let a = this.nodeType === 1 ? this : this.activeElement;
  for (let i = 0; a && i < %d; i++) {
    if (a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
    if (a.localName === 'iframe' || a.localName === 'frame') {
      let d = null;
      try { d = a.contentDocument; } catch (e) { d = null; }
      if (d && d.activeElement) { a = d.activeElement; continue; }
    }
    break;
  }
  return a || null;
}`, limits.CredentialFocusStepsMax)

// probeJS reads what the walk needs of an element: its credential class,
// its tag, and whether Enter or Space there submits a form.
var probeJS = "function(){'use strict';\n" + pagejs.CredentialSource + `
const el = this, tag = el.localName || '';
const ty = tag === 'input' ? String(el.type || '').toLowerCase() : '';
const nonText = new Set(['hidden','checkbox','radio','submit','reset','button','image','range','color','file']);
const form = (tag === 'input' || tag === 'button') ? el.form : null;
return {
  c: credClass(el),
  t: tag,
  e: !!(form && tag === 'input' && !nonText.has(ty)),
  s: !!(form && ((tag === 'button' && String(el.type || 'submit').toLowerCase() === 'submit') || (tag === 'input' && (ty === 'submit' || ty === 'image')))),
};
}`

// quickJS walks from the document and probes where it stops, by value: more
// says the walk stopped where a closed root or a frame page code cannot
// enter may be (an element other than a control), frames how many child
// frames the page has (any origin, in shadow roots too).
var quickJS = "(function(){'use strict';\nconst a = (" + descendJS + ").call(document);\n" +
	"if (!a) return {c: '', t: '', e: false, s: false, more: false, frames: window.length};\n" +
	"const p = (" + probeJS + ").call(a);\n" +
	"p.more = ['input','textarea','select','button'].indexOf(p.t) < 0;\n" +
	"p.frames = window.length;\nreturn p;})()"

type probe struct {
	C string `json:"c"`
	T string `json:"t"`
	E bool   `json:"e"`
	S bool   `json:"s"`
}

// FocusedReceiver reports the element a key stroke dispatched to page
// would reach now. frames lists the page's cross-origin frames (the
// browser's Tab.Frames; nil: out-of-process frames are not entered).
//
// Focus moving into an out-of-process frame reaches the embedding
// document's process later than the browser, which routes keys by it: a
// click in such a frame has focused its field (the frame's own process
// handled the click before the click returned) while the page may still
// name its body as active. So when the page's walk ends outside any frame,
// every out-of-process frame whose document has focus is walked too, and a
// credential field there is what the key would reach.
func FocusedReceiver(ctx context.Context, page *rod.Page, frames pagejs.FrameSource) (Receiver, error) {
	if page == nil {
		return Receiver{}, invalid("receiver", "nil page")
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
	// One round trip answers the common case: focus on a control page code
	// can reach, in a page without frames.
	var quick struct {
		probe
		More   bool `json:"more"`
		Frames int  `json:"frames"`
	}
	var res proto.RuntimeEvaluateResult
	if err := callOn(ctx, page, "receiver", proto.RuntimeEvaluate{Expression: quickJS, ReturnByValue: true, Silent: true}, &res); err != nil {
		return Receiver{}, err
	}
	if res.ExceptionDetails != nil || res.Result.Value.Unmarshal(&quick) != nil {
		return Receiver{}, &Error{Kind: KindProtocol, Op: "receiver", Err: errors.New("the focus probe threw")}
	}
	rc := Receiver{Credential: quick.C, EnterSubmits: quick.E, SubmitButton: quick.S, Tag: quick.T}
	if quick.More {
		var err error
		if rc, err = walkFocus(ctx, page, byID); err != nil {
			return Receiver{}, err
		}
	}
	if rc.Credential != "" || frames == nil || quick.Frames == 0 || rc.Tag == "iframe" || rc.Tag == "frame" {
		return rc, nil
	}
	for _, f := range all() {
		if f.Page == nil || f.Owner == nil || f.Page.SessionID == f.Owner.SessionID {
			continue // an in-process frame: the page's walk entered it
		}
		var res proto.RuntimeEvaluateResult
		if err := callOn(ctx, f.Page, "receiver", proto.RuntimeEvaluate{Expression: "document.hasFocus()", ReturnByValue: true, Silent: true}, &res); err != nil {
			continue // a frame gone meanwhile
		}
		if !res.Result.Value.Bool() {
			continue
		}
		frc, err := walkFocus(ctx, f.Page, byID)
		if err != nil {
			return Receiver{}, err
		}
		if frc.Credential != "" {
			return frc, nil
		}
	}
	return rc, nil
}

// walkFocus follows focus from page's document, in the page's own world.
func walkFocus(ctx context.Context, page *rod.Page, frames func(context.Context, proto.PageFrameID) *rod.Page) (Receiver, error) {
	var rc Receiver
	found, err := walkTo(ctx, page, "", frames, "", func(ctx context.Context, sess *rod.Page, el proto.RuntimeRemoteObjectID) (string, error) {
		const op = "receiver"
		var pr proto.RuntimeCallFunctionOnResult
		if err := callOn(ctx, sess, op, proto.RuntimeCallFunctionOn{FunctionDeclaration: probeJS, ObjectID: el, ReturnByValue: true, Silent: true}, &pr); err != nil {
			return "", err
		}
		if pr.ExceptionDetails != nil {
			return "", &Error{Kind: KindProtocol, Op: op, Err: errors.New("the probe threw")}
		}
		var p probe
		if err := pr.Result.Value.Unmarshal(&p); err != nil {
			return "", &Error{Kind: KindProtocol, Op: op, Err: err}
		}
		rc = Receiver{Credential: p.C, EnterSubmits: p.E, SubmitButton: p.S, Tag: p.T}
		return p.T, nil
	})
	if err != nil || !found {
		return Receiver{}, err
	}
	return rc, nil
}

// walkTo follows focus from the document of page (whose frame is frame; ""
// when it is the session's main frame) and calls probe on each element
// where page code stops: the focused control, or an element holding a
// closed shadow root or a frame page code cannot enter, which the walk then
// enters through DevTools. probe answers the element's local name; the
// walk ends at a control. found is false when, where the walk ended,
// nothing has focus.
//
// world "" walks in the page's own world; any other name walks in an
// isolated world of that name of each frame it enters, whose JavaScript
// page code can neither see nor tamper with (its builtins, getters and
// globals are the world's own).
func walkTo(ctx context.Context, page *rod.Page, frame proto.PageFrameID, frames func(context.Context, proto.PageFrameID) *rod.Page, world string,
	probe func(context.Context, *rod.Page, proto.RuntimeRemoteObjectID) (string, error)) (found bool, err error) {
	const op = "receiver"
	sess := page
	used := []*rod.Page{page}
	defer func() {
		// The objects go with their group; a failure here leaves them to the
		// document's end.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Duration(limits.TimeoutMsDefault)*time.Millisecond)
		defer cancel()
		for _, p := range used {
			_, _ = p.Call(rctx, string(p.SessionID), "Runtime.releaseObjectGroup", map[string]string{"objectGroup": receiverGroup})
		}
	}()
	var cid proto.RuntimeExecutionContextID // the isolated world of the frame walked; 0 = the page's own
	if world != "" {
		if cid, err = isolatedContext(ctx, sess, frame, world); err != nil {
			return false, err
		}
	}
	var obj proto.RuntimeRemoteObjectID // a document, shadow root or element to descend from; "" = the session's document
	for step := 0; step <= limits.CredentialFocusStepsMax; step++ {
		var el proto.RuntimeRemoteObjectID
		if obj == "" {
			var res proto.RuntimeEvaluateResult
			if err := callOn(ctx, sess, op, proto.RuntimeEvaluate{Expression: "(" + descendJS + ").call(document)", ContextID: cid, ObjectGroup: receiverGroup, Silent: true}, &res); err != nil {
				return false, err
			}
			if res.ExceptionDetails != nil {
				return false, &Error{Kind: KindProtocol, Op: op, Err: errors.New("the focus walk threw")}
			}
			el = res.Result.ObjectID
		} else {
			var res proto.RuntimeCallFunctionOnResult
			if err := callOn(ctx, sess, op, proto.RuntimeCallFunctionOn{FunctionDeclaration: descendJS, ObjectID: obj, ObjectGroup: receiverGroup, Silent: true}, &res); err != nil {
				return false, err
			}
			if res.ExceptionDetails != nil {
				return false, &Error{Kind: KindProtocol, Op: op, Err: errors.New("the focus walk threw")}
			}
			el = res.Result.ObjectID
		}
		if el == "" {
			return false, nil // nothing has focus
		}
		tag, err := probe(ctx, sess, el)
		if err != nil {
			return false, err
		}
		switch tag {
		case "input", "textarea", "select", "button", "":
			return true, nil // a control holds no shadow root or frame
		}
		// Where page code stopped: a closed shadow root, or a frame it
		// cannot enter.
		depth := 1
		var d proto.DOMDescribeNodeResult
		if err := callOn(ctx, sess, op, proto.DOMDescribeNode{ObjectID: el, Depth: &depth, Pierce: true}, &d); err != nil {
			return false, err
		}
		n := d.Node
		next := proto.DOMBackendNodeID(0)
		for _, sr := range n.ShadowRoots {
			if sr.ShadowRootType == proto.DOMShadowRootTypeClosed {
				next = sr.BackendNodeID
			}
		}
		if next == 0 && n.ContentDocument != nil {
			next = n.ContentDocument.BackendNodeID // a cross-origin frame in this process
			if world != "" {
				// Its document is resolved into the frame's own isolated
				// world, where the walk goes on.
				child := n.FrameID
				if child == "" {
					child = n.ContentDocument.FrameID
				}
				if child == "" {
					return true, nil
				}
				if cid, err = isolatedContext(ctx, sess, child, world); err != nil {
					return false, err
				}
			}
		}
		if next != 0 {
			var rn proto.DOMResolveNodeResult
			if err := callOn(ctx, sess, op, proto.DOMResolveNode{BackendNodeID: next, ObjectGroup: receiverGroup, ExecutionContextID: cid}, &rn); err != nil {
				return false, err
			}
			if rn.Object == nil || rn.Object.ObjectID == "" {
				return true, nil
			}
			obj = rn.Object.ObjectID
			continue
		}
		if n.FrameID != "" && frames != nil && (tag == "iframe" || tag == "frame") {
			fp := frames(ctx, n.FrameID)
			if fp == nil {
				return true, nil
			}
			sess, obj = fp, ""
			used = append(used, fp)
			if world != "" {
				if cid, err = isolatedContext(ctx, sess, n.FrameID, world); err != nil {
					return false, err
				}
			}
			continue
		}
		return true, nil
	}
	return false, &Error{Kind: KindProtocol, Op: op, Err: fmt.Errorf("focus nested deeper than %d roots and frames", limits.CredentialFocusStepsMax)}
}

// isolatedContext is the execution context of the isolated world named
// world in frame (sess's main frame when ""), made on first use: the same
// session, frame and name answer the same world while the frame's document
// lasts, and a new one after.
func isolatedContext(ctx context.Context, sess *rod.Page, frame proto.PageFrameID, world string) (proto.RuntimeExecutionContextID, error) {
	const op = "receiver"
	if frame == "" {
		frame = sess.FrameID
	}
	if frame == "" {
		var tree proto.PageGetFrameTreeResult
		if err := callOn(ctx, sess, op, proto.PageGetFrameTree{}, &tree); err != nil {
			return 0, err
		}
		if tree.FrameTree == nil || tree.FrameTree.Frame == nil {
			return 0, &Error{Kind: KindProtocol, Op: op, Err: errors.New("no frame tree")}
		}
		frame = tree.FrameTree.Frame.ID
	}
	var res proto.PageCreateIsolatedWorldResult
	if err := callOn(ctx, sess, op, proto.PageCreateIsolatedWorld{FrameID: frame, WorldName: world}, &res); err != nil {
		return 0, err
	}
	return res.ExecutionContextID, nil
}

// callOn sends one walk message on p's session and decodes its reply. The
// walk reads; it is no progress of an input operation.
func callOn(ctx context.Context, p *rod.Page, op string, req proto.Request, out any) error {
	if ctx.Err() != nil {
		return ctxError(ctx, op)
	}
	raw, err := p.Call(ctx, string(p.SessionID), req.ProtoReq(), req)
	if err != nil {
		e, _ := callError(ctx, op, err)
		return e
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &Error{Kind: KindProtocol, Op: op, Err: err}
	}
	return nil
}
