package language

import (
	"fmt"

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
	switch {
	case r.HandoffURL != "" && r.HandoffElicited:
		return Say(fmt.Sprintf("%s; the user's client has shown them the workbench link, so ask them to type it into the tab's live view there (%s) and press Hand back.", lead, r.HandoffURL), next)
	case r.HandoffURL != "":
		return Say(fmt.Sprintf("%s; ask the user to open the Ghostlight workbench at %s, type it into the tab's live view and press Hand back.", lead, r.HandoffURL), next)
	}
	return Say(lead+"; ask the user to type it themselves in the browser window showing the tab (a headless browser has none: Ghostlight must then run with --workbench).",
		"When the user says it is done, continue with the next step.")
}
