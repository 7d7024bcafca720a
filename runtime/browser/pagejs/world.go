package pagejs

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
)

// Limits are the bounds the wiring fills from generated constants. Request
// fields that are zero fall back to these.
type Limits struct {
	NameMax                int      // visible characters of an accessible name; 0 = uncut
	TitleMax               int      // visible characters of a document title; 0 = uncut
	CredentialAutocomplete []string // autocomplete tokens that make a field credential-class
}

// World runs Ghostlight's page code in a DevTools isolated world of a page's
// main frame. Page scripts share the DOM with it but not its JavaScript
// heap, so they can neither see nor tamper with the element registry.
//
// The world belongs to one document. When the document is replaced the
// world dies with it; the next call notices and installs a fresh one. Each
// installation gets a new serial, which the page code folds into every
// element id it issues, so an id from an earlier document answers Stale
// instead of naming an element of the new one.
type World struct {
	page *rod.Page

	mu     sync.Mutex
	api    proto.RuntimeRemoteObjectID // the installed API object; "" = none
	serial int64                       // serial of the newest installation
	limits Limits
	ready  string // document.readyState the latest call saw (TakeReadiness)
	// answered is the caller's document generation of the latest call the
	// installed world answered, plus one (0: none since the installation).
	answered uint64

	// Cross-origin frames (frames.go): where to find them, their worlds,
	// and the serial counter the page's worlds share.
	frames  FrameSource
	kids    map[proto.PageFrameID]*frameWorld
	serials *atomic.Int64

	kept kept // long functions stored on the API object (kept.go)
}

// objectGroup holds remote objects handed out by ElementObject, so they can
// be released together.
const objectGroup = "ghostlight-elements"

// NewWorld returns a World for page. Nothing is sent to the browser until
// the first call.
func NewWorld(page *rod.Page) *World {
	return &World{page: page}
}

// SetLimits replaces the bounds used when a request leaves them zero.
func (w *World) SetLimits(l Limits) {
	l.CredentialAutocomplete = append([]string(nil), l.CredentialAutocomplete...)
	w.mu.Lock()
	w.limits = l
	w.mu.Unlock()
}

// Limits returns a copy of the current bounds.
func (w *World) Limits() Limits {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.limits
	l.CredentialAutocomplete = append([]string(nil), l.CredentialAutocomplete...)
	return l
}

// call runs fn, a JavaScript function source, in the isolated world with
// `this` bound to Ghostlight's installed API object, and returns its result
// by value. args must be JSON-serializable. The world is (re)installed as
// needed and the call retried once when the document changed under it.
func (w *World) call(ctx context.Context, fn string, args ...any) (json.RawMessage, error) {
	raw, err := marshalArgs(args)
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Op: "call", Detail: "arguments are not JSON-serializable", Err: err}
	}
	res, err := w.callFunction(ctx, "call", fn, raw, true)
	if err != nil {
		return nil, err
	}
	return res.Result.Value, nil
}

// ElementObject returns the element registered under id as a remote object
// of the isolated world, for protocol methods that take an objectId (for
// example DOM.setFileInputFiles). Objects stay pinned until ReleaseObjects
// or until the document goes away.
func (w *World) ElementObject(ctx context.Context, id int) (proto.RuntimeRemoteObjectID, error) {
	arg, _ := json.Marshal(id)
	res, err := w.callFunction(ctx, "element_object", `function(id){return this.elementObject(id)}`, []json.RawMessage{arg}, false)
	if err != nil {
		return "", err
	}
	if res.Result.ObjectID == "" {
		return "", &Error{Kind: KindInternal, Op: "element_object", Detail: "no remote object returned"}
	}
	return res.Result.ObjectID, nil
}

// ReleaseObjects releases every remote object handed out by ElementObject.
func (w *World) ReleaseObjects(ctx context.Context) error {
	_, err := w.page.Call(ctx, string(w.page.SessionID), "Runtime.releaseObjectGroup",
		map[string]string{"objectGroup": objectGroup})
	if err != nil && !contextGone(err) {
		return &Error{Kind: KindUnavailable, Op: "release", Err: err}
	}
	return nil
}

type callArg struct {
	Value json.RawMessage `json:"value"`
}

