package pipeline

import (
	"context"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// CeilingGrace keeps a composite's own context open a little past its
// ceiling, so a step given the time left meets its own deadline, and says
// so, before the composite's context ends under it.
const CeilingGrace = time.Duration(surface.FlowCeilingGraceMsMax) * time.Millisecond

// Composite is the one way a call runs other tools as its steps (a
// sequence's, a flow's, an Operator verb's): each step is a decoded
// surface.Args prepared through its generated accessors (SetTab,
// SetTimeout), bounded by one immutable ceiling for the whole call, run
// through the invocation's child path, and folded into one effect
// (docs/decisions/one-composite-path.md).
type Composite struct {
	inv     *Invocation
	end     time.Time
	ceiling time.Duration
	ms      int    // the composite's own timeout_ms (0: the default)
	tab     string // the tab every step runs on ("": each step's own)
	// Clipped are the labels of steps given less than their own bound.
	Clipped []string

	failed, unknown, applied, partial int
	unknownStatus                     bool
	unsafe                            bool
}

// NewComposite starts a composite under inv: its ceiling is fixed now, and
// the returned context ends a grace after it.
func NewComposite(ctx context.Context, inv *Invocation, ceiling time.Duration, timeoutMs int) (*Composite, context.Context, context.CancelFunc) {
	c := &Composite{inv: inv, end: time.Now().Add(ceiling), ceiling: ceiling, ms: timeoutMs}
	ctx, cancel := context.WithDeadline(ctx, c.end.Add(CeilingGrace))
	return c, ctx, cancel
}

// Children is a composite with no ceiling of its own (an Operator verb's
// children, bounded by the verb's call): Run and the fold, not Bound.
func Children(inv *Invocation, tab string) *Composite {
	return &Composite{inv: inv, tab: tab}
}

// OnTab makes every later step run on tab.
func (c *Composite) OnTab(tab string) { c.tab = tab }

// CeilingMs is the whole call's ceiling in milliseconds.
func (c *Composite) CeilingMs() int { return int(c.ceiling / time.Millisecond) }

// left is the whole number of milliseconds of the ceiling still left.
func (c *Composite) left() int { return int(time.Until(c.end) / time.Millisecond) }

// Bound prepares a step's timeout_ms: its own when it differs from the
// default (the decoder fills the default in, so a step that states the
// default reads as one that gave none), else the composite's, clipped to
// what is left of the ceiling (label joins Clipped). False is the stop
// rule: less than the least timeout is left, and the step must not run.
func (c *Composite) Bound(label string, a surface.Args) bool {
	left := c.left()
	if left < surface.TimeoutMsMin {
		return false
	}
	own, ok := a.Timeout()
	if !ok {
		return true
	}
	if own == 0 || own == surface.TimeoutMsDefault {
		own = c.ms
		if own <= 0 {
			own = surface.TimeoutMsDefault
		}
	}
	if left < own {
		own = left
		c.Clipped = append(c.Clipped, label)
	}
	a.SetTimeout(own)
	return true
}

// Run points a prepared step at the composite's tab, runs it as a child of
// the invocation and folds its result.
func (c *Composite) Run(ctx context.Context, tool string, a surface.Args) Result {
	if c.tab != "" {
		a.SetTab(c.tab)
	}
	r := c.inv.Child(ctx, tool, a)
	c.Fold(r.Envelope)
	return r
}

// Refuse is a step refused before it ran (its reference did not resolve,
// its arguments did not decode, the ceiling ran out), folded like any.
func (c *Composite) Refuse(tool string, r *surface.Refusal) Result {
	res := c.inv.Refuse(tool, r)
	c.Fold(res.Envelope)
	return res
}

// Fold counts one step's envelope toward the composite's effect.
func (c *Composite) Fold(env surface.Envelope) {
	switch env.Status {
	case surface.StatusSucceeded:
	case surface.StatusUnknown:
		c.unknown++
		c.unknownStatus = true
	default:
		c.failed++
	}
	switch env.Effect {
	case surface.EffectApplied:
		c.applied++
	case surface.EffectPartial:
		c.partial++
	case surface.EffectUnknown:
		c.unknown++
	}
	c.unsafe = c.unsafe || !env.RepeatSafe
}

// Stop marks the composite as cut short (the ceiling ran out between
// steps): what it did is then at most partial.
func (c *Composite) Stop() { c.failed++ }

// Effect is the one fold of every composite: unknown when any step's
// status or effect is; when a step did not succeed (or the run was cut
// short), partial if any step changed something, else none; when all
// succeeded, partial if any step was partial, applied if any applied,
// else none.
func (c *Composite) Effect() surface.Effect {
	changed := c.applied > 0 || c.partial > 0
	switch {
	case c.unknown > 0:
		return surface.EffectUnknown
	case c.failed > 0 && changed:
		return surface.EffectPartial
	case c.failed > 0:
		return surface.EffectNone
	case c.partial > 0:
		return surface.EffectPartial
	case c.applied > 0:
		return surface.EffectApplied
	}
	return surface.EffectNone
}

// Status is the aggregate status of a composite that ran every step it
// could: unknown when a step's status is, failed when a step did not
// succeed, else succeeded.
func (c *Composite) Status() surface.Status {
	switch {
	case c.unknownStatus:
		return surface.StatusUnknown
	case c.failed > 0:
		return surface.StatusFailed
	}
	return surface.StatusSucceeded
}

// RepeatSafe: every step was, and none failed or is unknown.
func (c *Composite) RepeatSafe() bool { return !c.unsafe && c.failed == 0 && c.unknown == 0 }
