package main

// The floor: the fewest raw DevTools calls that do each routine step's work,
// on the same browser, measured the same way.

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

type floor struct {
	b    *rod.Browser // an incognito context of the same browser
	p    *rod.Page
	base string
}

// raw is one floor run: its time and the bytes of the protocol replies.
type raw struct {
	took  time.Duration
	bytes int
}

func (f *floor) eval(js string, await bool) (int, error) {
	res, err := proto.RuntimeEvaluate{Expression: js, ReturnByValue: true, AwaitPromise: await}.Call(f.p)
	if err != nil {
		return 0, err
	}
	if res.ExceptionDetails != nil {
		return 0, fmt.Errorf("floor eval %q: %s", js, res.ExceptionDetails.Text)
	}
	b, _ := json.Marshal(res.Result.Value)
	return len(b), nil
}

func timed(fn func() (int, error)) (raw, error) {
	start := time.Now()
	n, err := fn()
	return raw{took: time.Since(start), bytes: n}, err
}

// navigate: Page.navigate, then the load event.
func (f *floor) navigate() (int, error) {
	wait := f.p.WaitEvent(&proto.PageLoadEventFired{})
	res, err := proto.PageNavigate{URL: f.base + "/page"}.Call(f.p)
	if err != nil {
		return 0, err
	}
	wait()
	b, _ := json.Marshal(res)
	return len(b), nil
}

func (f *floor) title() (int, error) { return f.eval(`document.title`, false) }

// newTab: a target in a new window on the other page, its load, and the list
// of targets.
func (f *floor) newTab() (int, error) {
	res, err := proto.TargetCreateTarget{URL: "about:blank", NewWindow: true}.Call(f.b)
	if err != nil {
		return 0, err
	}
	p, err := f.b.PageFromTarget(res.TargetID)
	if err != nil {
		return 0, err
	}
	p.EnableDomain(&proto.PageEnable{})
	wait := p.WaitEvent(&proto.PageLoadEventFired{})
	if _, err := (proto.PageNavigate{URL: f.base + "/other"}).Call(p); err != nil {
		return 0, err
	}
	wait()
	list, err := proto.TargetGetTargets{}.Call(f.b)
	if err != nil {
		return 0, err
	}
	b, _ := json.Marshal(list)
	defer func() { _ = p.Close() }()
	return len(b), nil
}

func (f *floor) scroll() (int, error) {
	return f.eval(`(() => { document.getElementById('far').scrollIntoView({block: 'center'}); return [scrollX, scrollY] })()`, false)
}

// inspect: one page-side walk naming the form's controls.
func (f *floor) inspect() (int, error) {
	return f.eval(`Array.from(document.querySelectorAll('input,select,textarea,button,a[href]')).map(e => ({
  role: e.tagName === 'A' ? 'link' : e.tagName === 'BUTTON' ? 'button' : e.tagName === 'SELECT' ? 'combobox' : (e.type || 'textbox'),
  name: (e.labels && e.labels[0] ? e.labels[0].textContent : e.textContent).trim()}))`, false)
}

// click: the box, press and release, and the same settling evidence
// Ghostlight waits for (the DOM unchanged across two animation frames).
func (f *floor) click() (int, error) {
	res, err := proto.RuntimeEvaluate{Expression: `(() => { const r = document.getElementById('save').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2] })()`, ReturnByValue: true}.Call(f.p)
	if err != nil {
		return 0, err
	}
	var xy [2]float64
	_ = json.Unmarshal([]byte(res.Result.Value.JSON("", "")), &xy)
	for _, t := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
		if err := (proto.InputDispatchMouseEvent{Type: t, X: xy[0], Y: xy[1], Button: proto.InputMouseButtonLeft, ClickCount: 1}).Call(f.p); err != nil {
			return 0, err
		}
	}
	n, err := f.eval(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, true)
	return n + 16, err
}

// typeText: focus and clear the field, then a key down (with its text) and
// a key up per character, as Ghostlight types (real key events fire).
func (f *floor) typeText() (int, error) {
	n, err := f.eval(`(() => { const e = document.getElementById('name'); e.focus(); e.value = ''; return true })()`, false)
	if err != nil {
		return 0, err
	}
	for _, c := range "Ada Lovelace" {
		k := string(c)
		if err := (proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeKeyDown, Key: k, Text: k}).Call(f.p); err != nil {
			return 0, err
		}
		if err := (proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeKeyUp, Key: k}).Call(f.p); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func protoBlank() proto.TargetCreateTarget { return proto.TargetCreateTarget{URL: "about:blank"} }