type callParams struct {
	FunctionDeclaration string                      `json:"functionDeclaration"`
	ObjectID            proto.RuntimeRemoteObjectID `json:"objectId"`
	Arguments           []callArg                   `json:"arguments,omitempty"`
	ReturnByValue       bool                        `json:"returnByValue,omitempty"`
	Silent              bool                        `json:"silent"`
	ObjectGroup         string                      `json:"objectGroup,omitempty"`
	AwaitPromise        bool                        `json:"awaitPromise,omitempty"`
}

type remoteObject struct {
	Type        string                      `json:"type"`
	Value       json.RawMessage             `json:"value"`
	ObjectID    proto.RuntimeRemoteObjectID `json:"objectId"`
	Description string                      `json:"description"`
}

type callResult struct {
	Result           remoteObject `json:"result"`
	ExceptionDetails *struct {
		Text      string        `json:"text"`
		Exception *remoteObject `json:"exception"`
	} `json:"exceptionDetails"`
}

// callFunction is the one hot-path round trip: Runtime.callFunctionOn on the
// API object. The object id names the isolated world uniquely (it carries
// the renderer's isolate id), so a call can never land in a page context
// that happens to reuse a numeric context id after a cross-process
// navigation.
func (w *World) callFunction(ctx context.Context, op, fn string, args []json.RawMessage, byValue bool) (*callResult, error) {
	return w.callFunctionRetry(ctx, op, fn, args, byValue, true)
}

// Answered records that the installed world answered a call on the
// caller's document generation gen.
func (w *World) Answered(gen uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.api != "" {
		w.answered = gen + 1
	}
}

// Fresh reports whether the world is installed and answered a call on
// document generation gen: a call sent to it now will not meet a document
// it was not installed in (unless that document goes away meanwhile).
func (w *World) Fresh(gen uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.api != "" && w.answered == gen+1
}

// callOnce is call whose function call is sent exactly once: when the
// installation it was sent to is gone, it fails instead of installing again
// and repeating it. A caller that ordered other messages after this one's
// (browser.NewSendMark) needs that: a repeat would run after them.
func (w *World) callOnce(ctx context.Context, fn string, args ...any) (json.RawMessage, error) {
	raw, err := marshalArgs(args)
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Op: "call", Detail: "arguments are not JSON-serializable", Err: err}
	}
	res, err := w.callFunctionRetry(ctx, "call", fn, raw, true, false)
	if err != nil {
		return nil, err
	}
	return res.Result.Value, nil
}

func (w *World) callFunctionRetry(ctx context.Context, op, fn string, args []json.RawMessage, byValue, retry bool) (*callResult, error) {
	params := callParams{FunctionDeclaration: fn, ReturnByValue: byValue, Silent: true}
	for _, a := range args {
		params.Arguments = append(params.Arguments, callArg{Value: a})
	}
	if !byValue {
		params.ObjectGroup = objectGroup
	}
	for attempt := 0; ; attempt++ {
		api, err := w.ensure(ctx)
		if err != nil {
			return nil, err
		}
		params.ObjectID = api
		var slot int
		params.FunctionDeclaration, slot = w.declaration(fn, api)
		raw, err := w.page.Call(ctx, string(w.page.SessionID), "Runtime.callFunctionOn", params)
		if err != nil {
			// The API object was not found: the call never ran, so it is
			// safe to install into the new document and run it there once.
			if objectGone(err) && retry && attempt == 0 && ctx.Err() == nil {
				w.forget(api)
				continue
			}
			if objectGone(err) && !retry {
				w.forget(api)
				return nil, &Error{Kind: KindNavigated, Op: op, Detail: "the document was replaced before the call", Err: err}
			}
			if contextGone(err) {
				w.forget(api)
				return nil, &Error{Kind: KindNavigated, Op: op, Detail: "the document was replaced during the call", Err: err}
			}
			return nil, transportError(op, err)
		}
		var res callResult
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, &Error{Kind: KindInternal, Op: op, Detail: "undecodable protocol reply", Err: err}
		}
		if res.ExceptionDetails != nil {
			return nil, exceptionError(op, &res)
		}
		w.definedBy(api, slot)
		return &res, nil
	}
}

// ensure returns the API object of a live installation, installing one if
// there is none.
func (w *World) ensure(ctx context.Context) (proto.RuntimeRemoteObjectID, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.api != "" {
		return w.api, nil
	}
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		next := w.nextSerial()
		api, err := w.install(ctx, next)
		if err == nil {
			w.serial = next
			w.api, w.answered = api, 0
			return api, nil
		}
		lastErr = err
		if !contextGone(err) || ctx.Err() != nil {
			break
		}
	}
	if e := (*Error)(nil); errors.As(lastErr, &e) {
		return "", lastErr
	}
	return "", transportError("install", lastErr)
}

