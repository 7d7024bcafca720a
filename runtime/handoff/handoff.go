// Package handoff is what waits on the person beside the model: the tabs
// handed to them (a credential to type, a cross-site write to allow, a
// consequential action to approve or refuse), the documents they typed a
// credential into, and their answers to confirmations. It is plain,
// concurrency-safe state: the handlers open handoffs and read answers
// during a call (runtime/tools/person, runtime/tools/act), the workbench (through runtime/server) lists them and
// records what the person does. It knows no browser, no MCP and no call:
// tabs are named by their session and handle, documents by generation.
package handoff

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/echomask"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// What the person is asked for (Handoff.Kind).
const (
	KindCredential = "credential" // to type a credential themselves
	KindFlow       = "flow"       // to allow one cross-site write (data_flow: confirm)
	KindConfirm    = "confirm"    // to approve or refuse a consequential action (confirm)
)

// The person's answers (the workbench's handback?answer=), kept by
// governance.ConfirmAnswers.
const (
	AnswerOnce   = governance.AnswerOnce
	AnswerPage   = governance.AnswerPage
	AnswerRefuse = governance.AnswerRefuse
)

// Options say how a handoff reaches the person; the server wires them to
// the workbench.
type Options struct {
	// Link is the workbench's live view of a tab, for the model's words. It
	// carries no secret ("" when no workbench serves).
	Link func(session, tab string) string
	// Ticket is a link for the person's own client (a URL-mode
	// elicitation): it admits their browser to the workbench once ("" none).
	Ticket func(session, tab string) string
	// Focus brings the tab to the front of the window the person sees
	// (a headful browser, or the person's own in connect or manual mode).
	Focus bool
}

// Handoff is a tab waiting on the person, as the workbench shows it.
type Handoff struct {
	Session, Tab string
	// Kind is what the person is asked for: KindCredential, KindFlow or
	// KindConfirm.
	Kind string
	// Field names the field the way the model's receipt does (its page name
	// quoted, or only its role when names are withheld).
	Field string
	Host  string
	Since time.Time
}

// Opened is what Open reports about the tab's handoff.
type Opened struct {
	ID    string // the elicitation id
	Field string // as the person is shown it
	Host  string
	// Asked: the person's client already showed them the link.
	Asked bool
	Options
}

type key struct{ session, tab string }

type entry struct {
	id       string
	kind     string
	answer   func(string) // a flow or confirm: records the person's answer
	field    string
	host     string
	since    time.Time
	done     bool
	accepted bool   // the person's client showed them the link
	complete func() // tells the client the elicitation is finished
}

// Store holds what waits on the person. The zero value is ready.
type Store struct {
	mu    sync.Mutex
	opt   Options
	seq   uint64
	byKey map[key]*entry
	// held: the tab's document generation the person typed a credential
	// into (credheld.go).
	held map[key]uint64
	// confirms: the person's answers to consequential actions (confirm.go).
	confirms governance.ConfirmAnswers
	// typed: what the person typed into credential fields, per session, as
	// keyed hashes (typed.go).
	typed map[string]*echomask.Set
	runs  uint64
}

// SetOptions says how handoffs reach the person (call before serving).
func (s *Store) SetOptions(o Options) {
	s.mu.Lock()
	s.opt = o
	s.mu.Unlock()
}

// Open opens (or keeps open) the tab's handoff of kind: message is the
// stop's message (a confirmation keeps only what waits), host the page's;
// answer (a flow or confirm) records the person's answer once.
func (s *Store) Open(session, tab, kind, message, host string, answer func(string)) Opened {
	k := key{session, tab}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKey == nil {
		s.byKey = map[key]*entry{}
	}
	e := s.byKey[k]
	if e == nil || e.done {
		s.seq++
		e = &entry{id: "handoff_" + strconv.FormatUint(s.seq, 10), since: time.Now()}
		s.byKey[k] = e
	}
	e.field, e.host = message, host
	if kind == KindConfirm { // what waits, without the model's half of the sentence
		e.field, _, _ = strings.Cut(e.field, language.ConfirmWaits)
	}
	e.kind, e.answer = kind, answer
	return Opened{ID: e.id, Field: e.field, Host: e.host, Asked: e.accepted, Options: s.opt}
}

// Elicited records that the handoff id was put to the person's client:
// whether they accepted, and how to tell the client it is finished.
func (s *Store) Elicited(session, tab, id string, accepted bool, complete func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.byKey[key{session, tab}]; e != nil && e.id == id {
		e.accepted, e.complete = accepted, complete
	}
}

// Note is what the model's next call on the tab says of its handoff: that
// the person completed it (said once: the handoff is then forgotten), that
// it is still open, or "" when the tab has none.
func (s *Store) Note(session, tab string) string {
	k := key{session, tab}
	s.mu.Lock()
	e := s.byKey[k]
	var kind string
	var done bool
	if e != nil {
		kind, done = e.kind, e.done
		if done {
			delete(s.byKey, k)
		}
	}
	s.mu.Unlock()
	if e == nil {
		return ""
	}
	return language.HandoffNote(kind, tab, done)
}

// List lists the tabs waiting on the person, oldest first. Handoffs of
// sessions live does not report are dropped.
func (s *Store) List(live func(session string) bool) []Handoff {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Handoff
	for k, e := range s.byKey {
		if !live(k.session) {
			delete(s.byKey, k)
			continue
		}
		if !e.done {
			out = append(out, Handoff{Session: k.session, Tab: k.tab, Kind: e.kind, Field: e.field, Host: e.host, Since: e.since})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out
}

// HandBack closes the tab's handoff: the person says they are done. The
// model's next call on the tab says so. False when no handoff was open.
// For a flow or a confirmation it is Answer's "once".
func (s *Store) HandBack(session, tab string) bool {
	return s.Answer(session, tab, AnswerOnce)
}

// Answer closes the tab's handoff with the person's answer (AnswerOnce,
// AnswerPage, AnswerRefuse; a credential handoff takes any). False when no
// handoff was open.
func (s *Store) Answer(session, tab, answer string) bool {
	s.mu.Lock()
	e := s.byKey[key{session, tab}]
	if e == nil || e.done {
		s.mu.Unlock()
		return false
	}
	e.done = true
	complete := e.complete
	e.complete = nil
	record := e.answer
	e.answer = nil
	s.mu.Unlock()
	if record != nil { // the person's answer to the waiting write or action
		record(answer)
	}
	if complete != nil {
		go complete()
	}
	return true
}
