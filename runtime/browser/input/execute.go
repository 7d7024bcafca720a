package input

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ExecResult is what a script evaluated to.
type ExecResult struct {
	// Value is the JSON text of the result ("2", "\"abc\"", "{\"a\":1}"), or, for a value JSON cannot
	// carry, its DevTools description: "undefined", "NaN", "12n", "Symbol(x)", a function's source,
	// "div#id.class" for an element, "Window".
	Value string
	// Truncated reports that Value or Message was cut to maxResultChars characters.
	Truncated bool
	// Thrown reports that the script threw (or its promise rejected); Message then holds the bounded
	// exception description and Value is empty.
	Thrown  bool
	Message string
}

// Execution tuning. execGrace lets V8's own timeout (Runtime.evaluate's timeout, which terminates a
// synchronous loop) report before the Go-side deadline fires; terminateWait bounds the follow-up
// Runtime.terminateExecution, which the browser serves even while the page's script is spinning.
const (
	execGrace     = 250 * time.Millisecond
	terminateWait = time.Second
	execGroup     = "ghostlight-execute"
)

// serializeFn turns an object result into JSON text in the page, cut to limit UTF-16 units so a
// huge value never crosses the wire whole; it returns undefined when JSON cannot represent it.
const serializeFn = `function (limit) {
	let s;
	try { s = JSON.stringify(this); } catch (e) { return undefined; }
	return typeof s === "string" ? s.slice(0, limit) : undefined;
}`

// Subtypes whose JSON text says something; the others (node, error, regexp, date, map, set, proxy,
// promise, ...) are reported by their description, which JSON.stringify would flatten to "{}".
var jsonSubtypes = map[string]bool{"": true, "array": true, "typedarray": true}

type remoteObject struct {
	Type                string          `json:"type"`
	Subtype             string          `json:"subtype"`
	Value               json.RawMessage `json:"value"`
	UnserializableValue string          `json:"unserializableValue"`
	Description         string          `json:"description"`
	ObjectID            string          `json:"objectId"`
}

// callFunctionOn is Runtime.callFunctionOn with plain Go argument values.
type callFunctionOn struct {
	FunctionDeclaration string         `json:"functionDeclaration"`
	ObjectID            string         `json:"objectId"`
	Arguments           []callArgument `json:"arguments"`
	ReturnByValue       bool           `json:"returnByValue"`
}

type callArgument struct {
	Value any `json:"value"`
}

func (callFunctionOn) ProtoReq() string { return "Runtime.callFunctionOn" }

type evalReply struct {
	Result           remoteObject `json:"result"`
	ExceptionDetails *struct {
		Text      string        `json:"text"`
		Exception *remoteObject `json:"exception"`
	} `json:"exceptionDetails"`
}

// Execute evaluates script in the page's main world (the page's own globals, as the model asked) in
// REPL mode, so top-level await works and a repeated `let`/`const` does not collide with an earlier
// run, and awaits a promise result. timeout bounds the script: Runtime.evaluate's own timeout stops a
// synchronous loop such as while(true){}, and past timeout plus a grace Runtime.terminateExecution is
// sent and the call returns a KindTimeout error; the page stays usable. Value and Message are bounded
// to maxResultChars characters (code points). A throw is a result (Thrown), not an error. A script
// that navigates returns normally if it finished first, or a KindNavigated error if the document
// went away while its promise was pending.
func Execute(ctx context.Context, page *rod.Page, script string, timeout time.Duration, maxResultChars int) (ExecResult, error) {
	const op = "execute"
	switch {
	case timeout <= 0:
		return ExecResult{}, invalid(op, "timeout %v not positive", timeout)
	case maxResultChars < 1:
		return ExecResult{}, invalid(op, "max result chars %d below 1", maxResultChars)
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return ExecResult{}, err
	}
	evalCtx, cancel := context.WithTimeout(ctx, timeout+execGrace)
	defer cancel()
	r.ctx = evalCtx
	defer releaseGroup(ctx, page)

	start := time.Now()
	raw, err := r.call(proto.RuntimeEvaluate{
		Expression:   script,
		ObjectGroup:  execGroup,
		ReplMode:     true,
		AwaitPromise: true,
		Timeout:      proto.RuntimeTimeDelta(timeout.Milliseconds()),
	})
	var reply evalReply
	if err == nil {
		err = decode(op, raw, &reply)
	}
	// REPL mode hands back a promise the script returned without awaiting it: await it here.
	if err == nil && reply.ExceptionDetails == nil && reply.Result.Subtype == "promise" && reply.Result.ObjectID != "" {
		raw, err = r.call(proto.RuntimeAwaitPromise{PromiseObjectID: proto.RuntimeRemoteObjectID(reply.Result.ObjectID)})
		if err == nil {
			reply = evalReply{}
			err = decode(op, raw, &reply)
		}
	}
	if err != nil {
		return ExecResult{}, execFailure(ctx, evalCtx, page, op, err, time.Since(start) >= timeout)
	}

	if d := reply.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = d.Exception.Description
		} else if d.Exception != nil && len(d.Exception.Value) > 0 {
			msg = "Uncaught " + string(d.Exception.Value)
		}
		msg, cut := bound(msg, maxResultChars)
		return ExecResult{Thrown: true, Message: msg, Truncated: cut}, nil
	}

	value, err := render(r, reply.Result, maxResultChars)
	if err != nil {
		return ExecResult{}, execFailure(ctx, evalCtx, page, op, err, false)
	}
	value, cut := bound(value, maxResultChars)
	return ExecResult{Value: value, Truncated: cut}, nil
}

