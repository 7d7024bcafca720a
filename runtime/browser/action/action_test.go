package action

import (
	"context"
	"errors"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
)

// Against real Chromium: each test runs one action through Run and checks
// what the page did by the time Run returned. None is about time.

// A click on a link lands the tab on the new document: the Result names its
// URL and title and a later document generation, and the page settled there.
func TestRunClickThatNavigatesReportsTheLanding(t *testing.T) {
	tab, s := liveTab(t, "")
	gen0, url0 := tab.Generation(), tab.URL()
	var derr error
	res, err := Run(ctxT(t), tab, s, clickOn("next", &derr))
	if err != nil || derr != nil {
		t.Fatalf("run: %v, dispatch: %v", err, derr)
	}
	if res.Effect != surface.EffectApplied || res.Cause != nil || res.Dialog != nil {
		t.Fatalf("effect %q, cause %v, dialog %v", res.Effect, res.Cause, res.Dialog)
	}
	if res.Landing == nil {
		t.Fatalf("no landing after a navigating click (url still %s, was %s)", tab.URL(), url0)
	}
	if want := site.URL + "/next"; res.Landing.URL != want || res.Landing.Title != "Next" {
		t.Fatalf("landing %+v, want %s titled Next", res.Landing, want)
	}
	if res.Landing.Generation <= gen0 || res.Landing.Generation != tab.Generation() {
		t.Fatalf("landing generation %d: before %d, tab now %d", res.Landing.Generation, gen0, tab.Generation())
	}
	if !res.Settle.Settled || res.Settle.Loading || res.Settle.Pending || res.Readiness != "complete" {
		t.Fatalf("settle %+v, readiness %q", res.Settle, res.Readiness)
	}
	if got := evalMain(t, tab, `document.querySelector('p') && document.querySelector('p').textContent`); got != "next" {
		t.Fatalf("page text %q after the landing", got)
	}
}

// A click that opens a popup lists the new tab in Opened, as a live tab of
// the workspace; the opener itself stays where it was.
func TestRunClickThatOpensAPopupListsIt(t *testing.T) {
	tab, s := liveTab(t, "")
	var derr error
	res, err := Run(ctxT(t), tab, s, clickOn("pop", &derr))
	if err != nil || derr != nil {
		t.Fatalf("run: %v, dispatch: %v", err, derr)
	}
	if res.Effect != surface.EffectApplied || res.Cause != nil {
		t.Fatalf("effect %q, cause %v", res.Effect, res.Cause)
	}
	if len(res.Opened) != 1 {
		t.Fatalf("opened %v, want the one popup", res.Opened)
	}
	h := res.Opened[0]
	if h == tab.Handle() || !s.Workspace.Live(h) {
		t.Fatalf("opened %q: the opener is %q, live %v", h, tab.Handle(), s.Workspace.Live(h))
	}
	if n := s.Workspace.TabCount(); n != 2 {
		t.Fatalf("workspace has %d tabs, want the opener and its popup", n)
	}
	if res.Landing != nil {
		t.Fatalf("the opener landed: %+v", res.Landing)
	}
	// Reported once: the next action on the opener does not list it again.
	var derr2 error
	res2, err := Run(ctxT(t), tab, s, clickOn("count", &derr2))
	if err != nil || derr2 != nil || len(res2.Opened) != 0 {
		t.Fatalf("next action: run %v, dispatch %v, opened %v", err, derr2, res2.Opened)
	}
}

// A click whose handler opens an alert: Run returns (the dialog cancels the
// held context instead of blocking it), reporting the dialog as the cause and
// the input as having reached the page. Once the alert is answered the
// handler runs on, and the next action works normally.
func TestRunClickThatOpensAnAlertReportsTheDialog(t *testing.T) {
	tab, s := liveTab(t, "")
	ctx := ctxT(t)
	var derr error
	res, err := Run(ctx, tab, s, clickOn("alert", &derr))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if !errors.Is(res.Cause, browser.ErrDialogOpened) {
		t.Fatalf("cause %v, want ErrDialogOpened (dispatch: %v)", res.Cause, derr)
	}
	if res.Dialog == nil || res.Dialog.Type != browser.DialogAlert || res.Dialog.Message != "hello" {
		t.Fatalf("dialog %+v, want the alert", res.Dialog)
	}
	if res.Blocking == nil || res.Blocking.Type != browser.DialogAlert {
		t.Fatalf("blocking %+v, want the alert", res.Blocking)
	}
	if res.Effect == surface.EffectNone {
		t.Fatal("effect none, but the click opened the alert")
	}
	if d, open := tab.Dialog(); !open || d.Type != browser.DialogAlert {
		t.Fatalf("tab dialog %+v open %v once Run returned", d, open)
	}

	// Answer it, and wait for the tab to see it closed (its change channel,
	// taken before each look, is the barrier).
	if err := input.HandleDialog(ctx, tab.Page(), true, nil); err != nil {
		t.Fatalf("answer: %v", err)
	}
	for {
		changed := tab.Changed()
		if _, open := tab.Dialog(); !open {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatal("the answered alert never closed")
		}
	}
	if got := evalMain(t, tab, `window.after`); got != "1" {
		t.Fatalf("the handler did not run on after the alert (after=%s)", got)
	}
	var derr2 error
	res2, err := Run(ctx, tab, s, clickOn("count", &derr2))
	if err != nil || derr2 != nil {
		t.Fatalf("next action: run %v, dispatch %v", err, derr2)
	}
	if res2.Cause != nil || res2.Dialog != nil || res2.Effect != surface.EffectApplied || !res2.Settle.Settled {
		t.Fatalf("next action: cause %v, dialog %v, effect %q, settle %+v", res2.Cause, res2.Dialog, res2.Effect, res2.Settle)
	}
	if got := evalMain(t, tab, `window.n`); got != "1" {
		t.Fatalf("the next click did not reach the page (n=%s)", got)
	}
}

