package server

import (
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// typedRun follows what the person types into one credential field of a
// live view, so every result can mask it (handoff.Store.Typed, echomask):
// a page may show it back, or a script the person later lets run may read
// it. The characters live here only while the person types into the field
// (a click, a focus-moving key or a key into another kind of field ends
// the run and clears them); the store keeps a keyed hash, never the text.
type typedRun struct {
	mu      sync.Mutex
	person  *handoff.Store
	session string
	run     uint64
	chars   []rune
}

// credential applies one key or text event the person sent into a
// credential field.
func (r *typedRun) credential(e workbench.Input) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.run == 0 {
		r.run = r.person.NewRun()
	}
	switch {
	case e.Type == "text":
		for _, c := range e.Text {
			r.add(c)
		}
	case e.Key == "Backspace":
		if len(r.chars) > 0 {
			r.chars[len(r.chars)-1] = 0
			r.chars = r.chars[:len(r.chars)-1]
		}
	case utf8.RuneCountInString(e.Key) == 1 && !chorded(e.Modifiers):
		c, _ := utf8.DecodeRuneInString(e.Key)
		r.add(c)
	default:
		// Enter, Tab, Escape, arrows, shortcuts: the field may be left; what
		// was typed stays remembered, and the next key starts a new run.
		r.person.Typed(r.session, r.run, string(r.chars))
		r.endLocked()
		return
	}
	r.person.Typed(r.session, r.run, string(r.chars))
}

// add keeps c, up to the characters a secret remembers.
func (r *typedRun) add(c rune) {
	if len(r.chars) < limits.TypedSecretCharsMax {
		r.chars = append(r.chars, c)
	}
}

// end closes the run: the next credential key starts another.
func (r *typedRun) end() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endLocked()
}

func (r *typedRun) endLocked() {
	clear(r.chars)
	r.chars, r.run = r.chars[:0], 0
}

// chorded: a modifier other than Shift makes a key a shortcut, not a
// character.
func chorded(mods []string) bool {
	return slices.ContainsFunc(mods, func(m string) bool { return m != "Shift" })
}