// execFailure maps an evaluation failure. When the script's own deadline passed (or the caller's
// deadline did), a script may still be running: terminate it so the page stays usable. An explicit
// cancellation (a dialog opening inside the script) leaves the script alone.
func execFailure(ctx, evalCtx context.Context, page *rod.Page, op string, err error, pastTimeout bool) error {
	callerDeadline := errors.Is(ctx.Err(), context.DeadlineExceeded)
	scriptDeadline := ctx.Err() == nil && errors.Is(evalCtx.Err(), context.DeadlineExceeded)
	// V8 reports a script stopped by Runtime.evaluate's timeout as a bare internal error.
	v8Timeout := ctx.Err() == nil && evalCtx.Err() == nil && KindOf(err) == KindProtocol && pastTimeout
	if callerDeadline || scriptDeadline {
		terminate(ctx, page)
	}
	switch {
	case scriptDeadline || v8Timeout:
		return &Error{Kind: KindTimeout, Op: op, Err: fmt.Errorf("script did not finish within its timeout"), ctxErr: context.DeadlineExceeded}
	case ctx.Err() != nil:
		return ctxError(ctx, op)
	}
	return err
}

func terminate(ctx context.Context, page *rod.Page) {
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), terminateWait)
	defer cancel()
	_, _ = page.Call(tctx, string(page.SessionID), proto.RuntimeTerminateExecution{}.ProtoReq(), proto.RuntimeTerminateExecution{})
}

func releaseGroup(ctx context.Context, page *rod.Page) {
	if ctx.Err() != nil {
		return // the group is released with the document anyway
	}
	req := proto.RuntimeReleaseObjectGroup{ObjectGroup: execGroup}
	_, _ = page.Call(ctx, string(page.SessionID), req.ProtoReq(), req)
}

func decode(op string, raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return &Error{Kind: KindProtocol, Op: op, Err: fmt.Errorf("decode reply: %w", err)}
	}
	return nil
}

// render gives a result's JSON text, or its description when JSON cannot carry it.
func render(r *run, o remoteObject, maxChars int) (string, error) {
	switch {
	case o.UnserializableValue != "":
		return o.UnserializableValue, nil
	case o.Type == "undefined":
		return "undefined", nil
	case o.ObjectID == "" && len(o.Value) > 0:
		return jsonText(o.Value), nil
	case o.ObjectID == "" || o.Type != "object" || !jsonSubtypes[o.Subtype]:
		return o.Description, nil
	}
	// Every code point is at most two UTF-16 units: this many units keeps more than maxChars points,
	// so truncation is still detected after the page-side cut.
	limit := 2*maxChars + 2
	raw, err := r.call(callFunctionOn{
		FunctionDeclaration: serializeFn,
		ObjectID:            o.ObjectID,
		Arguments:           []callArgument{{Value: limit}},
		ReturnByValue:       true,
	})
	if err != nil {
		return "", err
	}
	var reply evalReply
	if err := decode(r.op, raw, &reply); err != nil {
		return "", err
	}
	var s string
	if reply.ExceptionDetails != nil || json.Unmarshal(reply.Result.Value, &s) != nil {
		return o.Description, nil // cyclic, or not representable
	}
	return s, nil
}

// jsonText re-encodes a by-value primitive compactly with its characters as UTF-8: the browser
// escapes non-ASCII characters in strings, which would cost six characters of the caller's bound
// per character.
func jsonText(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep the browser's own spelling
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// bound cuts s to at most n code points.
func bound(s string, n int) (string, bool) {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], true
		}
		i++
	}
	return s, false
}
