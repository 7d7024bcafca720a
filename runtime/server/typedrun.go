package server

import (
	"context"
	"errors"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/live"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// typedRun follows what the person types into one credential field of a
// live view, so every result can mask it (handoff.Store.Typed, echomask):
// a page may show it back, or a script the person later lets run may read
// it. It follows the field itself: after each of the person's keys the
// field's value is read (live.View.FocusedField, in an isolated world), so
// a value edited in the middle (a caret key, Delete, a selection typed
// over), reformatted or completed by the page, or pasted is hashed as the
// field holds it. What the keys alone make of the field (characters added
// at the caret, Backspace and Delete taking one back) is what is
// remembered before each key goes, and all there is when the field cannot
// be read.
//
// The characters live here only while the person types into the field (a
// click, a focus-moving key or a key into another kind of field ends the
// run and clears them; so does the view's end); the store keeps a keyed
// hash, never the text.
type typedRun struct {
	mu      sync.Mutex
	person  *handoff.Store
	session string
	// read reads the credential field the keys reach now; nil: the run is
	// what the keys make of it alone.
	read func(context.Context) (live.Field, error)

	run uint64
	// head is what the fields this run's keys reached before the one they
	// reach now held: a page that moves focus as it is typed into (a
	// one-time code in boxes) makes one run of the whole.
	head  []rune
	chars []rune // the field's value: as last read, with the keys sent since
	field string // the field as the last read named it; "" before one did
	// The selection in chars (start == stop: the caret); -1: unknown, and
	// characters are then added at the end.
	start, stop int
}

// errNoRead: the run has no field to read.
var errNoRead = errors.New("server: no field read")

// credential sends one key or text event of the person into a credential
// field (send) and follows the field through it: what the event makes of
// the field as last known is remembered before it goes, what the field
// holds after it once it went.
func (r *typedRun) credential(ctx context.Context, e workbench.Input, send func() error) error {
	r.before(ctx, e)
	err := send()
	r.after(ctx, e)
	return err
}

// before applies e to the field as last known and remembers the result.
func (r *typedRun) before(ctx context.Context, e workbench.Input) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.run == 0 {
		r.run = r.person.NewRun()
		r.start, r.stop = -1, -1
	}
	if r.field == "" {
		// The run's first key (or the first since the field could not be
		// read): what the field holds and where its caret is.
		r.follow(r.readField(ctx))
	}
	switch {
	case e.Type == "text":
		rs := []rune(e.Text)
		r.insert(rs)
		clear(rs)
	case e.Key == "Backspace":
		r.erase(-1)
	case e.Key == "Delete":
		r.erase(1)
	case utf8.RuneCountInString(e.Key) == 1 && !chorded(e.Modifiers):
		c, _ := utf8.DecodeRuneInString(e.Key)
		r.insert([]rune{c})
	}
	r.record()
}

// after reads the field once e went.
func (r *typedRun) after(ctx context.Context, e workbench.Input) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.run == 0 {
		return // ended meanwhile (a click)
	}
	f, err := r.readField(ctx)
	switch {
	case err == nil && (r.field == "" || f.ID == r.field):
		r.follow(f, nil)
		r.record()
	case err == nil && followed(e):
		// The page moved focus to another credential field as the person
		// typed: the run so far stays remembered as it is, and the keys go
		// on in a run that begins with it.
		r.head = r.append(r.head, r.chars)
		clear(r.chars)
		r.chars = r.chars[:0]
		r.run = r.person.NewRun()
		r.follow(f, nil)
		r.record()
	case followed(e):
		// Not read (focus left for another kind of element, the frame went):
		// what the keys made of the field stands; the next key into another
		// kind of field ends the run.
		clear(f.Value)
	default:
		// A key the keys alone cannot follow (a caret key, Delete, a
		// shortcut, Enter, Tab) and no read of the same field after it: the
		// run ends as it stood, remembered.
		clear(f.Value)
		r.endLocked()
	}
}

