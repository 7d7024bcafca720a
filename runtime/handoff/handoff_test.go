package handoff

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

func all(string) bool { return true }

// TestOpenKeepClose: a stop opens the tab's handoff; a second stop on the
// tab keeps it (same id, newer words); handing back closes it once; the
// model's next call says so once, and a later stop opens a new one.
func TestOpenKeepClose(t *testing.T) {
	var s Store
	o := s.Open("s1", "t1", KindCredential, `"Password"`, "example.test", nil)
	if o.ID == "" || o.Asked || o.Field != `"Password"` || o.Host != "example.test" {
		t.Fatalf("open: %+v", o)
	}
	if again := s.Open("s1", "t1", KindCredential, `"PIN"`, "example.test", nil); again.ID != o.ID || again.Field != `"PIN"` {
		t.Fatalf("kept: %+v, first %+v", again, o)
	}
	l := s.List(all)
	if len(l) != 1 || l[0].Session != "s1" || l[0].Tab != "t1" || l[0].Kind != KindCredential || l[0].Field != `"PIN"` {
		t.Fatalf("list: %+v", l)
	}
	if n := s.Note("s1", "t1"); n != language.HandoffNote(KindCredential, "t1", false) || !strings.Contains(n, "still open") {
		t.Fatalf("open note: %q", n)
	}
	if s.HandBack("s2", "t1") {
		t.Fatal("another session's tab handed back")
	}
	if !s.HandBack("s1", "t1") || s.HandBack("s1", "t1") {
		t.Fatal("hand back: want true once")
	}
	if l := s.List(all); len(l) != 0 {
		t.Fatalf("listed after hand back: %+v", l)
	}
	if n := s.Note("s1", "t1"); !strings.Contains(n, "completed the credential handoff on t1") {
		t.Fatalf("done note: %q", n)
	}
	if n := s.Note("s1", "t1"); n != "" {
		t.Fatalf("said twice: %q", n)
	}
	if next := s.Open("s1", "t1", KindCredential, "x", "", nil); next.ID == o.ID {
		t.Fatal("a new stop after the handoff closed kept its id")
	}
}

// TestOpenConfirmKeepsWhatWaits: a confirmation's handoff names what waits,
// without the model's half of the sentence.
func TestOpenConfirmKeepsWhatWaits(t *testing.T) {
	var s Store
	o := s.Open("s", "t", KindConfirm, `clicking "Place order"`+language.ConfirmWaits+" to approve it", "", nil)
	if o.Field != `clicking "Place order"` {
		t.Fatalf("field %q", o.Field)
	}
}

// TestElicited: the client's acceptance is remembered (not asked again),
// and handing back tells the client the elicitation is finished.
func TestElicited(t *testing.T) {
	var s Store
	s.SetOptions(Options{Focus: true})
	o := s.Open("s", "t", KindFlow, "x", "", nil)
	if !o.Focus {
		t.Fatal("options not reported")
	}
	done := make(chan struct{})
	s.Elicited("s", "t", "handoff_other", true, nil) // not this handoff: ignored
	if s.Open("s", "t", KindFlow, "x", "", nil).Asked {
		t.Fatal("another id's acceptance counted")
	}
	s.Elicited("s", "t", o.ID, true, func() { close(done) })
	if !s.Open("s", "t", KindFlow, "x", "", nil).Asked {
		t.Fatal("acceptance not kept")
	}
	s.HandBack("s", "t")
	<-done
}

// TestAnswers: a confirm handoff's answer reaches its recorder once; once
// runs the repeat once on its document, page every action on the
// document, refuse is said once.
func TestAnswers(t *testing.T) {
	var s Store
	if s.Decide("s", "t", "k", 1) != governance.ConfirmAsk {
		t.Fatal("no answer yet")
	}
	s.Open("s", "t", KindConfirm, "x", "", s.Recorder("s", "t", "k", 1))
	if !s.Answer("s", "t", AnswerOnce) || s.Answer("s", "t", AnswerPage) {
		t.Fatal("answer: want true once")
	}
	if s.Decide("s", "t", "k", 1) != governance.ConfirmRun || s.Decide("s", "t", "k", 1) != governance.ConfirmAsk {
		t.Fatal("once: runs once")
	}
	if n := s.Note("s", "t"); !strings.Contains(n, "answered the action waiting on t") {
		t.Fatalf("note %q", n)
	}

	s.Open("s", "t", KindConfirm, "x", "", s.Recorder("s", "t", "k", 2))
	s.Answer("s", "t", AnswerPage)
	if s.Decide("s", "t", "k", 2) != governance.ConfirmRun || s.Decide("s", "t", "other", 2) != governance.ConfirmRun ||
		s.Decide("s", "t", "k", 3) != governance.ConfirmAsk {
		t.Fatal("page: every action on its document only")
	}
	if s.Decide("s2", "t", "k", 2) != governance.ConfirmAsk {
		t.Fatal("answers are per session and tab")
	}

	s.Note("s", "t")
	s.Open("s", "t", KindConfirm, "x", "", s.Recorder("s", "t", "r", 4))
	s.Answer("s", "t", AnswerRefuse)
	if s.Decide("s", "t", "r", 4) != governance.ConfirmRefused || s.Decide("s", "t", "r", 4) != governance.ConfirmAsk {
		t.Fatal("refuse: said once")
	}
}

// TestHeldCredential: a document the person typed a credential into is
// held until they release it or the document changes.
func TestHeldCredential(t *testing.T) {
	var s Store
	if s.Held("s", "t", 1) || s.Release("s", "t") {
		t.Fatal("nothing held yet")
	}
	s.Hold("s", "t", 1)
	if !s.Held("s", "t", 1) || s.Held("s2", "t", 1) {
		t.Fatal("held on its tab")
	}
	if !s.Release("s", "t") || s.Release("s", "t") || s.Held("s", "t", 1) {
		t.Fatal("release: once, then not held")
	}
	s.Hold("s", "t", 1)
	if s.Held("s", "t", 2) || s.Held("s", "t", 1) {
		t.Fatal("a new document drops the hold")
	}
}

// TestListDropsEnded: handoffs of sessions that ended are dropped; the
// list is oldest first.
func TestListDropsEnded(t *testing.T) {
	var s Store
	s.Open("a", "t1", KindCredential, "x", "", nil)
	s.Open("b", "t2", KindFlow, "y", "", nil)
	s.Open("a", "t3", KindConfirm, "z", "", nil)
	l := s.List(func(id string) bool { return id == "a" })
	if len(l) != 2 || l[0].Tab != "t1" || l[1].Tab != "t3" {
		t.Fatalf("list %+v", l)
	}
	if s.HandBack("b", "t2") {
		t.Fatal("an ended session's handoff stayed")
	}
}

// TestConcurrent: the store is safe to share between calls and the
// workbench (run with -race).
func TestConcurrent(t *testing.T) {
	var s Store
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tab := "t" + strconv.Itoa(i%3)
			for j := range 200 {
				gen := uint64(j % 4)
				o := s.Open("s", tab, KindConfirm, "x", "h", s.Recorder("s", tab, "k", gen))
				s.Elicited("s", tab, o.ID, j%2 == 0, func() {})
				s.List(all)
				s.Answer("s", tab, []string{AnswerOnce, AnswerPage, AnswerRefuse}[j%3])
				s.Decide("s", tab, "k", gen)
				s.Note("s", tab)
				s.Hold("s", tab, gen)
				s.Held("s", tab, gen+uint64(j%2))
				s.Release("s", tab)
				s.SetOptions(Options{Focus: j%2 == 0})
			}
		}()
	}
	wg.Wait()
}
