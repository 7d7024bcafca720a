package pipeline

import (
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// The one effect fold of every composite, fed recorded step envelopes.
func TestCompositeFold(t *testing.T) {
	ok := func(e surface.Effect) surface.Envelope {
		return surface.Envelope{Status: surface.StatusSucceeded, Effect: e, RepeatSafe: true}
	}
	bad := func(s surface.Status, e surface.Effect) surface.Envelope {
		return surface.Envelope{Status: s, Effect: e}
	}
	cases := []struct {
		name   string
		steps  []surface.Envelope
		stop   bool
		effect surface.Effect
		status surface.Status
		safe   bool
	}{
		{"nothing", []surface.Envelope{ok(surface.EffectNone), ok(surface.EffectNone)}, false, surface.EffectNone, surface.StatusSucceeded, true},
		{"applied", []surface.Envelope{ok(surface.EffectNone), ok(surface.EffectApplied)}, false, surface.EffectApplied, surface.StatusSucceeded, true},
		{"a partial step", []surface.Envelope{ok(surface.EffectApplied), ok(surface.EffectPartial)}, false, surface.EffectPartial, surface.StatusSucceeded, true},
		{"failed after applied", []surface.Envelope{ok(surface.EffectApplied), bad(surface.StatusFailed, surface.EffectNone)}, false, surface.EffectPartial, surface.StatusFailed, false},
		{"failed, applied itself", []surface.Envelope{bad(surface.StatusFailed, surface.EffectApplied)}, false, surface.EffectPartial, surface.StatusFailed, false},
		{"failed first", []surface.Envelope{bad(surface.StatusBlocked, surface.EffectNone)}, false, surface.EffectNone, surface.StatusFailed, false},
		{"unknown status", []surface.Envelope{ok(surface.EffectApplied), bad(surface.StatusUnknown, surface.EffectNone)}, false, surface.EffectUnknown, surface.StatusUnknown, false},
		{"unknown effect", []surface.Envelope{{Status: surface.StatusSucceeded, Effect: surface.EffectUnknown, RepeatSafe: true}}, false, surface.EffectUnknown, surface.StatusSucceeded, false},
		{"cut short after applied", []surface.Envelope{ok(surface.EffectApplied)}, true, surface.EffectPartial, surface.StatusFailed, false},
		{"not repeat-safe", []surface.Envelope{{Status: surface.StatusSucceeded, Effect: surface.EffectApplied}}, false, surface.EffectApplied, surface.StatusSucceeded, false},
	}
	for _, tc := range cases {
		c := Children(nil, "")
		for _, e := range tc.steps {
			c.Fold(e)
		}
		if tc.stop {
			c.Stop()
		}
		if c.Effect() != tc.effect || c.Status() != tc.status || c.RepeatSafe() != tc.safe {
			t.Errorf("%s: effect %s status %s repeat-safe %v, want %s %s %v", tc.name, c.Effect(), c.Status(), c.RepeatSafe(), tc.effect, tc.status, tc.safe)
		}
	}
}

// Bound prepares a step through its generated accessors: the composite's
// timeout for a step at the default, its own otherwise, clipped to the
// ceiling; a step with under the least timeout left is not run.
func TestCompositeBound(t *testing.T) {
	c, _, cancel := NewComposite(t.Context(), nil, time.Hour, 2000)
	defer cancel()
	def := &surface.BrowserClickArgs{TimeoutMs: surface.TimeoutMsDefault}
	own := &surface.BrowserWaitArgs{TimeoutMs: 1234}
	if !c.Bound("1", def) || !c.Bound("2", own) {
		t.Fatal("a step with an hour left did not run")
	}
	if def.TimeoutMs != 2000 || own.TimeoutMs != 1234 || len(c.Clipped) != 0 {
		t.Fatalf("bounds: default step %d (want 2000), own %d (want 1234), clipped %v", def.TimeoutMs, own.TimeoutMs, c.Clipped)
	}
	short, _, cancel2 := NewComposite(t.Context(), nil, time.Second, 0)
	defer cancel2()
	long := &surface.BrowserHoverArgs{TimeoutMs: surface.TimeoutMsMax}
	if !short.Bound("h", long) || long.TimeoutMs > 1000 || len(short.Clipped) != 1 {
		t.Fatalf("a step above the ceiling: %d ms, clipped %v", long.TimeoutMs, short.Clipped)
	}
	gone, _, cancel3 := NewComposite(t.Context(), nil, 0, 0)
	defer cancel3()
	if gone.Bound("x", &surface.BrowserReadArgs{}) {
		t.Fatal("a step ran with no ceiling left")
	}
}