func (r *typedRun) readField(ctx context.Context) (live.Field, error) {
	if r.read == nil {
		return live.Field{}, errNoRead
	}
	return r.read(ctx)
}

// follow takes what a read of the field answered (nothing when err): its
// value, caret and name. f.Value is cleared.
func (r *typedRun) follow(f live.Field, err error) {
	if err != nil {
		return
	}
	r.field = f.ID
	clear(r.chars)
	r.chars = r.append(r.chars[:0], f.Value)
	clear(f.Value)
	r.start, r.stop = -1, -1
	if f.Start >= 0 && f.Start <= f.End && f.End <= len(r.chars) {
		r.start, r.stop = f.Start, f.End
	}
}

// followed: what e does to a field the keys alone tell (text, a character,
// Backspace).
func followed(e workbench.Input) bool {
	return e.Type == "text" || e.Key == "Backspace" || utf8.RuneCountInString(e.Key) == 1 && !chorded(e.Modifiers)
}

// insert puts rs in place of the selection (at the end when it is
// unknown), up to the characters a run holds.
func (r *typedRun) insert(rs []rune) {
	at, to := len(r.chars), len(r.chars)
	if r.start >= 0 {
		at, to = r.start, r.stop
	}
	room := limits.TypedFieldCharsMax - (len(r.chars) - (to - at))
	rs = rs[:max(0, min(len(rs), room))]
	out := make([]rune, 0, len(r.chars)-(to-at)+len(rs))
	out = append(append(append(out, r.chars[:at]...), rs...), r.chars[to:]...)
	clear(r.chars[:cap(r.chars)])
	r.chars = out
	if r.start >= 0 {
		r.start = at + len(rs)
		r.stop = r.start
	}
}

// erase takes back the selection, or the character before the caret
// (dir < 0, Backspace) or after it (dir > 0, Delete). With the caret
// unknown, Backspace takes the last character and Delete nothing.
func (r *typedRun) erase(dir int) {
	at, to := -1, -1
	switch {
	case r.start >= 0 && r.stop > r.start:
		at, to = r.start, r.stop
	case r.start >= 0 && dir < 0 && r.start > 0:
		at, to = r.start-1, r.start
	case r.start >= 0 && dir > 0 && r.start < len(r.chars):
		at, to = r.start, r.start+1
	case r.start < 0 && dir < 0 && len(r.chars) > 0:
		at, to = len(r.chars)-1, len(r.chars)
	}
	if at < 0 {
		return
	}
	n := copy(r.chars[at:], r.chars[to:])
	clear(r.chars[at+n:])
	r.chars = r.chars[:at+n]
	if r.start >= 0 {
		r.start, r.stop = at, at
	}
}

// append is append that clears the array it leaves when it must grow, up
// to the characters a run holds.
func (r *typedRun) append(dst, src []rune) []rune {
	src = src[:max(0, min(len(src), limits.TypedFieldCharsMax-len(dst)))]
	if len(dst)+len(src) > cap(dst) {
		grown := make([]rune, len(dst), max(len(dst)+len(src), 2*cap(dst)))
		copy(grown, dst)
		clear(dst[:cap(dst)])
		dst = grown
	}
	return append(dst, src...)
}

// record remembers the run as it stands, as a hash.
func (r *typedRun) record() {
	if len(r.head) == 0 {
		r.person.Typed(r.session, r.run, r.chars)
		return
	}
	all := r.append(r.append(nil, r.head), r.chars)
	r.person.Typed(r.session, r.run, all)
	clear(all)
}

// end closes the run: the next credential key starts another.
func (r *typedRun) end() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endLocked()
}

func (r *typedRun) endLocked() {
	clear(r.chars)
	clear(r.head)
	r.chars, r.head, r.run, r.field = r.chars[:0], r.head[:0], 0, ""
}

// chorded: a modifier other than Shift makes a key a shortcut, not a
// character.
func chorded(mods []string) bool {
	return slices.ContainsFunc(mods, func(m string) bool { return m != "Shift" })
}
