package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

type beatRecord struct {
	progress, total float64
	msg             string
}

// TestHeartbeatSaysWhatIsHappening: every beat names the stages from the
// outermost in, values only grow, a handler's own progress passes through,
// and nothing is sent once the call answered.
func TestHeartbeatSaysWhatIsHappening(t *testing.T) {
	var got []beatRecord
	send := func(p, total float64, msg string) { got = append(got, beatRecord{p, total, msg}) }
	root := &Invocation{Tool: "browser_sequence"}
	root.beat = newHeartbeat(send, root.Tool, time.Now())
	defer root.beat.stop()
	if root.beat.every != time.Duration(surface.ProgressAfterMsMax)*time.Millisecond || root.beat.every > time.Second {
		t.Fatalf("beat every %v: progress must come at least once a second", root.beat.every)
	}
	root.beat.tick()
	root.Stage("Step 1 of 2: click")
	root.beat.tick()
	child := &Invocation{Tool: "browser_click", Parent: root}
	child.Stage("Clicking")
	root.beat.tick()
	child.leaveStage()
	root.beat.tick()
	root.beat.progress(1e9, 2e9, "Waiting for text")
	root.beat.progress(5, 10, "going back") // not increasing: dropped
	root.beat.tick()
	root.beat.stop()
	root.beat.tick()
	want := []string{"Running browser_sequence", "Step 1 of 2: click", "Step 1 of 2: click: Clicking", "Step 1 of 2: click", "Waiting for text", "Step 1 of 2: click"}
	if len(got) != len(want) {
		t.Fatalf("beats %+v, want messages %q", got, want)
	}
	for i, b := range got {
		if b.msg != want[i] {
			t.Errorf("beat %d says %q, want %q", i, b.msg, want[i])
		}
		if i > 0 && b.progress <= got[i-1].progress {
			t.Errorf("beat %d progress %v after %v: must grow", i, b.progress, got[i-1].progress)
		}
	}
	if got[4].total != 2e9 || got[5].total != 2e9 {
		t.Errorf("total not kept: %+v", got)
	}
}

// TestCancelledOutcome: a cancelled call reads cancelled with the effect it
// truthfully had; a call that already succeeded keeps its answer.
func TestCancelledOutcome(t *testing.T) {
	canceled := context.Canceled
	read, act := surface.CapRead, surface.CapRead|surface.CapAction
	refusal := &surface.Refusal{Reason: surface.ReasonTimeout}
	cases := []struct {
		name string
		err  error
		caps surface.Caps
		in   surface.Outcome
		st   surface.Status
		eff  surface.Effect
	}{
		{"not cancelled", nil, act, surface.Outcome{Refusal: refusal}, "", ""},
		{"succeeded first", canceled, act, surface.Outcome{Status: surface.StatusSucceeded, Effect: surface.EffectApplied}, surface.StatusSucceeded, surface.EffectApplied},
		{"read", canceled, read, surface.Outcome{Refusal: refusal}, surface.StatusCancelled, surface.EffectNone},
		{"action, unobserved", canceled, act, surface.Outcome{Refusal: refusal}, surface.StatusCancelled, surface.EffectUnknown},
		{"navigation sent", canceled, read, surface.Outcome{Refusal: refusal, Effect: surface.EffectUnknown}, surface.StatusCancelled, surface.EffectUnknown},
		{"cut short", canceled, act, surface.Outcome{Effect: surface.EffectApplied}, surface.StatusCancelled, surface.EffectPartial},
		{"partial", canceled, act, surface.Outcome{Effect: surface.EffectPartial}, surface.StatusCancelled, surface.EffectPartial},
	}
	for _, c := range cases {
		got := cancelledOutcome(c.err, "browser_x", c.caps, c.in)
		if got.Status != c.st || got.Effect != c.eff {
			t.Errorf("%s: %s/%s, want %s/%s", c.name, got.Status, got.Effect, c.st, c.eff)
		}
		if c.err != nil && got.Status == surface.StatusCancelled && got.RepeatSafe != (got.Effect == surface.EffectNone) {
			t.Errorf("%s: repeat_safe %v with effect %s", c.name, got.RepeatSafe, got.Effect)
		}
		if c.err != nil && c.in.Refusal != nil && c.st == surface.StatusCancelled && (got.Refusal != nil || got.Summary == "") {
			t.Errorf("%s: a timeout made of the cancellation stays: %+v", c.name, got)
		}
	}
}
