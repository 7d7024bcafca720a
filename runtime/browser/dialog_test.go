package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

func TestBeforeUnloadRefusedThenDiscarded(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, srv.URL+"/bu?title=draft")
	click(t, tab, 100, 100) // beforeunload prompts only after real user activation
	gen := tab.Generation()

	_, err := tab.Navigate(ctxT(t, 10*time.Second), pageURL("away"), NavigateOptions{})
	e := wantKind(t, err, KindBeforeUnload)
	if e.Dialog == nil || e.Dialog.Type != DialogBeforeUnload {
		t.Fatalf("refusal should describe the prompt: %+v", e.Dialog)
	}
	if e.Landing == nil || e.Landing.Title != "draft" || tab.Generation() != gen {
		t.Fatalf("the page must stay: %+v gen %d -> %d", e.Landing, gen, tab.Generation())
	}
	if _, open := tab.Dialog(); open {
		t.Fatal("the prompt must have been dismissed")
	}

	land, err := tab.Navigate(ctxT(t, 10*time.Second), pageURL("away"), NavigateOptions{DiscardBeforeUnload: true})
	if err != nil || land.Title != "away" || land.Generation <= gen {
		t.Fatalf("discard should leave the page: %v %+v", err, land)
	}
}

func TestBeforeUnloadOnHistoryIsRefused(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("first"))
	if _, err := tab.Navigate(ctxT(t, 10*time.Second), srv.URL+"/bu?title=draft2", NavigateOptions{}); err != nil {
		t.Fatal(err)
	}
	click(t, tab, 100, 100)
	_, err := tab.History(ctxT(t, 10*time.Second), HistoryBack, false)
	e := wantKind(t, err, KindBeforeUnload)
	if e.Landing == nil || e.Landing.Title != "draft2" {
		t.Fatalf("the page must stay: %+v", e.Landing)
	}
}

func TestAlertDuringLoadDoesNotHangNavigate(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("calm"))
	start := time.Now()
	land, err := tab.Navigate(ctxT(t, 15*time.Second), srv.URL+"/alert", NavigateOptions{})
	if err != nil {
		t.Fatalf("navigate: %v (after %v)", err, time.Since(start))
	}
	if land.Dialog == nil || land.Dialog.Type != DialogAlert || land.Readiness == ReadyComplete {
		t.Fatalf("landing should report the blocking alert: %+v", land)
	}
	d, open := tab.Dialog()
	if !open || d.Message != "secret dialog text" {
		t.Fatalf("dialog state: %+v %v", d, open)
	}
	// Readiness still answers while script is blocked.
	if r, err := tab.Readiness(ctxT(t, 5*time.Second)); err != nil || r == ReadyComplete {
		t.Fatalf("readiness under a dialog: %q %v", r, err)
	}
	// Another navigation is refused until the dialog is answered.
	_, err = tab.Navigate(ctxT(t, 5*time.Second), pageURL("x"), NavigateOptions{})
	wantKind(t, err, KindDialogOpen)

	if err := (proto.PageHandleJavaScriptDialog{Accept: true}).Call(tab.Page().Context(ctxT(t, 5*time.Second))); err != nil {
		t.Fatal(err)
	}
	eventually(t, "dialog closed", func() bool { _, open := tab.Dialog(); return !open })
	eventually(t, "load completes", func() bool {
		r, err := tab.Readiness(ctxT(t, 5*time.Second))
		return err == nil && r == ReadyComplete
	})
}

func TestGuardEndsWhenDialogOpens(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("guard"))
	gctx, stop := tab.Guard(ctxT(t, 10*time.Second))
	defer stop()
	eval(t, tab, `setTimeout(() => confirm("sure?"), 50); 1`)
	select {
	case <-gctx.Done():
	case <-time.After(8 * time.Second):
		t.Fatal("guard did not end when the dialog opened")
	}
	if !errors.Is(context.Cause(gctx), ErrDialogOpened) {
		t.Fatalf("cause: %v", context.Cause(gctx))
	}
	d, open := tab.Dialog()
	if !open || d.Type != DialogConfirm {
		t.Fatalf("dialog: %+v", d)
	}
	// A guard taken while a dialog is open ends at once.
	g2, stop2 := tab.Guard(context.Background())
	defer stop2()
	if !errors.Is(context.Cause(g2), ErrDialogOpened) {
		t.Fatal("guard under an open dialog should already be cancelled")
	}
	// Work under a guard fails fast instead of hanging on the blocked page.
	if _, err := tab.Geometry(ctxT(t, 5*time.Second)); KindOf(err) != KindDialogOpen {
		t.Fatalf("geometry under a dialog: %v", err)
	}
	if err := (proto.PageHandleJavaScriptDialog{Accept: false}).Call(tab.Page().Context(ctxT(t, 5*time.Second))); err != nil {
		t.Fatal(err)
	}
	eventually(t, "dialog closed", func() bool { _, open := tab.Dialog(); return !open })
}

func TestDialogTextStaysOutOfLogs(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	d := DialogState{Type: DialogPrompt, Message: "my password is hunter2", DefaultPrompt: "hunter2"}
	log.Info("dialog", "dialog", d)
	s := fmt.Sprint(d) + fmt.Sprintf("%v %s", d, d)
	if strings.Contains(buf.String()+s, "hunter2") || !strings.Contains(buf.String(), "prompt") {
		t.Fatalf("dialog text leaked: %s %s", buf.String(), s)
	}
}
