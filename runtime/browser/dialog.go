package browser

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Dialog types as Chromium reports them.
const (
	DialogAlert        = string(surface.DialogTypeAlert)
	DialogConfirm      = string(surface.DialogTypeConfirm)
	DialogPrompt       = string(surface.DialogTypePrompt)
	DialogBeforeUnload = string(surface.DialogTypeBeforeunload)
)

// DialogState is a JavaScript dialog blocking a tab. Message and DefaultPrompt are page
// text: keep them in memory, never in logs or audit (LogValue leaves them out).
type DialogState struct {
	Type          string // alert, confirm, prompt or beforeunload
	Message       string
	DefaultPrompt string
	URL           string // the page that opened it
	Opened        time.Time
}

// LogValue keeps dialog text out of structured logs.
func (d DialogState) LogValue() slog.Value {
	return slog.GroupValue(slog.String("type", d.Type), slog.Time("opened", d.Opened))
}

// String keeps dialog text out of formatted output.
func (d DialogState) String() string { return "dialog(" + d.Type + ")" }

// Dialog reports the dialog blocking the tab, if one is open.
func (t *Tab) Dialog() (DialogState, bool) {
	bd := t.live()
	if bd == nil {
		return DialogState{}, false
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	if bd.dialog == nil {
		return DialogState{}, false
	}
	return *bd.dialog, true
}

func (bd *binding) currentDialog() *DialogState {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	if bd.dialog == nil {
		return nil
	}
	d := *bd.dialog
	return &d
}

type guardEntry struct{ cancel context.CancelCauseFunc }

// Guard returns a context that is cancelled with cause ErrDialogOpened the moment a
// dialog opens on the tab (at once if one is open now), and with ErrTabClosed or
// ErrBrowserGone when the tab goes away. Run work that a dialog would block under it.
// Call stop when done.
func (t *Tab) Guard(ctx context.Context) (guarded context.Context, stop context.CancelFunc) {
	bd := t.live()
	if bd == nil {
		c, cancel := context.WithCancelCause(ctx)
		cancel(ErrTabClosed)
		return c, func() {}
	}
	return bd.guard(ctx)
}

func (bd *binding) guard(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancelCause(ctx)
	stopGone := context.AfterFunc(bd.ctx, func() { cancel(context.Cause(bd.ctx)) })
	e := &guardEntry{cancel: cancel}
	bd.mu.Lock()
	switch {
	case bd.gone != nil:
		cancel(bd.gone)
	case bd.dialog != nil:
		cancel(ErrDialogOpened)
	default:
		bd.guards[e] = struct{}{}
	}
	bd.mu.Unlock()
	return c, func() {
		stopGone()
		bd.mu.Lock()
		delete(bd.guards, e)
		bd.mu.Unlock()
		cancel(context.Canceled)
	}
}

// evalJSON evaluates expr (which must yield a JSON string) in the page's main world under
// a dialog guard, and decodes it into out. A dialog turns into ErrDialogOpened.
func (bd *binding) evalJSON(ctx context.Context, expr string, out any) error {
	gctx, stop := bd.guard(ctx)
	defer stop()
	res, err := proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}.Call(bd.call(gctx))
	if err != nil {
		if c := context.Cause(gctx); errors.Is(c, ErrDialogOpened) || errors.Is(c, ErrTabClosed) || errors.Is(c, ErrBrowserGone) {
			return c
		}
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("page evaluation threw: %s", res.ExceptionDetails.Text)
	}
	if res.Result == nil {
		return errors.New("page evaluation returned nothing")
	}
	return json.Unmarshal([]byte(res.Result.Value.Str()), out)
}

// answerDialog accepts or dismisses the open dialog (used for beforeunload prompts).
func (bd *binding) answerDialog(ctx context.Context, accept bool) error {
	return proto.PageHandleJavaScriptDialog{Accept: accept}.Call(bd.call(ctx))
}
