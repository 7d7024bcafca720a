package input

import (
	"context"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Effect says how far an input operation got, in the contract's effect vocabulary.
type Effect int

const (
	// EffectNone: nothing reached the page.
	EffectNone Effect = iota
	// EffectApplied: every protocol message was sent and acknowledged.
	EffectApplied
	// EffectPartial: some messages were acknowledged and the rest were never sent.
	EffectPartial
	// EffectUnknown: a message was sent but its acknowledgement never came (cancelled while in
	// flight, or the connection failed), so the page may or may not have acted on it.
	EffectUnknown
)

func (e Effect) String() string {
	switch e {
	case EffectNone:
		return "none"
	case EffectApplied:
		return "applied"
	case EffectPartial:
		return "partial"
	case EffectUnknown:
		return "unknown"
	}
	return "unknown"
}

// run issues one operation's protocol messages in order and records how far they got.
type run struct {
	ctx     context.Context
	page    *rod.Page
	session string
	op      string
	guard   KeyGuard // asked before every key (guard.go)
	acked   int
	posted  int // written with post, not yet confirmed by a later reply
	unknown bool
}

func newRun(ctx context.Context, page *rod.Page, op string) (*run, error) {
	if page == nil {
		return nil, invalid(op, "nil page")
	}
	if ctx == nil {
		return nil, invalid(op, "nil context")
	}
	return &run{ctx: ctx, page: page, session: string(page.SessionID), op: op, guard: guardOf(ctx)}, nil
}

// send issues one message unless the context already ended (rod would otherwise still write it) and
// waits for its reply.
func (r *run) send(req proto.Request) error {
	_, err := r.call(req)
	return err
}

// sendOrPost awaits the reply when last is set, and posts otherwise: the last message of an
// operation must be awaited so the operation is complete when it returns.
func (r *run) sendOrPost(req proto.Request, last bool) error {
	if last {
		return r.send(req)
	}
	return r.post(req)
}

// prep issues a message with no page-visible effect (interception switches, staging): it does not
// count as progress.
func (r *run) prep(req proto.Request) error {
	acked, posted, unknown := r.acked, r.posted, r.unknown
	_, err := r.call(req)
	r.acked, r.posted, r.unknown = acked, posted, unknown
	return err
}

// post writes req without waiting for its reply. The browser handles one session's commands in
// order, so the reply to the next send confirms it too; an operation always ends with a send. This
// saves a frame per click: Blink aligns mousemove dispatch (and so its acknowledgement) to the next
// animation frame, up to 16.7 ms, while the press right behind it flushes it at once. Key-ups are
// posted too, halving the round trips of typing.
//
// It relies on rod's cdp client (v0.116.2) writing the message synchronously before it waits on the
// context: with an already-cancelled context the call returns right after the write, and the late
// reply is discarded. TestPostKeepsOrder guards that.
func (r *run) post(req proto.Request) error {
	if r.ctx.Err() != nil {
		return ctxError(r.ctx, r.op)
	}
	written, cancel := context.WithCancel(r.ctx)
	cancel()
	_, err := r.page.Call(written, r.session, req.ProtoReq(), req)
	if err != nil && written.Err() != err {
		e, _ := callError(r.ctx, r.op, err) // the write itself failed: the connection is gone
		r.unknown = true
		return e
	}
	r.posted++
	return nil
}

func (r *run) call(req proto.Request) ([]byte, error) {
	if r.ctx.Err() != nil {
		return nil, ctxError(r.ctx, r.op)
	}
	res, err := r.page.Call(r.ctx, r.session, req.ProtoReq(), req)
	if err != nil {
		e, rejected := callError(r.ctx, r.op, err)
		if !rejected {
			r.unknown = true
		}
		return nil, e
	}
	r.acked += 1 + r.posted
	r.posted = 0
	return res, nil
}

// effect reports how far the run got, given the error that ended it (nil when it finished).
func (r *run) effect(err error) Effect {
	switch {
	case err == nil:
		return EffectApplied
	case r.unknown || r.posted > 0:
		return EffectUnknown
	case r.acked == 0:
		return EffectNone
	}
	return EffectPartial
}
