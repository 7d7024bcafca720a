package handoff

import "github.com/ghostlight-dev/ghostlight/runtime/governance"

// Consequential actions (policy confirm). The person answers a confirm
// handoff in the workbench: approve once (the model's repeat on the same
// document runs once), approve for this page (every such action on this
// document runs) or refuse (the repeat is refused, saying so, once). The
// answers are kept per tab and action key (role, name and the URL it
// submits to, or a download's) by governance.ConfirmAnswers.

// confirmTab names a tab's answers: its session and handle.
func confirmTab(session, tab string) string { return session + "\x00" + tab }

// Decide takes the person's answer for the action key on the tab's
// document of generation gen (an approval once is used up by it, a
// refusal is said once).
func (s *Store) Decide(session, tab, action string, gen uint64) governance.ConfirmVerdict {
	return s.confirms.Decide(confirmTab(session, tab), action, gen)
}

// Recorder is the answer function of a confirm handoff (Open's answer):
// it records the person's answer for the action key on the tab's document
// of generation gen.
func (s *Store) Recorder(session, tab, action string, gen uint64) func(answer string) {
	return func(answer string) { s.confirms.Answer(confirmTab(session, tab), action, gen, answer) }
}
