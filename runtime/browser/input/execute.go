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
	// Synchronous reports that the script ran to its end in the task its one evaluation started (it
	// awaited nothing, and no second form was tried): a message sent right behind that evaluation
	// runs after all of it.
	Synchronous bool
}

// Execution tuning. execGrace lets V8's own timeout (Runtime.evaluate's timeout, which terminates a
// synchronous loop) report before the Go-side deadline fires; terminateWait bounds the follow-up
// Runtime.terminateExecution, which the browser serves even while the page's script is spinning.
const (
	execGrace     = time.Duration(limits.ScriptGraceMsMax) * time.Millisecond
	terminateWait = time.Duration(limits.ScriptStopMsMax) * time.Millisecond
	execGroup     = "ghostlight-execute"
)

// evalReply is Runtime.evaluate's reply to the runner: a short primitive string, or the exception
// of a runner form that did not compile.
type evalReply struct {
	Result struct {
		Value json.RawMessage `json:"value"`
	} `json:"result"`
	ExceptionDetails *struct {
		Text      string `json:"text"`
		Exception *struct {
			ClassName   string `json:"className"`
			Description string `json:"description"`
		} `json:"exception"`
	} `json:"exceptionDetails"`
}

// Execute evaluates script in the page's main world (the page's own globals, as the model asked) the
// way the console does: its completion value is the result, top-level await works, a repeated
// `let`/`const` does not collide with an earlier run, and a promise result is awaited. The result is
// serialized and cut inside the page (execute_page.go), so no more than the bound crosses the wire. timeout bounds the script: Runtime.evaluate's own timeout stops a
// synchronous loop such as while(true){}, and past timeout plus a grace Runtime.terminateExecution is
// sent and the call returns a KindTimeout error; the page stays usable. Value and Message are bounded
// to maxResultChars characters (code points). A throw is a result (Thrown), not an error. A script
// that navigates returns normally if it finished first, or a KindNavigated error if the document
// went away while its promise was pending.
func Execute(ctx context.Context, page *rod.Page, script string, timeout time.Duration, maxResultChars int) (ExecResult, error) {
	return ExecuteMarked(ctx, page, script, timeout, maxResultChars, "")
}

// ExecuteMarked is Execute whose first evaluation carries mark (browser.NewSendMark) in its
// object group, so a caller can send a message right behind it.
func ExecuteMarked(ctx context.Context, page *rod.Page, script string, timeout time.Duration, maxResultChars int, mark string) (ExecResult, error) {
	return ExecuteKept(ctx, page, nil, 0, script, timeout, maxResultChars, mark)
}

// ExecuteKept is ExecuteMarked through run, the page's kept runner (execute_kept.go), on document
// generation gen. A nil run keeps nothing.
func ExecuteKept(ctx context.Context, page *rod.Page, run *Runner, gen uint64, script string, timeout time.Duration, maxResultChars int, mark string) (ExecResult, error) {
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
	exprs := []string{evalExpr(script, maxResultChars)}
	if hasAwait(script) {
		exprs = splicedExprs(script, maxResultChars)
	}
	// The kept runner runs a script that needs no splice. Runtime.callFunctionOn has no timeout
	// of its own, so the call stops such a script itself once timeout has passed.
	kept := proto.RuntimeRemoteObjectID("")
	if len(exprs) == 1 {
		kept = run.held(gen)
	}
	grace := execGrace
	if kept != "" {
		grace = 0
	}
	evalCtx, cancel := context.WithTimeout(ctx, timeout+grace)
	defer cancel()
	r.ctx = evalCtx
	// A by-value result holds no remote object; only an exception's object (or a call that failed
	// part way) may leave something in the group, and only then is it released: a round trip
	// fewer for every script that returns.
	group := execGroup
	if mark != "" {
		group += "-" + mark
	}
	held := false
	defer func() {
		if held {
			releaseGroup(ctx, page, group)
		}
	}()

	var reply evalReply
	tries := 0 // forms sent before this one
	for i := 0; i < len(exprs); i++ {
		if i > 0 {
			tries++
		}
		start := time.Now()
		var raw []byte
		var err error
		if i == 0 && kept != "" {
			raw, err = callKept(r, kept, script, maxResultChars, group)
			if err != nil && handleGone(err) && ctx.Err() == nil {
				// Its document went away and nothing ran: send the source instead.
				run.forget(kept)
				kept = ""
				tries++
				i = -1
				continue
			}
		} else {
			raw, err = r.call(proto.RuntimeEvaluate{
				Expression:    exprs[i],
				ObjectGroup:   group,
				ReturnByValue: true,
				AwaitPromise:  true,
				Timeout:       proto.RuntimeTimeDelta(timeout.Milliseconds()),
			})
			if err == nil && len(exprs) == 1 {
				run.keep(ctx, page, gen) // behind this call's messages, for the next script
			}
		}
		if err == nil {
			reply = evalReply{}
			err = decode(op, raw, &reply)
		}
		if err != nil {
			held = true
			return ExecResult{}, execFailure(ctx, evalCtx, page, op, err, time.Since(start) >= timeout)
		}
		if d := reply.ExceptionDetails; d != nil {
			held = true
			// The runner catches everything the script throws: an exception here is a splice
			// that did not compile (nothing ran), or the script's syntax error itself.
			if d.Exception != nil && d.Exception.ClassName == "SyntaxError" && i+1 < len(exprs) {
				continue
			}
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg = d.Exception.Description
			}
			msg, cut := bound(msg, maxResultChars)
			return ExecResult{Thrown: true, Message: msg, Truncated: cut}, nil
		}
		var out string
		if json.Unmarshal(reply.Result.Value, &out) != nil || len(out) < 2 {
			return ExecResult{}, &Error{Kind: KindProtocol, Op: op, Err: errors.New("unexpected runner reply")}
		}
		if out[0] == 'E' && i == 0 && len(exprs) == 1 { // eval refused here: splice the script in instead
			exprs = splicedExprs(script, maxResultChars)
			i = -1
			tries++
			continue
		}
		text, cut := bound(out[2:], maxResultChars)
		cut = cut || out[1] == '1'
		sync := tries == 0 && i == 0 && (out[0] == 'v' || out[0] == 't')
		if out[0] == 't' || out[0] == 'T' {
			return ExecResult{Thrown: true, Message: text, Truncated: cut, Synchronous: sync}, nil
		}
		return ExecResult{Value: text, Truncated: cut, Synchronous: sync}, nil
	}
	return ExecResult{}, &Error{Kind: KindProtocol, Op: op, Err: errors.New("no runner form compiled")}
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

func releaseGroup(ctx context.Context, page *rod.Page, group string) {
	if ctx.Err() != nil {
		return // the group is released with the document anyway
	}
	req := proto.RuntimeReleaseObjectGroup{ObjectGroup: group}
	_, _ = page.Call(ctx, string(page.SessionID), req.ProtoReq(), req)
}

func decode(op string, raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return &Error{Kind: KindProtocol, Op: op, Err: fmt.Errorf("decode reply: %w", err)}
	}
	return nil
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
