package pagejs

import (
	"context"
	"encoding/json"
)

// callAwait is call for a function that returns a promise: the round trip
// returns once the promise settles, with its value. Settling uses it to
// wait in the page for animation frames instead of polling from Go (one
// round trip that ends at the frame, rather than one per guess). The
// function must bound its own wait: cancelling ctx ends the Go side only.
func (w *World) callAwait(ctx context.Context, fn string, args ...any) (json.RawMessage, error) {
	raw, err := marshalArgs(args)
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Op: "call", Detail: "arguments are not JSON-serializable", Err: err}
	}
	params := callParams{FunctionDeclaration: fn, ReturnByValue: true, Silent: true, AwaitPromise: true}
	for _, a := range raw {
		params.Arguments = append(params.Arguments, callArg{Value: a})
	}
	for attempt := 0; ; attempt++ {
		api, err := w.ensure(ctx)
		if err != nil {
			return nil, err
		}
		params.ObjectID = api
		var slot int
		params.FunctionDeclaration, slot = w.declaration(fn, api)
		out, err := w.page.Call(ctx, string(w.page.SessionID), "Runtime.callFunctionOn", params)
		if err != nil {
			if objectGone(err) && attempt == 0 && ctx.Err() == nil {
				w.forget(api)
				continue
			}
			if contextGone(err) {
				w.forget(api)
				return nil, &Error{Kind: KindNavigated, Op: "call", Detail: "the document was replaced during the call", Err: err}
			}
			return nil, transportError("call", err)
		}
		var res callResult
		if err := json.Unmarshal(out, &res); err != nil {
			return nil, &Error{Kind: KindInternal, Op: "call", Detail: "undecodable protocol reply", Err: err}
		}
		if res.ExceptionDetails != nil {
			return nil, exceptionError("call", &res)
		}
		w.definedBy(api, slot)
		return res.Result.Value, nil
	}
}
