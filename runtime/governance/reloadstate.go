package governance

// What a policy reload changes, setting by setting (docs/policy.md, "When a
// file changes"):
//   - capabilities, hosts, tabs, privacy, files: the next call's snapshot;
//   - audit.path, max_bytes, keep: the audit is reopened at the new settings
//     between calls (pipeline, audit.Writer.Follow); snapshots are ordered by
//     Generation, so a call that started under an older snapshot never moves
//     the audit back;
//   - browser.startup: the running browser keeps the posture it started
//     under; the new one applies from the next browser start, and until then
//     policy_explain's note names both.

import (
	"fmt"
	"sync"
)

// startupInUse is the posture the running browser started under ("" before
// any start), shared by every snapshot of a Loader.
type startupInUse struct {
	mu   sync.Mutex
	mode string
}

// Generation orders a Loader's snapshots: a later snapshot has a greater
// one (0 for an authority no Loader made).
func (a *Authority) Generation() uint64 { return a.gen }

// BrowserStarted records the startup posture a browser just started under
// (the executor calls it on every start); a different posture the layers set
// later is pending until the next start.
func (l *Loader) BrowserStarted(mode string) {
	l.inUse.mu.Lock()
	l.inUse.mode = mode
	l.inUse.mu.Unlock()
}

// StartupInUse is the posture the running browser started under ("" before
// any start).
func (a *Authority) StartupInUse() string {
	if a.inUse == nil {
		return ""
	}
	a.inUse.mu.Lock()
	defer a.inUse.mu.Unlock()
	return a.inUse.mode
}

// explainNote is the note policy_explain carries: the files that do not
// load, and a startup posture that is pending.
func (a *Authority) explainNote() string {
	n := a.note
	if u := a.StartupInUse(); u != "" && u != a.startup {
		s := fmt.Sprintf("browser.startup is %s now, but the browser in use started under %s: %s applies from the next browser start.", a.startup, u, a.startup)
		if n != "" {
			n += " "
		}
		n += s
	}
	return n
}
