package pipeline

import (
	"strings"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// Progress a client can see. A call whose client sent a progress token hears
// notifications/progress at least every surface.ProgressAfterMsMax while it
// runs, each saying what is happening: the stages its handler and its
// composite's steps set (Invocation.Stage), joined from the outermost in,
// else "Running <tool>". A handler's own Progress (a wait's elapsed of total)
// counts as a beat. Values are milliseconds since the call started, so they
// only grow, as MCP requires.

// heartbeat sends one direct call's progress.
type heartbeat struct {
	send  Progress
	start time.Time
	every time.Duration
	tool  string

	mu      sync.Mutex
	current *Invocation // the invocation whose stage was set last
	last    float64
	total   float64
	msg     string // the handler's own last message, when no stage is set
	timer   *time.Timer
	done    bool
}

func newHeartbeat(send Progress, tool string, start time.Time) *heartbeat {
	h := &heartbeat{send: send, start: start, every: time.Duration(surface.ProgressAfterMsMax) * time.Millisecond, tool: tool}
	// Set under mu: the first beat (tick, under mu) may fire before this
	// assignment would otherwise be seen (the race detector's find).
	h.mu.Lock()
	h.timer = time.AfterFunc(h.every, h.tick)
	h.mu.Unlock()
	return h
}

// progress is the call's Progress (handlers and children share it): it
// forwards and postpones the next beat.
func (h *heartbeat) progress(progress, total float64, message string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done || progress <= h.last {
		return
	}
	h.last, h.total = progress, total
	if message != "" {
		h.msg = message
	}
	h.send(progress, total, message)
	h.timer.Reset(h.every)
}

// tick is one beat: elapsed milliseconds and what is happening now.
func (h *heartbeat) tick() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done {
		return
	}
	p := float64(time.Since(h.start).Milliseconds())
	if p <= h.last {
		p = h.last + 1
	}
	h.last = p
	h.send(p, h.total, h.describe())
	h.timer.Reset(h.every)
}

// describe says what is happening (caller holds mu).
func (h *heartbeat) describe() string {
	var parts []string
	for inv := h.current; inv != nil; inv = inv.Parent {
		if s := inv.stageText(); s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		if h.msg != "" {
			return h.msg
		}
		return "Running " + h.tool
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ": ")
}

// stop ends the beats: the answer is on its way.
func (h *heartbeat) stop() {
	h.mu.Lock()
	h.done = true
	h.timer.Stop()
	h.mu.Unlock()
}

// Stage says what the call is doing now ("Navigating to example.com",
// "Step 2 of 5: browser_click"), for the progress its client hears. A
// composite's step adds its own stage after the composite's.
func (inv *Invocation) Stage(what string) {
	if inv == nil {
		return
	}
	inv.stageMu.Lock()
	inv.stage = what
	inv.stageMu.Unlock()
	if h := inv.root().beat; h != nil {
		h.mu.Lock()
		h.current = inv
		h.mu.Unlock()
	}
}

func (inv *Invocation) stageText() string {
	inv.stageMu.Lock()
	defer inv.stageMu.Unlock()
	return inv.stage
}

// leaveStage hands the description back to the parent when a step ends.
func (inv *Invocation) leaveStage() {
	h := inv.root().beat
	if h == nil {
		return
	}
	h.mu.Lock()
	for c := h.current; c != nil; c = c.Parent {
		if c == inv {
			h.current = inv.Parent
			break
		}
	}
	h.mu.Unlock()
}

func (inv *Invocation) root() *Invocation {
	for inv.Parent != nil {
		inv = inv.Parent
	}
	return inv
}

// cancelledOutcome is the truthful outcome of a call whose context ended
// (the client cancelled it, or its session ended) before it answered:
// status cancelled, unless it had already succeeded; its effect as the
// handler observed it (partial, applied), else none for a call that only
// reads, else unknown (its input or navigation may have reached the page).
// The timeout or internal refusal a handler makes of its ended context is
// not the cause, so it gives way to a summary saying the call was cancelled.
func cancelledOutcome(ctxErr error, tool string, caps surface.Caps, out surface.Outcome) surface.Outcome {
	if ctxErr == nil || out.Status == surface.StatusSucceeded && out.Refusal == nil {
		return out
	}
	out.Status = surface.StatusCancelled
	switch {
	case out.Effect == surface.EffectApplied:
		out.Effect = surface.EffectPartial // it was cut short
	case out.Effect == surface.EffectPartial || out.Effect == surface.EffectUnknown:
	case caps.Has(surface.CapAction) || caps.Has(surface.CapWrite) || caps.Has(surface.CapExecute):
		out.Effect = surface.EffectUnknown
	default:
		out.Effect = surface.EffectNone
	}
	out.RepeatSafe = out.Effect == surface.EffectNone
	if r := out.Refusal; r != nil && (r.Reason == surface.ReasonInternal || r.Reason == surface.ReasonTimeout) {
		out.Refusal = nil
		var text language.Text
		if out.Effect == surface.EffectNone {
			text = language.Say(tool + " was cancelled before it finished; nothing changed.")
		} else {
			text = language.Say(tool+" was cancelled before it finished; the page may have changed.", "Check the page with browser_read before repeating "+tool+".")
		}
		out.Summary, out.NextSteps = text.Summary, text.NextSteps
	}
	return out
}
