package pagejs

import (
	"strconv"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Kept functions. Some page code is sent on every action: the settling
// probe (2.4 KB) goes out twice per execute or scroll, and the renderer
// parses each declaration it is sent. A long function is therefore sent
// whole once per installation, inside a declaration that also stores it on
// the API object, and every later call to that installation sends a stub
// that names it. Both forms call it with `this` bound to the API object and
// the same arguments, so they answer alike. Measured on the bench page
// (tools/bench-live, same browser, 5 x 300 runs): a probe call took 0.94 ms
// as a stub against 1.04 ms whole, and an execute's three calls 1.30 ms
// against 1.42 ms.

// kept is one World's record: which sources have a slot, and which slots
// the current installation holds.
type kept struct {
	slot    map[string]int // function source -> slot number
	defined map[int]bool   // slots stored on the current API object
	api     proto.RuntimeRemoteObjectID
}

// declaration is what to send for fn to the installation api, and the
// slot the call defines (-1: none, the source went whole or as a stub).
func (w *World) declaration(fn string, api proto.RuntimeRemoteObjectID) (string, int) {
	if len(fn) < limits.KeptFunctionCharsMin {
		return fn, -1
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	k := &w.kept
	if k.api != api {
		k.api, k.defined = api, map[int]bool{}
	}
	n, ok := k.slot[fn]
	if !ok {
		if len(k.slot) >= limits.KeptFunctionsMax {
			return fn, -1
		}
		if k.slot == nil {
			k.slot = map[string]int{}
		}
		n = len(k.slot)
		k.slot[fn] = n
	}
	name := "this.__kept" + strconv.Itoa(n)
	if k.defined[n] {
		return "function(){return " + name + ".apply(this,arguments)}", -1
	}
	return "function(){" + name + "=(" + fn + ");return " + name + ".apply(this,arguments)}", n
}

// definedBy records that the call which sent slot n's declaration to api
// was answered: later calls there may use the stub. A call answered with
// an exception records nothing, so the next one sends the source again.
func (w *World) definedBy(api proto.RuntimeRemoteObjectID, n int) {
	if n < 0 {
		return
	}
	w.mu.Lock()
	if w.kept.api == api {
		w.kept.defined[n] = true
	}
	w.mu.Unlock()
}
