package server

import (
	"context"
	"errors"
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/browser/live"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// The person's keys into a credential field, as the live view sends them
// (printable characters as text, named keys as key), become one secret per
// run: what the store masks is what the field holds.
func TestTypedRunFollowsTheField(t *testing.T) {
	var person handoff.Store
	r := &typedRun{person: &person, session: "s"} // no field to read: the keys alone
	sent := func() error { return nil }
	text := func(s string) { _ = r.credential(context.Background(), workbench.Input{Type: "text", Text: s}, sent) }
	key := func(k string, mods ...string) {
		_ = r.credential(context.Background(), workbench.Input{Type: "key", Key: k, Modifiers: mods}, sent)
	}
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

// fakeFields are a page's credential fields as the live view would read
// them: the person's keys edit the focused one at its caret, the page may
// move focus to the next once one is full (maxLen), and a read answers the
// focused field's value and selection.
type fakeFields struct {
	f      []*fakeField
	focus  int
	broken bool // reads fail
}

type fakeField struct {
	id          string
	v           []rune
	start, stop int
	maxLen      int // 0: none; full, the page moves focus on
}

func (p *fakeFields) send(e workbench.Input) {
	f := p.f[p.focus]
	put := func(rs []rune) {
		f.v = append(append(append([]rune{}, f.v[:f.start]...), rs...), f.v[f.stop:]...)
		f.start += len(rs)
		f.stop = f.start
	}
	switch {
	case e.Type == "text":
		put([]rune(e.Text))
	case e.Key == "a" && len(e.Modifiers) > 0:
		f.start, f.stop = 0, len(f.v)
	case e.Key == "Backspace":
		if f.start == f.stop && f.start > 0 {
			f.start--
		}
		put(nil)
	case e.Key == "ArrowLeft":
		f.start = max(0, f.start-1)
		f.stop = f.start
	case e.Key == "End":
		f.start, f.stop = len(f.v), len(f.v)
	case len([]rune(e.Key)) == 1:
		put([]rune(e.Key))
	}
	if f.maxLen > 0 && len(f.v) >= f.maxLen && p.focus+1 < len(p.f) {
		p.focus++
	}
}

func (p *fakeFields) read(context.Context) (live.Field, error) {
	if p.broken {
		return live.Field{}, errors.New("the frame went")
	}
	f := p.f[p.focus]
	return live.Field{ID: f.id, Value: append([]rune(nil), f.v...), Start: f.start, End: f.stop}, nil
}

// The run follows the field, not the keys: a value the person edits in the
// middle, selects and types over, or types into boxes the page moves focus
// through, is masked as the field holds it; when the field cannot be read,
// what the keys made of it stays masked.
func TestTypedRunReadsTheField(t *testing.T) {
	setup := func(fields ...*fakeField) (*handoff.Store, *typedRun, *fakeFields, func(workbench.Input), func(string) string) {
		person := &handoff.Store{}
		page := &fakeFields{f: fields}
		r := &typedRun{person: person, session: "s", read: page.read}
		do := func(e workbench.Input) {
			_ = r.credential(context.Background(), e, func() error { page.send(e); return nil })
		}
		masked := func(s string) string {
			m := person.Masker("s")
			if m == nil {
				return s
			}
			out, _ := m(s)
			return out
		}
		return person, r, page, do, masked
	}
	key := func(k string, mods ...string) workbench.Input {
		return workbench.Input{Type: "key", Key: k, Modifiers: mods}
	}
	text := func(s string) workbench.Input { return workbench.Input{Type: "text", Text: s} }

	// Typed, then the last-but-one digit edited: the edited whole.
	_, _, page, do, masked := setup(&fakeField{id: "cc"})
	for _, c := range "4111111111111112" {
		do(key(string(c)))
	}
	do(key("ArrowLeft"))
	do(key("Backspace"))
	do(key("9"))
	if v := string(page.f[0].v); v != "4111111111111192" {
		t.Fatalf("the fake field holds %q", v)
	}
	if got := masked("Card 4111 1111 1111 1192"); got != "Card *******************" {
		t.Fatalf("an edit in the middle: %q", got)
	}
	if got := masked("Card 4111 1111 1111 1129"); got != "Card 4111 1111 1111 1129" {
		t.Fatalf("what the keys alone would make is masked: %q", got)
	}

	// Selected whole and typed over: the new value; the page's own value
	// (prefilled) counts as the field's.
	_, _, _, do, masked = setup(&fakeField{id: "pw", v: []rune("prefilled-x"), start: 11, stop: 11})
	do(key("a", "Control"))
	do(text("correct-horse"))
	if got := masked("pw correct-horse"); got != "pw *************" {
		t.Fatalf("selected and typed over: %q", got)
	}

	// A one-time code in boxes the page moves focus through: one run.
	var boxes []*fakeField
	for i := range 6 {
		boxes = append(boxes, &fakeField{id: string(rune('a' + i)), maxLen: 1})
	}
	_, _, _, do, masked = setup(boxes...)
	for _, c := range "735102" {
		do(key(string(c)))
	}
	if got := masked("code 735102"); got != "code ******" {
		t.Fatalf("a code in boxes: %q", got)
	}

	// A card number the page moves on from to the expiry: the number is
	// masked by itself.
	_, _, _, do, masked = setup(&fakeField{id: "cc", maxLen: 16}, &fakeField{id: "exp"})
	for _, c := range "5500000000000004" + "1228" {
		do(key(string(c)))
	}
	if got := masked("Card 5500 0000 0000 0004, expires 12/28"); got != "Card *******************, expires 12/28" {
		t.Fatalf("a number the page moved on from: %q", got)
	}

	// The field cannot be read: what the keys made of it is masked, and a
	// caret key ends the run there (the keys alone cannot follow it).
	_, r, page, do, masked := setup(&fakeField{id: "cc"})
	page.broken = true
	for _, c := range "4000056655665556" {
		do(key(string(c)))
	}
	do(key("ArrowLeft"))
	if r.run != 0 || len(r.chars) != 0 {
		t.Fatal("a caret key with no read did not end the run")
	}
	if got := masked("4000056655665556"); got != "****************" {
		t.Fatalf("unread: %q", got)
	}
	// A click ends the run; the characters go with it.
	page.broken = false
	do(key("7"))
	r.end()
	if len(r.chars) != 0 || cap(r.chars) > 0 && r.chars[:cap(r.chars)][0] != 0 {
		t.Fatal("the run's characters outlive it")
	}
}
