package pagejs

import (
	"context"
	"encoding/json"
)

// jsError is the error half of the envelope every page entry point returns.
type jsError struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	Count  int    `json:"count"`
	Role   string `json:"role"`
	Name   string `json:"name"`
}

func (je jsError) toError(op string) error {
	return &Error{Kind: kindFromName(je.Kind), Op: op, Detail: je.Detail, Count: je.Count, Role: je.Role, Name: je.Name}
}

type envelope struct {
	OK  json.RawMessage `json:"ok"`
	Err *jsError        `json:"err"`
	RS  string          `json:"rs"` // document.readyState when the call ran
}

// invoke calls the installed API method with one argument object and
// decodes the envelope's result into out (which may be nil).
func (w *World) invoke(ctx context.Context, method string, arg any, out any) error {
	b, err := json.Marshal(arg)
	if err != nil {
		return &Error{Kind: KindBadRequest, Op: method, Detail: "request is not JSON-serializable", Err: err}
	}
	// Cross-origin frames (frames.go): perception spreads over them, and an
	// id goes to the world that issued it.
	if spreadMethods[method] || docMethods[method] && elementID(b) == 0 {
		if done, err := w.spread(ctx, method, b, out); done {
			return err
		}
	} else if done, err := w.inFrame(ctx, method, b, out); done {
		return err
	}
	return w.invokeLocal(ctx, method, b, out)
}

// invokeLocal calls the method in this world only.
func (w *World) invokeLocal(ctx context.Context, method string, b []byte, out any) error {
	res, err := w.callFunction(ctx, method, "function(a){return this."+method+"(a)}", []json.RawMessage{b}, true)
	if err != nil {
		return err
	}
	var text string
	if err := json.Unmarshal(res.Result.Value, &text); err != nil {
		return &Error{Kind: KindInternal, Op: method, Detail: "page reply is not a string", Err: err}
	}
	var env envelope
	if err := json.Unmarshal([]byte(text), &env); err != nil {
		return &Error{Kind: KindInternal, Op: method, Detail: "undecodable page reply", Err: err}
	}
	if env.RS != "" {
		w.mu.Lock()
		w.ready = env.RS
		w.mu.Unlock()
	}
	if env.Err != nil {
		return env.Err.toError(method)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.OK, out); err != nil {
		return &Error{Kind: KindInternal, Op: method, Detail: "undecodable page result", Err: err}
	}
	return nil
}

// limitsFor fills zero request bounds from the world's limits.
func (w *World) limitsFor(nameMax int, cred []string) (int, []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if nameMax <= 0 {
		nameMax = w.limits.NameMax
	}
	if cred == nil {
		cred = w.limits.CredentialAutocomplete
	}
	return nameMax, cred
}

// TakeReadiness returns the document.readyState the latest call into this
// world saw, and forgets it, so a caller reads only what its own call saw
// ("" when no call ran since the last take).
func (w *World) TakeReadiness() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.ready
	w.ready = ""
	return r
}
