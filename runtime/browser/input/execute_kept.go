package input

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Runner keeps, for one page target, a handle on the script runner (runnerFn)
// in the main world of its current document. With it an execute sends the
// model's script and a one-line call naming the handle. Without it, the 4 KB
// runner source travels with every script, and V8 compiles it anew for each
// new script: on headless Chromium 156, an execute of a fresh script took
// 1.48 ms with the source and 1.07 ms through the handle (medians of 500).
//
// The handle is an inspector remote object. No page global refers to it, so
// page scripts can neither see nor replace it. The first execute of a
// document sends the source as before. After it has answered, the handle is
// made behind it, and it is used only on the document generation it was made
// on. A handle whose document went away fails before anything runs, and the
// call sends the source instead.
type Runner struct {
	mu     sync.Mutex
	fn     proto.RuntimeRemoteObjectID
	gen    uint64 // document generation + 1 that fn belongs to; 0: none
	making bool
}

// NewRunner returns a Runner holding no handle yet.
func NewRunner() *Runner { return &Runner{} }

const (
	// runnerGroup holds the kept runner; the document's end releases it.
	runnerGroup = "ghostlight-runner"
	// keptCall calls the kept runner (this) with the call's arguments.
	keptCall = "function(m,s,f,u){return this(m,s,f,u)}"
	// runnerKeepWait bounds making the handle, after the execute answered.
	runnerKeepWait = time.Duration(limits.RunnerKeepMsMax) * time.Millisecond
)

// held is the handle kept for document generation gen ("" when none is).
func (r *Runner) held(gen uint64) proto.RuntimeRemoteObjectID {
	if r == nil {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gen != gen+1 {
		return ""
	}
	return r.fn
}

// forget drops fn, whose document went away.
func (r *Runner) forget(fn proto.RuntimeRemoteObjectID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fn == fn {
		r.fn, r.gen = "", 0
	}
}

// keep makes the handle for generation gen in the background, unless it is
// kept or being made. It goes behind every message the execute sent, so it
// delays none of them.
//
// The runner is defined in whatever document is current when the message
// arrives. If a navigation came first, the handle names the newer document
// under the older generation. It is then used only by calls made before the
// navigation is seen, and those would meet that document anyway.
func (r *Runner) keep(ctx context.Context, page *rod.Page, gen uint64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.making || r.gen == gen+1 {
		r.mu.Unlock()
		return
	}
	r.making = true
	r.mu.Unlock()
	go func() {
		kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), runnerKeepWait)
		defer cancel()
		req := proto.RuntimeEvaluate{Expression: "(" + runnerFn + ")", ObjectGroup: runnerGroup}
		raw, err := page.Call(kctx, string(page.SessionID), req.ProtoReq(), req)
		var res proto.RuntimeEvaluateResult
		if err == nil {
			err = json.Unmarshal(raw, &res)
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.making = false
		if err == nil && res.ExceptionDetails == nil && res.Result != nil && res.Result.ObjectID != "" {
			r.fn, r.gen = res.Result.ObjectID, gen+1
		}
	}()
}

// callKept runs script (mode 0) through the kept runner fn. The call does
// not await a promise. Runtime.callFunctionOn told to await answers even a
// plain value only after the command sent behind it (measured), and then
// settling's probe, sent right behind the script, proves nothing and is
// sent again. So a value comes back at once, in the task that ran the
// script. A promise comes back as a handle, is awaited with
// Runtime.awaitPromise, and is released after.
func callKept(r *run, fn proto.RuntimeRemoteObjectID, script string, maxChars int, group string) ([]byte, error) {
	args := []*proto.RuntimeCallArgument{{Value: gson.New(0)}, {Value: gson.New(script)}, {Value: gson.New(nil)}, {Value: gson.New(runnerUnits(maxChars))}}
	raw, err := r.call(proto.RuntimeCallFunctionOn{ObjectID: fn, FunctionDeclaration: keptCall, Arguments: args, ObjectGroup: group})
	if err != nil {
		return nil, err
	}
	var res struct {
		Result struct {
			Subtype  string                      `json:"subtype"`
			ObjectID proto.RuntimeRemoteObjectID `json:"objectId"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if json.Unmarshal(raw, &res) != nil || res.ExceptionDetails != nil || res.Result.Subtype != "promise" || res.Result.ObjectID == "" {
		return raw, nil
	}
	raw, err = r.call(proto.RuntimeAwaitPromise{PromiseObjectID: res.Result.ObjectID, ReturnByValue: true})
	if err == nil {
		_ = r.post(proto.RuntimeReleaseObject{ObjectID: res.Result.ObjectID})
	}
	return raw, err
}

// handleGone reports a call refused because the object it named no longer
// exists (its document went away): nothing ran.
func handleGone(err error) bool {
	var ce *cdp.Error
	return errors.As(err, &ce) &&
		(strings.Contains(ce.Message, "Cannot find context") || strings.Contains(ce.Message, "Could not find object"))
}
