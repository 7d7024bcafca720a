package language

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestToolSentences: the summaries, next steps, receipt parts and progress
// stages the handlers take from here, word for word.
func TestToolSentences(t *testing.T) {
	say := func(x Text) string { return strings.Join(append([]string{x.Summary}, x.NextSteps...), " | ") }
	verb, obj := Revealed("the page", false)
	for _, c := range []struct{ got, want string }{
		{WaitStage("load_ready", 500), "Waiting for load_ready, at most 500 ms"},
		{say(WaitHeld(surface.BrowserWaitBranchTextAbsent, 12)), "The text was not on the page after 12 ms."},
		{say(Waited(40, "https://a.test/x")), "Waited 40 ms on a.test."},
		{say(WaitTimedOut("text_present", 900)), "The text_present condition did not hold within 900 ms. | Check the page with browser_read or browser_screenshot, then wait again or act."},
		{say(DialogNone("a.test")), "No dialog is open on a.test."},
		{say(DialogOpen("alert", "a.test")), `An alert dialog is blocking a.test. | Call browser_dialog with "action" accept or dismiss (or respond, for a prompt).`},
		{say(DialogOpen("prompt", "a.test")), `A prompt dialog is blocking a.test. | Call browser_dialog with "action" accept or dismiss (or respond, for a prompt).`},
		{say(DialogAnswered(true, true, "prompt", "a.test")), "Answered and accepted the prompt dialog on a.test. | Call browser_inspect or browser_read to see the page now."},
		{say(DialogAgain(DialogAnswered(false, false, "alert", "a.test"), "confirm")), `Dismissed the alert dialog on a.test. Another confirm dialog opened and is blocking the page. | Call browser_dialog with {"action":"status"} and resolve it too.`},
		{NavigatingTo("https://b.test/"), "Navigating to b.test"},
		{say(Navigated("https://b.test/", "tab_2", false, true, true)), "Reopened b.test in a new tab under tab_2, because its tab had closed."},
		{say(Navigated("https://b.test/", "tab_2", false, false, false)), "Navigated to b.test."},
		{say(StillLoading(Say("Opened b.test."))), `Opened b.test. The page was still loading when the call's time ran out. | Call browser_wait with {"condition":"load_ready"} before acting on the page.`},
		{say(StillFetching(Say("Opened b.test."), 2, 1)), "Opened b.test. The page is interactive, but 2 images and 1 frame are still loading."},
		{say(StillFetching(Say("Opened b.test."), 0, 1)), "Opened b.test. The page is interactive, but 1 frame is still loading."},
		{verb + " " + obj, "Found the page already in view"},
		{ScrolledBy(true, "down", "page", true), "Scrolled the scrolling pane down by a page step"},
		{ScrolledBy(false, "up", "page", false), "Found no room to scroll the page up"},
		{Wheeled(1, false), "Turned the wheel 1 tick down at"},
		{ScrollPosition(0, 480), "Scroll position: x 0, y 480."},
		{Typed(true, 3, 12), "Cleared and typed 3 of 12 characters in"},
		{Typed(false, 1, 1), "Typed 1 character in"},
		{Typed(true, 0, 0), "Cleared"},
		{DragPoints(1, 2, 3, 4, "view_1"), "from (1, 2) to (3, 4) in view_1"},
		{Onto("a button", "a list"), "a button onto a list"},
		{Dropped(CapturedImage, 120), "Dropped the captured image (120 bytes) at"},
		{Attached("2 files", 300), "Attached 2 files (300 bytes) to"},
		{ReadRootsWhere("project"), "the project layer's files.read_roots"},
		{ScriptResult(true), "Its result was cut to max_result_chars (truncated)."},
		{FlowStage(2, 5, "login", "browser_click"), "Step 2 of 5 (login): browser_click"},
		{SequenceStage(1, 3, "click"), "Step 1 of 3: click"},
		{say(FlowChecked(2, 1)), "Checked 2 steps without running them. What 1 reference will hold is checked only at run time (run_time_checks)."},
		{say(FlowRan(1, 3, true, []string{"b", "c"}, 120000, "c", 900)), "Completed 1 of 3 steps. The flow stopped at the first step that did not succeed. Step b, c had less than its own timeout left of the flow's 120000 ms ceiling and was given the rest. Step envelopes from c on (900 bytes) were not recorded: the capture budget is " + strconv.Itoa(surface.FlowCaptureBytesMax) + " bytes. | Read the failing step's envelope in facts.steps before acting again."},
		{say(SequenceOutOfTime(120000, 2, 4)), "The sequence's 120000 ms ceiling ran out after step 2 of 4. | Check the page with browser_read or browser_inspect before continuing."},
		{SequenceDone(2, "a.test", "Clicked.", []string{"2"}, 9000), "Completed all 2 steps on a.test. Last: Clicked. Step 2 had less than its own timeout left of the sequence's 9000 ms ceiling and was given the rest."},
		{SequenceStopped(1, 3, "click", "Refused."), "Step 2 of 3 (click) did not succeed, so the sequence stopped after 1 completed step: Refused."},
		{say(TabFocused("tab_1")), "Focused tab_1."},
		{say(TabClosed("tab_1", false)), "tab_1 was already closed; nothing to do."},
		{say(TabsListed(0, 0, nil)), "This session controls no tab. | Open one with browser_navigate."},
		{say(TabsListed(2, 5, nil)), "This session controls 5 tabs; the first 2 are listed."},
		{say(TabsListed(1, 3, nil)), "This session controls 3 tabs; the first 1 is listed."},
		{say(TabsListed(2, 2, []string{"tab_1", "tab_2", "tab_3", "tab_4"})), "Listed 2 tabs. The page of tab_1, tab_2, tab_3 and 1 more crashed. | Call browser_navigate with a crashed tab's handle to reload it, or close it with browser_tabs."},
		{say(Explained(1, 2, "Open.", "Note.")), "Explained 1 capability area over 2 layers in force. Open. Note."},
		{WithoutName(Covering("button", "Save")), "a button"},
		{KeyRefused("credential_handoff"), "key refused: credential_handoff"},
	} {
		if c.got != c.want {
			t.Errorf("got  %q\nwant %q", c.got, c.want)
		}
	}
}
