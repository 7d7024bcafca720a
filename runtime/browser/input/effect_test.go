package input

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// TestPostKeepsOrder guards run.post: messages written without awaiting their replies reach the page
// in order, and the reply to a later send confirms them.
func TestPostKeepsOrder(t *testing.T) {
	p := newPage(t, doc(keyPage))
	r, err := newRun(tctx(t, 5*time.Second), p, "test")
	if err != nil {
		t.Fatal(err)
	}
	const text = "orderedtext"
	for i, c := range text {
		down, up := keyEvents(CharKey(c), 0)
		if err := r.post(down); err != nil {
			t.Fatal(err)
		}
		if err := r.sendOrPost(up, i == len(text)-1); err != nil {
			t.Fatal(err)
		}
	}
	if r.posted != 0 || r.acked != 2*len(text) || r.effect(nil) != EffectApplied {
		t.Errorf("after the final send: posted %d, acked %d", r.posted, r.acked)
	}
	if v := evalStr(t, p, "i.value"); v != text {
		t.Errorf("value %q, want %q", v, text)
	}
	// A posted message not yet confirmed leaves the effect unknown.
	if err := r.post(proto.InputInsertText{Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if got := r.effect(errors.New("stopped")); got != EffectUnknown {
		t.Errorf("effect with an unconfirmed post = %v, want unknown", got)
	}
}

func TestEffectAccounting(t *testing.T) {
	p := newPage(t, doc(`<p>x</p>`))
	ctx, cancel := context.WithCancel(context.Background())
	r, _ := newRun(ctx, p, "test")
	if err := r.send(proto.InputInsertText{Text: ""}); err != nil {
		t.Fatal(err)
	}
	// The browser rejecting a command means it took no effect: progress so far is partial.
	err := r.send(proto.InputDispatchKeyEvent{Type: "bogus"})
	if KindOf(err) != KindProtocol || r.effect(err) != EffectPartial {
		t.Errorf("rejected command: %v, effect %v", err, r.effect(err))
	}
	cancel()
	err = r.send(proto.InputInsertText{Text: "x"})
	if KindOf(err) != KindCancelled || r.effect(err) != EffectPartial {
		t.Errorf("after cancel: %v, effect %v", err, r.effect(err))
	}
	if !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("message %q", err)
	}
	for e, want := range map[Effect]string{EffectNone: "none", EffectApplied: "applied", EffectPartial: "partial", EffectUnknown: "unknown"} {
		if e.String() != want {
			t.Errorf("%d.String() = %q", e, e.String())
		}
	}
}
