package language

import (
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Sentences of the composite tools, browser_flow and browser_sequence. A
// step's own summary is quoted as it stands; the counts are the facts'.

// FlowStage is the progress a client sees as a flow step starts.
func FlowStage(step, total int, id, tool string) string {
	return fmt.Sprintf("Step %d of %d (%s): %s", step, total, id, tool)
}

// SequenceStage is the progress a client sees as a sequence step starts.
func SequenceStage(step, total int, action string) string {
	return fmt.Sprintf("Step %d of %d: %s", step, total, action)
}

// clippedSteps: steps that started with less of the composite's ceiling
// left than their own bound were given the rest ("" when none was).
func clippedSteps(kind string, clipped []string, ceilingMs int) string {
	if len(clipped) == 0 {
		return ""
	}
	return fmt.Sprintf(" Step %s had less than its own timeout left of the %s's %d ms ceiling and was given the rest.",
		strings.Join(clipped, ", "), kind, ceilingMs)
}

// FlowChecked words a dry run: the steps checked and the references whose
// values only a run can check.
func FlowChecked(total, deferred int) Text {
	s := fmt.Sprintf("Checked %s without running them.", Plural(total, "step", "steps"))
	if deferred > 0 {
		s += fmt.Sprintf(" What %s will hold is checked only at run time (run_time_checks).",
			Plural(deferred, "reference", "references"))
	}
	return Say(s)
}

// FlowRan words a flow run: how many steps succeeded, whether it stopped,
// the steps its ceiling clipped, and where step capture stopped ("" = it
// did not) with the bytes left out.
func FlowRan(completed, total int, stopped bool, clipped []string, ceilingMs int, captureStoppedAt string, omitted int) Text {
	s := fmt.Sprintf("Completed %d of %s.", completed, Plural(total, "step", "steps"))
	if stopped {
		s += " The flow stopped at the first step that did not succeed."
	}
	s += clippedSteps("flow", clipped, ceilingMs)
	if captureStoppedAt != "" {
		s += fmt.Sprintf(" Step envelopes from %s on (%d bytes) were not recorded: the capture budget is %d bytes.",
			captureStoppedAt, omitted, surface.FlowCaptureBytesMax)
	}
	if completed < total {
		return Say(s, "Read the failing step's envelope in facts.steps before acting again.")
	}
	return Say(s)
}

// SequenceOutOfTime words a sequence whose ceiling ran out after done of
// total steps.
func SequenceOutOfTime(ceilingMs, done, total int) Text {
	return Say(fmt.Sprintf("The sequence's %d ms ceiling ran out after step %d of %d.", ceilingMs, done, total),
		"Check the page with browser_read or browser_inspect before continuing.")
}

// SequenceDone is a completed sequence's summary, ending with its last
// step's own.
func SequenceDone(total int, host, last string, clipped []string, ceilingMs int) string {
	return fmt.Sprintf("Completed all %d steps on %s. Last: %s", total, host, last) + clippedSteps("sequence", clipped, ceilingMs)
}

// SequenceStopped is the summary of a sequence stopped at a step that did not
// succeed, after done steps, ending with that step's own summary.
func SequenceStopped(done, total int, action, summary string) string {
	return fmt.Sprintf("Step %d of %d (%s) did not succeed, so the sequence stopped after %s: %s",
		done+1, total, action, Plural(done, "completed step", "completed steps"), summary)
}
