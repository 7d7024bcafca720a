package language

import (
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// credentialHandoff names, in one sentence, what the person must do and
// where: type the credential themselves in the workbench's live view of the
// tab (its link is a fact too), or in the browser window showing the tab.
// The next step says how the model learns the person is done.
func credentialHandoff(r *surface.Refusal, target string) Text {
	lead := capitalize(target) + " is a credential field, so Ghostlight typed nothing"
	next := "Once the user has handed the tab back, continue on it; the next result on the tab says the handoff is complete."
	if r.Tab != "" {
		next = fmt.Sprintf("Once the user has handed %s back, continue on it; its next result says the handoff is complete.", r.Tab)
	}
	headless := r.HandoffURL == ""
	if headless {
		next = "When the user says it is done, continue with the next step."
	}
	if r.SiteScripted {
		// The person clears the site before typing: the session the model
		// had there (its cookies) goes too.
		next = "Your script ran on this site, so the user must press Clear site in the workbench first (its cookies and storage go and the page reloads). " + next
	}
	switch {
	case r.HandoffURL != "" && r.HandoffElicited:
		return Say(fmt.Sprintf("%s; the user's client has shown them the workbench link, so ask them to type it into the tab's live view there (%s) and press Hand back.", lead, r.HandoffURL), next)
	case r.HandoffURL != "":
		return Say(fmt.Sprintf("%s; ask the user to open the Ghostlight workbench at %s, type it into the tab's live view and press Hand back.", lead, r.HandoffURL), next)
	}
	return Say(lead+"; ask the user to type it themselves in the browser window showing the tab (a headless browser has none: Ghostlight must then run with --workbench).", next)
}

// credentialClassWords name each credential class of spec/credentials.cue
// as a field.
var credentialClassWords = map[string]string{
	"password":           "password field",
	"one_time_code":      "one-time code field",
	"card_number":        "card number field",
	"card_expiry":        "card expiry field",
	"card_security_code": "card security code field",
	"card_holder":        "card holder field",
}

// FocusedCredential names the focused field a key stroke would have reached,
// by its credential class ("the focused password field").
func FocusedCredential(class string) string {
	w, ok := credentialClassWords[class]
	if !ok {
		w = "credential field"
	}
	return "the focused " + w
}

// SubmitByKey says why a key was refused under write: deny: it would have
// submitted a form (Enter in a form's field, Space or Enter on its submit
// button). layer is the governance's own words for the denial.
func SubmitByKey(key string, button bool, layer string) string {
	where := "in the focused form field"
	if button {
		where = "on the focused submit button"
	}
	return fmt.Sprintf("%s %s would submit its form, which is writing, and %s", key, where, strings.TrimSuffix(layer, "."))
}

// FocusedField names a field typed into that page code cannot see (behind a
// closed shadow root, in a frame of another origin).
const FocusedField = "the focused field"

// credentialHeld says why browser_execute (or browser_screenshot) is
// refused on a document the person typed a credential into, and until when.
func credentialHeld(tool string, r *surface.Refusal) Text {
	tab := "the tab"
	if r.Tab != "" {
		tab = r.Tab
	}
	if r.Message == MsgSecretShown { // a later page repeats it (a card number): text masks it, a picture cannot
		return Say(fmt.Sprintf("%s is refused on %s: %s, and a picture would show it.", tool, tab, r.Message),
			"Continue with browser_read, browser_find or browser_inspect: their text masks it.")
	}
	why := "page script could read it back"
	if tool == "browser_screenshot" {
		why = "a picture could show it (a card number or a code is not masked)"
	}
	return Say(fmt.Sprintf("%s is refused on %s: the user typed a credential into this page themselves, and %s. It works again once %s navigates to another page or the user presses Release in the Ghostlight workbench.", tool, tab, why, tab),
		"Continue with browser_read, browser_find, browser_inspect or the action tools: none of them returns a field's value.")
}

// flowConfirm words a write waiting for the person (data_flow: confirm):
// where they allow it, and that the model repeats the call once they have.
func flowConfirm(tool string, r *surface.Refusal) Text {
	lead := tool + " is waiting for the user"
	if f := r.DataFlow; f != nil {
		lead = fmt.Sprintf("%s was not run yet: the value carries %d characters of text from %s to %s, and the %s layer asks the user to allow each such write", tool, f.Chars, f.From, f.To, f.Layer)
	}
	next := "Once the user has allowed it, call " + tool + " again with the same arguments; if they do not, write only what they gave you."
	switch {
	case r.HandoffURL != "" && r.HandoffElicited:
		return Say(lead+"; the user's client has shown them the workbench link ("+r.HandoffURL+"), where Hand back allows this one write.", next)
	case r.HandoffURL != "":
		return Say(lead+"; ask the user to open the Ghostlight workbench at "+r.HandoffURL+" and press Hand back to allow this one write.", next)
	}
	return Say(lead+"; no workbench serves, so the user cannot allow it here (Ghostlight must run with --workbench).", "Write only what the user gave you for this site.")
}

// ConfirmWaits joins what waits to why in an action_confirm message
// (governance's confirmation); the workbench shows what comes before it.
const ConfirmWaits = " waits for the user"

// ConfirmRefused is the message of an action the person refused
// (action_confirm after their answer).
const ConfirmRefused = "the user refused this action"

// actionConfirm words a consequential action waiting for the person
// (policy confirm), or refused by them.
func actionConfirm(tool string, r *surface.Refusal) Text {
	if r.Message == ConfirmRefused {
		return Say(tool+" was not run: the user refused this action in the Ghostlight workbench.",
			"Do not repeat it; tell the user it was not done, or ask them what to do instead.")
	}
	lead := tool + " was not run: " + r.Message
	next := "Once the user has answered, call " + tool + " again with the same arguments; its result says whether they approved."
	switch {
	case r.HandoffURL != "" && r.HandoffElicited:
		return Say(lead+"; the user's client has shown them the workbench link ("+r.HandoffURL+"), where they approve it once, approve it for this page, or refuse it.", next)
	case r.HandoffURL != "":
		return Say(lead+"; ask the user to open the Ghostlight workbench at "+r.HandoffURL+" and approve it (once, or for this page) or refuse it.", next)
	}
	return Say(lead+"; no workbench serves, so the user cannot approve it here (Ghostlight must run with --workbench).", "Tell the user what you meant to do and let them do it themselves.")
}

// Handoff notes, said once by the model's next call on a tab waiting on
// the person (runtime/handoff's Note), by the handoff's kind.
const (
	handoffDoneNote = "The user completed the credential handoff on %s and handed the tab back; the page may have moved on."
	handoffOpenNote = "The credential handoff on %s is still open: the user has not handed the tab back yet."
	flowDoneNote    = "The user allowed the cross-site write on %s: repeat that call as it was to run it."
	flowOpenNote    = "The write waiting on the user on %s is not allowed yet."
	confirmDoneNote = "The user answered the action waiting on %s: repeat that call as it was; its result says whether it ran."
	confirmOpenNote = "The action waiting on the user on %s has no answer yet."
)

// HandoffNote tells the model that the person completed the tab's handoff
// of kind ("credential", "flow", "confirm"), or that it is still open.
func HandoffNote(kind, tab string, done bool) string {
	d, open := handoffDoneNote, handoffOpenNote
	switch kind {
	case "flow":
		d, open = flowDoneNote, flowOpenNote
	case "confirm":
		d, open = confirmDoneNote, confirmOpenNote
	}
	if done {
		return fmt.Sprintf(d, tab)
	}
	return fmt.Sprintf(open, tab)
}

// HandoffAsk is what the person's own client shows them with the
// workbench's link (a URL-mode elicitation) for a handoff of kind on the
// field (as its handoff names it) of host ("" unknown).
func HandoffAsk(kind, field, host string) string {
	where := ""
	if host != "" {
		where = " on " + host
	}
	switch kind {
	case "flow":
		return fmt.Sprintf("Ghostlight stopped %s%s. If you want this text sent there, open the workbench and press Hand back to allow this one write; otherwise leave it.", field, where)
	case "confirm":
		return fmt.Sprintf("Ghostlight stopped before %s%s. Open the workbench to approve it once, approve it for this page, or refuse it.", field, where)
	}
	return fmt.Sprintf("Ghostlight stopped at %s%s: a credential only you should type. Open the workbench, type it into the tab's live view, then press Hand back.", field, where)
}
