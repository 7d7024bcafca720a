package input

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

const dialogPage = `<button id=b style="position:absolute;left:20px;top:20px;width:200px;height:50px">alert</button>
<script>
window.log = [];
b.addEventListener('click', () => { log.push('before'); alert('Hello from the page'); log.push('after'); });
</script>`

func watch(t *testing.T, p *rod.Page) *DialogWatch {
	t.Helper()
	w, err := WatchDialogs(tctx(t, 5*time.Second), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

// waitDialog waits until the watch reports a showing dialog.
func waitDialog(t *testing.T, w *DialogWatch) Dialog {
	t.Helper()
	cur, opened := w.Next()
	if cur.Present {
		return cur
	}
	select {
	case <-opened:
		return w.Current()
	case <-time.After(5 * time.Second):
		t.Fatal("no dialog opened")
	}
	return Dialog{}
}

func TestClickOpeningAlertReturnsWhenCancelled(t *testing.T) {
	p := newPage(t, doc(dialogPage))
	w := watch(t, p)
	pt := center(t, p, "#b")

	ctx, release := w.CancelOnOpen(tctx(t, 10*time.Second))
	defer release()
	openedAt := make(chan time.Time, 1)
	go func() {
		<-w.Opened()
		openedAt <- time.Now()
	}()
	eff, err := Click(ctx, p, pt, "primary", 1)
	returned := time.Now()
	if KindOf(err) != KindCancelled || !errors.Is(err, ErrDialogOpened) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Click error %v, want cancelled by ErrDialogOpened", err)
	}
	if eff != EffectUnknown {
		t.Errorf("effect %v, want unknown (the release was in flight)", eff)
	}
	var opened time.Time
	select {
	case opened = <-openedAt:
	case <-time.After(time.Second):
		t.Fatal("watch never signalled the opening")
	}
	lag := returned.Sub(opened)
	t.Logf("click returned %v after the dialog opened", lag)
	// Liveness, not speed: the call ends because the dialog opened, long
	// before its own 5 s context would have ended it (the figure is logged above).
	if lag > 2*time.Second {
		t.Errorf("Click returned %v after the dialog opened: it waited for its deadline instead", lag)
	}
	d := w.Current()
	if !d.Present || d.Type != DialogAlert || d.Message != "Hello from the page" || d.Seq != 1 {
		t.Fatalf("dialog %+v", d)
	}
	// A second action under a showing dialog is cancelled before it sends anything.
	ctx2, release2 := w.CancelOnOpen(tctx(t, 5*time.Second))
	defer release2()
	if eff, err := Click(ctx2, p, pt, "primary", 1); eff != EffectNone || !errors.Is(err, ErrDialogOpened) {
		t.Errorf("click under a dialog = %v, %v", eff, err)
	}

	handled, err := w.Handle(tctx(t, 5*time.Second), true, nil)
	if err != nil || handled.Seq != 1 {
		t.Fatalf("Handle = %+v, %v", handled, err)
	}
	if w.Current().Present {
		t.Error("dialog still present after Handle")
	}
	if !waitJS(t, p, "log.join() === 'before,after'", 2*time.Second) {
		t.Errorf("page log %q, want the handler to finish after the alert", evalStr(t, p, "log.join()"))
	}
}

func TestDialogAnswers(t *testing.T) {
	p := newPage(t, doc(`<script>window.answers = [];</script>`))
	w := watch(t, p)
	text := func(s string) *string { return &s }
	cases := []struct {
		open       string
		accept     bool
		prompt     *string
		typ        DialogType
		wantAnswer string
	}{
		{"confirm('Sure?')", true, nil, DialogConfirm, "true"},
		{"confirm('Sure?')", false, nil, DialogConfirm, "false"},
		{"prompt('Name?', 'Bob')", true, text("Ada"), DialogPrompt, "Ada"},
		{"prompt('Name?', 'Bob')", true, nil, DialogPrompt, "Bob"},
		{"prompt('Name?', 'Bob')", true, text(""), DialogPrompt, ""},
		{"prompt('Name?', 'Bob')", false, nil, DialogPrompt, "null"},
	}
	for i, c := range cases {
		evalInto(t, p, "answers = []; setTimeout(() => answers.push(String("+c.open+")), 0)", nil)
		d := waitDialog(t, w)
		if d.Type != c.typ || d.Seq != uint64(i+1) {
			t.Fatalf("case %d: dialog %+v", i, d)
		}
		if c.typ == DialogPrompt && d.DefaultPrompt != "Bob" {
			t.Errorf("case %d: default prompt %q", i, d.DefaultPrompt)
		}
		if _, err := w.Handle(tctx(t, 5*time.Second), c.accept, c.prompt); err != nil {
			t.Fatalf("case %d: Handle: %v", i, err)
		}
		var answers []string
		for deadline := time.Now().Add(2 * time.Second); len(answers) == 0 && time.Now().Before(deadline); {
			evalInto(t, p, "answers", &answers)
		}
		if len(answers) != 1 || answers[0] != c.wantAnswer {
			t.Errorf("case %d: page got %q, want %q", i, answers, c.wantAnswer)
		}
	}
}

func TestHandleDialogWithoutDialog(t *testing.T) {
	p := newPage(t, doc(`<p>quiet</p>`))
	if err := HandleDialog(tctx(t, 5*time.Second), p, true, nil); KindOf(err) != KindNoDialog {
		t.Fatalf("HandleDialog without a dialog = %v, want KindNoDialog", err)
	}
}

func TestDialogWatchEndsWithPage(t *testing.T) {
	p := newPage(t, doc(`<p>closing</p>`))
	w, err := WatchDialogs(tctx(t, 5*time.Second), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Context(tctx(t, 5*time.Second)).Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("watch did not end with its page")
	}
	w.Close() // idempotent after the end
}
