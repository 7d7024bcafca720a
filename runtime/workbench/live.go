package workbench

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"unicode/utf8"
)

// view is one tab's live view, shared by every workbench page watching it:
// one screencast per tab however many pages show it.
type view struct {
	live Live
	subs map[chan Frame]struct{}
	last *Frame
}

// watch subscribes to the tab's live view, starting it for the first
// watcher. The channel gets the newest frame (a slow page skips frames) and
// is closed when the view ends; unwatch leaves it.
func (w *Workbench) watch(ctx context.Context, tab string) (<-chan Frame, func(), error) {
	w.mu.Lock()
	v := w.views[tab]
	var spare Live // a view started twice: the second one closes
	if v == nil {
		if n := w.o.Limits.LiveViews; n > 0 && len(w.views) >= n {
			w.mu.Unlock()
			return nil, nil, errTooMany
		}
		w.mu.Unlock()
		l, err := w.o.Browser.Live(ctx, tab)
		if err != nil {
			return nil, nil, err
		}
		w.mu.Lock()
		switch v = w.views[tab]; {
		case v != nil:
			spare = l
		case w.o.Limits.LiveViews > 0 && len(w.views) >= w.o.Limits.LiveViews:
			w.mu.Unlock()
			l.Close()
			return nil, nil, errTooMany
		default:
			v = &view{live: l, subs: map[chan Frame]struct{}{}}
			w.views[tab] = v
			go w.fan(tab, v)
		}
	}
	ch := make(chan Frame, 1)
	v.subs[ch] = struct{}{}
	if v.last != nil {
		ch <- *v.last
	}
	w.mu.Unlock()
	if spare != nil {
		spare.Close()
	}
	unwatch := func() {
		w.mu.Lock()
		if _, ok := v.subs[ch]; !ok {
			w.mu.Unlock()
			return
		}
		delete(v.subs, ch)
		close(ch)
		last := len(v.subs) == 0 && w.views[tab] == v
		if last {
			delete(w.views, tab)
		}
		w.mu.Unlock()
		if last {
			v.live.Close()
		}
	}
	return ch, unwatch, nil
}

var errTooMany = errors.New("workbench: too many live views")

// fan hands each frame to every watcher, newest first.
func (w *Workbench) fan(tab string, v *view) {
	for f := range v.live.Frames() {
		w.mu.Lock()
		v.last = &f
		for ch := range v.subs {
			select {
			case <-ch:
			default:
			}
			ch <- f
		}
		w.mu.Unlock()
	}
	// The view ended (the tab or the browser went away).
	w.mu.Lock()
	if w.views[tab] == v {
		delete(w.views, tab)
	}
	for ch := range v.subs {
		delete(v.subs, ch)
		close(ch)
	}
	w.mu.Unlock()
}

