package server

import (
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// The person's keys into a credential field, as the live view sends them
// (printable characters as text, named keys as key), become one secret per
// run: what the store masks is what the field holds.
func TestTypedRunFollowsTheField(t *testing.T) {
	var person handoff.Store
	r := &typedRun{person: &person, session: "s"}
	text := func(s string) { r.credential(workbench.Input{Type: "text", Text: s}) }
	key := func(k string, mods ...string) { r.credential(workbench.Input{Type: "key", Key: k, Modifiers: mods}) }
	masked := func(s string) string {
		m := person.Masker("s")
		if m == nil {
			return s
		}
		out, _ := m(s)
		return out
	}

	for _, c := range "hunter2x" {
		text(string(c))
	}
	key("Backspace")
	text("Z")
	if got := masked("pw hunter2Z pw hunter2x"); got != "pw ******** pw hunter2x" { // what was taken back is no secret
		t.Fatalf("after a backspace: %q", got)
	}
	// A shortcut is no character; Enter ends the run, and the next keys
	// start another secret without forgetting the first.
	key("a", "Control")
	key("Enter")
	text("second-one")
	if got := masked("hunter2Z second-one"); got != "******** **********" {
		t.Fatalf("two runs: %q", got)
	}
	// A click ends a run too; a run shorter than the minimum is no secret.
	r.end()
	text("abc")
	if got := masked("abc"); got != "abc" {
		t.Fatalf("a short run was masked: %q", got)
	}
	// The characters are cleared when the run ends.
	r.end()
	if len(r.chars) != 0 || cap(r.chars) > 0 && r.chars[:cap(r.chars)][0] != 0 {
		t.Fatal("the run's characters outlive it")
	}
	person.Forget("s")
	if person.Masker("s") != nil {
		t.Fatal("the session's secrets outlive it")
	}
}
