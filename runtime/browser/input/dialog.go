package input

import (
	"context"
	"errors"
	"sync"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// DialogType is the kind of JavaScript dialog: "alert", "confirm", "prompt" or "beforeunload".
type DialogType string

const (
	DialogAlert        DialogType = "alert"
	DialogConfirm      DialogType = "confirm"
	DialogPrompt       DialogType = "prompt"
	DialogBeforeUnload DialogType = "beforeunload"
)

// Dialog is a snapshot of a page's JavaScript dialog state.
type Dialog struct {
	// Present reports whether a dialog is showing (blocking the page's script).
	Present bool
	// Type, Message, DefaultPrompt and URL describe the showing dialog; empty when none is.
	Type          DialogType
	Message       string
	DefaultPrompt string
	URL           string
	// Seq counts dialogs opened since the watch began; it tells two successive dialogs apart.
	Seq uint64
}

// ErrDialogOpened is the cancellation cause CancelOnOpen gives the contexts it cancels.
var ErrDialogOpened = errors.New("a JavaScript dialog opened")

// handleDialogParams is Page.handleJavaScriptDialog with promptText kept even when empty (rod's
// struct omits an empty string, which would answer a prompt with its default instead of "").
type handleDialogParams struct {
	Accept     bool    `json:"accept"`
	PromptText *string `json:"promptText,omitempty"`
}

// HandleDialog accepts or dismisses the page's showing JavaScript dialog. promptText answers a
// prompt when accepting; nil sends no text, which the browser answers with "" (DialogWatch.Handle
// answers with the prompt's default instead, as a person pressing OK would). With no dialog showing
// the error has KindNoDialog.
func HandleDialog(ctx context.Context, page *rod.Page, accept bool, promptText *string) error {
	r, err := newRun(ctx, page, "dialog")
	if err != nil {
		return err
	}
	if r.ctx.Err() != nil {
		return ctxError(r.ctx, r.op)
	}
	params := handleDialogParams{Accept: accept, PromptText: promptText}
	if _, err := page.Call(ctx, r.session, "Page.handleJavaScriptDialog", params); err != nil {
		e, _ := callError(ctx, r.op, err)
		return e
	}
	return nil
}

// DialogWatch follows one page's JavaScript dialogs.
//
// Goroutine model: WatchDialogs starts one goroutine that reads the page's DevTools events in
// protocol order and updates the state under a mutex; it ends on Close or when the page's session
// ends (then Done is closed). Every method is safe to call from any goroutine at any time. State
// changes only on the protocol's own opening/closed events, plus Handle marking the dialog it
// handled as gone (guarded by Seq, so a dialog opened meanwhile is never cleared by mistake).
type DialogWatch struct {
	page   *rod.Page
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	cur    Dialog
	seq    uint64
	opened chan struct{} // closed at the next opening, then replaced
}

// WatchDialogs subscribes to page's dialog events and makes sure the Page domain reports them. ctx
// bounds only that setup; the watch lives until Close or the end of the page's session. Start the
// watch before dispatching any input to the page: a dialog already showing is not reported.
//
// rod derives a page's event hub from the context the page was attached under (Browser.Page,
// PageFromTarget): attach pages under the browser's long-lived context, or the watch hears nothing
// once that context ends.
func WatchDialogs(ctx context.Context, page *rod.Page) (*DialogWatch, error) {
	r, err := newRun(ctx, page, "dialog_watch")
	if err != nil {
		return nil, err
	}
	life, cancel := context.WithCancel(context.Background())
	w := &DialogWatch{page: page, cancel: cancel, done: make(chan struct{}), opened: make(chan struct{})}
	events := page.Context(life).Event() // subscribe before enabling: nothing slips past
	if err := r.prep(proto.PageEnable{}); err != nil {
		cancel()
		return nil, err
	}
	go w.loop(events)
	return w, nil
}

func (w *DialogWatch) loop(events <-chan *rod.Message) {
	defer close(w.done)
	for m := range events {
		var opening proto.PageJavascriptDialogOpening
		var closed proto.PageJavascriptDialogClosed
		switch {
		case load(m, &opening):
			w.mu.Lock()
			w.seq++
			w.cur = Dialog{
				Present: true, Type: DialogType(opening.Type), Message: opening.Message,
				DefaultPrompt: opening.DefaultPrompt, URL: opening.URL, Seq: w.seq,
			}
			close(w.opened)
			w.opened = make(chan struct{})
			w.mu.Unlock()
		case load(m, &closed):
			w.mu.Lock()
			w.cur = Dialog{Seq: w.seq}
			w.mu.Unlock()
		}
	}
}

// Current returns the dialog state now.
func (w *DialogWatch) Current() Dialog {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cur
}

// Next returns the dialog state now and a channel closed when the next dialog opens, read together
// so no opening can fall between them.
func (w *DialogWatch) Next() (Dialog, <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cur, w.opened
}

// Opened returns a channel closed when the next dialog opens.
func (w *DialogWatch) Opened() <-chan struct{} {
	_, ch := w.Next()
	return ch
}

// CancelOnOpen derives a context that is cancelled with cause ErrDialogOpened as soon as a dialog
// opens, or at once if one is already showing: input dispatched under it returns instead of waiting
// on a reply the dialog holds back. Call the returned function to release it.
func (w *DialogWatch) CancelOnOpen(ctx context.Context) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancelCause(ctx)
	cur, opened := w.Next()
	if cur.Present {
		cancel(ErrDialogOpened)
		return cctx, func() { cancel(context.Canceled) }
	}
	go func() {
		select {
		case <-opened:
			cancel(ErrDialogOpened)
		case <-cctx.Done():
		}
	}()
	return cctx, func() { cancel(context.Canceled) }
}

// Handle resolves the showing dialog like HandleDialog and returns the dialog it resolved. Accepting
// a prompt with nil promptText answers with the prompt's default value. On success the watch reports
// no dialog at once, without waiting for the closed event.
func (w *DialogWatch) Handle(ctx context.Context, accept bool, promptText *string) (Dialog, error) {
	d := w.Current()
	if accept && promptText == nil && d.Present && d.Type == DialogPrompt {
		def := d.DefaultPrompt
		promptText = &def
	}
	if err := HandleDialog(ctx, w.page, accept, promptText); err != nil {
		return d, err
	}
	w.mu.Lock()
	if w.seq == d.Seq {
		w.cur = Dialog{Seq: w.seq}
	}
	w.mu.Unlock()
	return d, nil
}

// Done is closed when the watch has stopped.
func (w *DialogWatch) Done() <-chan struct{} { return w.done }

// Close stops the watch and waits for its goroutine to end.
func (w *DialogWatch) Close() {
	w.cancel()
	<-w.done
}