func (w *World) install(ctx context.Context, serial int64) (proto.RuntimeRemoteObjectID, error) {
	sid := string(w.page.SessionID)
	frame := w.page.FrameID
	if frame == "" {
		raw, err := w.page.Call(ctx, sid, "Page.getFrameTree", struct{}{})
		if err != nil {
			return "", err
		}
		var tree proto.PageGetFrameTreeResult
		if err := json.Unmarshal(raw, &tree); err != nil || tree.FrameTree == nil {
			return "", &Error{Kind: KindInternal, Op: "install", Detail: "undecodable frame tree"}
		}
		frame = tree.FrameTree.Frame.ID
	}
	raw, err := w.page.Call(ctx, sid, "Page.createIsolatedWorld", proto.PageCreateIsolatedWorld{
		FrameID:   frame,
		WorldName: "ghostlight",
	})
	if err != nil {
		return "", err
	}
	var created proto.PageCreateIsolatedWorldResult
	if err := json.Unmarshal(raw, &created); err != nil {
		return "", &Error{Kind: KindInternal, Op: "install", Detail: "undecodable isolated world reply", Err: err}
	}
	raw, err = w.page.Call(ctx, sid, "Runtime.evaluate", map[string]any{
		"expression": installScript(serial),
		"contextId":  created.ExecutionContextID,
		"silent":     true,
	})
	if err != nil {
		return "", err
	}
	var res callResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return "", &Error{Kind: KindInternal, Op: "install", Detail: "undecodable install reply", Err: err}
	}
	if res.ExceptionDetails != nil {
		return "", exceptionError("install", &res)
	}
	if res.Result.ObjectID == "" {
		return "", &Error{Kind: KindInternal, Op: "install", Detail: "install script returned no object"}
	}
	return res.Result.ObjectID, nil
}

// forget drops api if it is still the current installation, so the next
// call installs afresh.
func (w *World) forget(api proto.RuntimeRemoteObjectID) {
	w.mu.Lock()
	if w.api == api {
		w.api, w.answered = "", 0
	}
	w.mu.Unlock()
}

// objectGone reports protocol errors that mean the isolated world (or the
// object naming it) no longer existed when the call arrived: the document
// was replaced and nothing ran.
func objectGone(err error) bool {
	m, ok := cdpMessage(err)
	return ok && (strings.Contains(m, "Cannot find context") ||
		strings.Contains(m, "Could not find object") ||
		strings.Contains(m, "Cannot find default execution context") ||
		strings.Contains(m, "No frame for given id"))
}

// contextGone adds the error for a world destroyed while a call ran.
func contextGone(err error) bool {
	m, ok := cdpMessage(err)
	return objectGone(err) || (ok && strings.Contains(m, "Execution context was destroyed"))
}

func cdpMessage(err error) (string, bool) {
	var ce *cdp.Error
	if !errors.As(err, &ce) {
		return "", false
	}
	return ce.Message, true
}

func transportError(op string, err error) error {
	if err == nil {
		return &Error{Kind: KindUnavailable, Op: op}
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Kind: KindUnavailable, Op: op, Err: err}
}

// errPrefix marks exceptions thrown on purpose by the page code (only
// ElementObject throws; every other entry point returns an envelope).
const errPrefix = "GLERR:"

func exceptionError(op string, res *callResult) error {
	d := res.ExceptionDetails
	desc := d.Text
	if d.Exception != nil {
		var s string
		if d.Exception.Description != "" {
			desc = d.Exception.Description
		} else if json.Unmarshal(d.Exception.Value, &s) == nil && s != "" {
			desc = s
		}
	}
	if i := strings.Index(desc, errPrefix); i >= 0 {
		var je jsError
		rest := desc[i+len(errPrefix):]
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			rest = rest[:j]
		}
		if json.Unmarshal([]byte(rest), &je) == nil {
			return je.toError(op)
		}
	}
	return &Error{Kind: KindInternal, Op: op, Detail: "page code threw: " + firstLine(desc)}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func marshalArgs(args []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(args))
	for _, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
