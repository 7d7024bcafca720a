package language

// Sentences of browser_execute. The script and its result are never said:
// the result is in the facts' value.

const (
	// ScriptHeld: the script waits inside a dialog it opened.
	ScriptHeld = "The script waits inside that dialog, so it has no result yet."
	// ScriptThrew: the script threw.
	ScriptThrew = "It threw; whatever it did before that stands, and the error is in value."
	// ScriptThrewNext is the next step after a script that threw.
	ScriptThrewNext = "Check the page with browser_read before running anything else."
)

// ScriptResult is the last sentence of a script's receipt: where its result is.
func ScriptResult(truncated bool) string {
	if truncated {
		return "Its result was cut to max_result_chars (truncated)."
	}
	return "Its result is in value."
}
