package language

import (
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Sentences of browser_dialog. The dialog's own text is never said; only its
// type and the host of its page.

// DialogNone words a status read with no dialog open on host.
func DialogNone(host string) Text { return Say(fmt.Sprintf("No dialog is open on %s.", host)) }

// DialogOpen words a status read with a dialog of typ blocking host.
func DialogOpen(typ, host string) Text {
	return Say(fmt.Sprintf("%s is blocking %s.", aDialog(typ), host),
		`Call browser_dialog with "action" accept or dismiss (or respond, for a prompt).`)
}

// aDialog names a dialog type with its article: "An alert dialog".
func aDialog(typ string) string {
	if typ == string(surface.DialogTypeAlert) {
		return "An alert dialog"
	}
	return "A " + typ + " dialog"
}

// DialogAnswered words a dialog of typ on host answered: with text
// (answered), accepted or dismissed.
func DialogAnswered(answered, accepted bool, typ, host string) Text {
	verb := "Dismissed"
	switch {
	case answered:
		verb = "Answered and accepted"
	case accepted:
		verb = "Accepted"
	}
	return Say(fmt.Sprintf("%s the %s dialog on %s.", verb, typ, host), "Call browser_inspect or browser_read to see the page now.")
}

// DialogAgain adds to an answer's receipt that another dialog, of typ,
// opened right after it; the next step resolves that one too.
func DialogAgain(t Text, typ string) Text {
	return Say(t.Summary+fmt.Sprintf(" Another %s dialog opened and is blocking the page.", typ),
		`Call browser_dialog with {"action":"status"} and resolve it too.`)
}