// stream serves a tab's live view as server-sent events: one "frame" event
// per frame (JSON: seq, width, height, jpeg as base64), "end" when it ends.
func (w *Workbench) stream(rw http.ResponseWriter, r *http.Request) {
	tab := r.URL.Query().Get("tab")
	if !handleLike(tab) {
		refuse(rw, http.StatusBadRequest, "/tab", "handle", "tab must be a tab handle")
		return
	}
	fl, ok := rw.(http.Flusher)
	if !ok {
		http.Error(rw, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	frames, unwatch, err := w.watch(r.Context(), tab)
	switch {
	case errors.Is(err, errTooMany):
		refuse(rw, http.StatusServiceUnavailable, "/tab", "maximum", fmt.Sprintf("at most %d live views run at once; close one", w.o.Limits.LiveViews))
		return
	case errors.Is(err, ErrNotFound):
		refuse(rw, http.StatusNotFound, "/tab", "handle", "that tab is not controlled")
		return
	case err != nil:
		refuse(rw, http.StatusBadGateway, "/tab", "unavailable", "the tab's live view could not start")
		return
	}
	defer unwatch()
	rw.Header().Set("Content-Type", "text/event-stream")
	rw.WriteHeader(http.StatusOK)
	fl.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case f, open := <-frames:
			if !open {
				_, _ = io.WriteString(rw, "event: end\ndata: {}\n\n")
				fl.Flush()
				return
			}
			b, _ := json.Marshal(map[string]any{"seq": f.Seq, "width": f.Width, "height": f.Height, "jpeg": base64.StdEncoding.EncodeToString(f.JPEG)})
			if _, err := fmt.Fprintf(rw, "event: frame\ndata: %s\n\n", b); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

// input sends one event the person made in the live view straight to the
// tab. The body is never logged or kept; a refusal names the field and the
// rule, never the value.
func (w *Workbench) input(rw http.ResponseWriter, r *http.Request) {
	tab := r.URL.Query().Get("tab")
	if !handleLike(tab) {
		refuse(rw, http.StatusBadRequest, "/tab", "handle", "tab must be a tab handle")
		return
	}
	body := http.MaxBytesReader(rw, r.Body, w.o.Limits.RequestBytes)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	var e Input
	if err := dec.Decode(&e); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			refuse(rw, http.StatusRequestEntityTooLarge, "", "maximum", fmt.Sprintf("the body is larger than %d bytes", w.o.Limits.RequestBytes))
			return
		}
		refuse(rw, http.StatusBadRequest, "", "syntax", "the body must be one JSON input event")
		return
	}
	if ptr, rule, msg := w.check(&e); ptr != "" {
		refuse(rw, http.StatusBadRequest, ptr, rule, msg)
		return
	}
	w.mu.Lock()
	v := w.views[tab]
	w.mu.Unlock()
	if v == nil {
		refuse(rw, http.StatusConflict, "/tab", "live_view", "open the tab's live view first")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), w.o.Limits.InputTimeout)
	defer cancel()
	if err := v.live.Input(ctx, e); err != nil {
		if errors.Is(err, ErrScriptedSite) {
			refuse(rw, http.StatusConflict, "/type", "scripted_site", "not sent: the model ran its own script on this site, which could read what you type into this field; press Clear site first")
			return
		}
		refuse(rw, http.StatusBadGateway, "/type", "unavailable", "the tab did not take the input")
		return
	}
	rw.WriteHeader(http.StatusNoContent)
}

var buttons = map[string]bool{"primary": true, "middle": true, "secondary": true}
var modifiers = map[string]bool{"Alt": true, "Control": true, "Meta": true, "Shift": true}

// check validates an input event: the pointer of the bad field, the rule it
// broke and a sentence, or "" when it is good.
func (w *Workbench) check(e *Input) (pointer, rule, msg string) {
	frac := func(f float64) bool { return !math.IsNaN(f) && f >= 0 && f <= 1 }
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	switch e.Type {
	case "click", "wheel":
		if !frac(e.X) {
			return "/x", "maximum", "x is a fraction of the frame's width, 0 to 1"
		}
		if !frac(e.Y) {
			return "/y", "maximum", "y is a fraction of the frame's height, 0 to 1"
		}
		if e.Type == "click" {
			if e.Button == "" {
				e.Button = "primary"
			}
			if !buttons[e.Button] {
				return "/button", "enum", "button is primary, middle or secondary"
			}
			if e.Count == 0 {
				e.Count = 1
			}
			if e.Count < 1 || e.Count > w.o.Limits.ClickCount {
				return "/count", "maximum", fmt.Sprintf("count is 1 to %d", w.o.Limits.ClickCount)
			}
			return "", "", ""
		}
		if !finite(e.DX) || !finite(e.DY) || math.Abs(e.DX) > w.o.Limits.WheelDelta || math.Abs(e.DY) > w.o.Limits.WheelDelta {
			return "/dy", "maximum", fmt.Sprintf("wheel deltas are at most %v CSS px", w.o.Limits.WheelDelta)
		}
	case "key":
		if e.Key == "" || utf8.RuneCountInString(e.Key) > w.o.Limits.KeyChars || !utf8.ValidString(e.Key) {
			return "/key", "max_length", fmt.Sprintf("key is a key name of 1 to %d characters", w.o.Limits.KeyChars)
		}
		if len(e.Modifiers) > len(modifiers) {
			return "/modifiers", "max_items", "at most four modifiers"
		}
		for i, m := range e.Modifiers {
			if !modifiers[m] {
				return fmt.Sprintf("/modifiers/%d", i), "enum", "modifiers are Alt, Control, Meta or Shift"
			}
		}
	case "text":
		if e.Text == "" || utf8.RuneCountInString(e.Text) > w.o.Limits.InputChars || !utf8.ValidString(e.Text) {
			return "/text", "max_length", fmt.Sprintf("text is 1 to %d characters", w.o.Limits.InputChars)
		}
		if strings.ContainsRune(e.Text, 0) {
			return "/text", "format", "text holds no NUL"
		}
	default:
		return "/type", "enum", "type is click, wheel, key or text"
	}
	return "", "", ""
}
