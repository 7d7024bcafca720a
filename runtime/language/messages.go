package language

import (
	"fmt"
	"strconv"
)

// The sentences of handler refusals (surface.Refusal.Message): what a
// refusal says of its field and rule, kept here beside the words that
// wrap them (refusal.go), not typed in runtime/tools.

const (
	MsgCaptureAboveCeiling       = "the capture is above the capture-reuse ceiling"
	MsgDownloadsDenied           = "downloads are denied (policy downloads: deny; ghostlight serve --allow-downloads or a layer's downloads: \"allow\" permits them); save without download to get the GIF"
	MsgDragNoFit                 = "the source and the destination do not fit in the viewport together"
	MsgDropNeedsPoint            = "a drop needs view, x and y together; without them the image is attached"
	MsgFlowOutsideInvocation     = "a flow runs only inside an invocation"
	MsgIsDirectory               = "that path is a directory"
	MsgMissingFile               = "that file does not exist or cannot be read"
	MsgNoFileInput               = "the page has no file input"
	MsgNoFocusedEditable         = "no editable control has focus"
	MsgNotACursor                = "after must be a next_cursor from browser_diagnose"
	MsgNotBase64                 = "not standard base64"
	MsgNotRegular                = "that path is a device, pipe or socket, not a regular file"
	MsgSecretShown               = "the page shows what the user typed into a credential field"
	MsgBrowserWentAway           = "the browser went away during the call" // not the call's condition failing
	MsgNotStaged                 = "could not stage the files"
	MsgNotTypable                = "the target does not take typed text"
	MsgPageFileInput             = "the page's file input"
	MsgPageLeftHosts             = "the page left the hosts this call may reach"
	MsgRecordingEmpty            = "the recording holds no frame"
	MsgRecordingNotOurs          = "that recording is not one of this session's"
	MsgReplayNotAttached         = "the replay was not attached"
	MsgReplayNotTaken            = "the file input did not take the replay"
	MsgReplayTooBig              = "the replay cannot be reduced under the image byte bound"
	MsgSequenceOutsideInvocation = "a sequence runs only inside an invocation"
	MsgTargetOtherTab            = "that target belongs to another tab"
	MsgUnexpected                = "unexpected error"
	MsgUnreadable                = "that file cannot be read"
	MsgViewForgotten             = "that view was forgotten; only the latest views are kept"
	MsgViewOtherTab              = "that view belongs to another tab"
)

// KeyRefused is the text of the error a key guard's refusal travels in
// through the input package.
func KeyRefused(reason string) string { return "key refused: " + reason }

// NotOurHandle: a handle of kind this session did not issue.
func NotOurHandle(kind string) string { return "not a " + kind + " handle this session issued" }

// NotARoleNoun: a selector role that is no role noun.
func NotARoleNoun(role, nouns string) string {
	return "role " + strconv.Quote(role) + " is not a role noun; use one of " + nouns
}

// OnlyPromptTakesText: text given to a dialog that is not a prompt.
func OnlyPromptTakesText(kind string) string {
	return "only a prompt dialog takes text; this one is a " + kind + ": accept or dismiss it"
}

// RefUnresolved: a flow_ref whose value is not in its step's envelope.
func RefUnresolved(ref string) string { return "reference " + ref + " does not resolve" }

// RefNotEarlier: a flow_ref that names no earlier step.
func RefNotEarlier(ref string) string { return "reference " + ref + " does not name an earlier step" }

// ReplayDownloadEnded: the browser's download of a replay ended in state.
func ReplayDownloadEnded(state string) string {
	return "the browser's download of the replay ended " + state
}

// DurationPastTimeout: a wait duration its own timeout_ms cannot reach.
func DurationPastTimeout(limitMs int) string {
	return "a duration longer than timeout_ms (" + strconv.Itoa(limitMs) + " ms) cannot finish; raise timeout_ms"
}

// FlowCeilingRanOut: a flow step that would start past the call's ceiling.
func FlowCeilingRanOut(ceilingMs int) string {
	return "the flow's " + strconv.Itoa(ceilingMs) + " ms ceiling ran out before this step began"
}

// RecordingsMeant: more than one recording fits and none is named.
func RecordingsMeant(n int) string { return strconv.Itoa(n) + " recordings could be meant; name one" }

// RecordingErased: a recording whose frames are gone.
func RecordingErased(handle, state string) string {
	return handle + " was " + state + " and its frames are erased"
}

// FileTooLarge: one upload file above its bound.
func FileTooLarge(maxBytes int) string {
	return "a file is larger than " + strconv.Itoa(maxBytes) + " bytes"
}

// FilesTooLarge: the upload's files together above their bound.
func FilesTooLarge(maxBytes int) string {
	return "the files together are larger than " + strconv.Itoa(maxBytes) + " bytes"
}

// AlreadyRecording: a tab another recording already records.
func AlreadyRecording(handle string) string {
	return handle + " is already recording this tab; stop or save it first"
}

// MsgNoRecording: a recording asked of a session that has none.
const MsgNoRecording = `this session has no recording to use; start one with action "start"`

// LayerHostRules names whose host rules decided: a layer's, or the rules'.
func LayerHostRules(layer string) string {
	if layer == "" {
		return "host rules"
	}
	return "the " + layer + " layer's host rules"
}

// StoppedInBrowser: the host boundary failed a request inside the browser.
func StoppedInBrowser(layer string) string {
	return LayerHostRules(layer) + " stopped it before it left the browser; the tab stayed on its page"
}

// StoppedInBrowserNoTab: as StoppedInBrowser, for a navigation that kept no tab.
func StoppedInBrowserNoTab(layer string) string {
	return LayerHostRules(layer) + " stopped it before it left the browser, so no tab was kept"
}

// ViewPointOutside: a view point past the edges of the view's image.
func ViewPointOutside(x, y, width, height int) string {
	return fmt.Sprintf("(%d, %d) is outside the %dx%d image", x, y, width, height)
}

// ViewPointHidden: a view point on a part of the page the viewport does not show.
func ViewPointHidden(x, y int) string {
	return fmt.Sprintf("(%d, %d) is not in the visible part of the page; scroll it into view first", x, y)
}