// A click that starts a request: Run returns only after the request answered
// and its handler ran. The server holds the request until the test lets it
// go, so the order is fixed, not raced.
func TestRunWaitsForTheRequestAClickStarted(t *testing.T) {
	q, g := gates.open()
	t.Cleanup(g.open)
	tab, s := liveTab(t, q)
	ctx := ctxT(t)
	type ran struct {
		res  Result
		err  error
		derr error
	}
	done := make(chan ran, 1)
	go func() {
		var r ran
		r.res, r.err = Run(ctx, tab, s, clickOn("fetch", &r.derr))
		done <- r
	}()
	select {
	case <-g.arrived:
	case r := <-done:
		t.Fatalf("Run returned before the request reached the server: %+v (run %v, dispatch %v)", r.res, r.err, r.derr)
	case <-ctx.Done():
		t.Fatal("the request never reached the server")
	}
	select {
	case r := <-done:
		t.Fatalf("Run returned while the request was held: %+v", r.res)
	default:
	}
	g.open()
	var r ran
	select {
	case r = <-done:
	case <-ctx.Done():
		t.Fatal("Run did not return after the request answered")
	}
	if r.err != nil || r.derr != nil {
		t.Fatalf("run: %v, dispatch: %v", r.err, r.derr)
	}
	if r.res.Settle.Pending || r.res.Settle.Loading || !r.res.Settle.Settled || r.res.Effect != surface.EffectApplied {
		t.Fatalf("settle %+v, effect %q", r.res.Settle, r.res.Effect)
	}
	if got := evalMain(t, tab, `window.got`); got != "done" {
		t.Fatalf("Run returned before the response's handler ran (got=%s)", got)
	}
}

// An action that dispatches nothing has effect none and no settling, landing,
// tabs or dialog, whether or not it armed the watch.
func TestRunWithoutDispatchHasEffectNone(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   func(ctx context.Context, a *Action)
	}{
		{"nothing", func(context.Context, *Action) {}},
		{"armed only", func(ctx context.Context, a *Action) { a.Arm(ctx) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab, s := liveTab(t, "")
			gen0 := tab.Generation()
			ran := false
			res, err := Run(ctxT(t), tab, s, func(ctx context.Context, a *Action) {
				ran = true
				c.fn(ctx, a)
				if a.Dispatched() {
					t.Error("dispatched before any dispatch")
				}
			})
			if err != nil || !ran {
				t.Fatalf("run: %v, fn ran %v", err, ran)
			}
			if res.Effect != surface.EffectNone {
				t.Fatalf("effect %q, want none", res.Effect)
			}
			if res.Settle.Settled || res.Settle.Readiness != "" || len(res.Settle.Opened) != 0 {
				t.Fatalf("settled without a dispatch: %+v", res.Settle)
			}
			if res.Landing != nil || len(res.Opened) != 0 || res.Dialog != nil || res.Cause != nil {
				t.Fatalf("result %+v", res)
			}
			if tab.Generation() != gen0 {
				t.Fatal("the document changed")
			}
		})
	}
}

// A tab that cannot be held: Run says so and never runs fn.
func TestRunOnAClosedTabDoesNotRunTheAction(t *testing.T) {
	tab, s := liveTab(t, "")
	if _, err := s.Workspace.Close(ctxT(t), tab.Handle()); err != nil {
		t.Fatalf("close: %v", err)
	}
	ran := false
	_, err := Run(ctxT(t), tab, s, func(context.Context, *Action) { ran = true })
	if err == nil || ran {
		t.Fatalf("run on a closed tab: err %v, fn ran %v", err, ran)
	}
}
