package input

import (
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// load is rod's Message.Load without its panic on an event that does not decode: a malformed or
// unexpectedly shaped event is ignored, never fatal.
func load(m *rod.Message, e proto.Event) (ok bool) {
	if m == nil || m.Method != e.ProtoEvent() {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return m.Load(e)
}
