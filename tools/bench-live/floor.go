package main

// The floor: the fewest raw DevTools calls that do each routine step's work,
// on the same browser, measured the same way.

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

type floor struct {
	b    *rod.Browser // an incognito context of the same browser
	p    *rod.Page
	base string
	ctx  proto.RuntimeExecutionContextID // the probes' isolated world (world)
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
	res, err := proto.RuntimeEvaluate{Expression: `(() => { const r = document.getElementById('save').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, innerWidth, innerHeight] })()`, ReturnByValue: true}.Call(f.p)
	if err != nil {
		return 0, err
	}
	var xy [4]float64
	_ = json.Unmarshal([]byte(res.Result.Value.JSON("", "")), &xy)
	if xy[0] < 0 || xy[1] < 0 || xy[0] >= xy[2] || xy[1] >= xy[3] {
		// A press outside the viewport meets nothing: the floor would time
		// two frames and no click.
		return 0, fmt.Errorf("floor click: Save's centre %v,%v is outside the %vx%v viewport", xy[0], xy[1], xy[2], xy[3])
	}
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

// The same calls: the DevTools commands Ghostlight's step makes, at their
// smallest and sent at once, without Ghostlight. A step the browser answers
// in about a millisecond pays a round trip per command of its evidence: the
// renderer answers one session's commands one after another. So this is the
// floor for the work Ghostlight does (the script and the evidence that the
// page is quiet), where the floor above is the script alone.

// probeJS is the smallest settling probe: a mutation count and the ready
// state, from an observer the first call installs in the isolated world.
const probeJS = `function () {
  var s = globalThis.__floor;
  if (!s) {
    s = globalThis.__floor = { seq: 0 };
    new MutationObserver(function (r) { s.seq += r.length; }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  return [s.seq, document.readyState];
}`

// world makes the isolated world the probes run in, on the floor's current
// document (untimed, once per step that uses it).
func (f *floor) world() error {
	w, err := proto.PageCreateIsolatedWorld{FrameID: f.p.FrameID, WorldName: "floor"}.Call(f.p)
	if err != nil {
		return err
	}
	f.ctx = w.ExecutionContextID
	_, err = f.probe()
	return err
}

func (f *floor) probe() (int, error) {
	return f.inWorld(probeJS)
}

func (f *floor) inWorld(fn string) (int, error) {
	res, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: fn, ExecutionContextID: f.ctx, ReturnByValue: true}.Call(f.p)
	if err != nil {
		return 0, err
	}
	if res.ExceptionDetails != nil {
		return 0, fmt.Errorf("floor call: %s", res.ExceptionDetails.Text)
	}
	b, _ := json.Marshal(res.Result.Value)
	return len(b), nil
}

// atOnce runs calls concurrently and waits for all: their commands go out
// together, as Ghostlight sends its baseline, action and quiet probe.
func atOnce(calls ...func() (int, error)) (int, error) {
	var wg sync.WaitGroup
	ns := make([]int, len(calls))
	errs := make([]error, len(calls))
	for i, c := range calls {
		wg.Go(func() { ns[i], errs[i] = c() })
	}
	wg.Wait()
	total := 0
	for i := range calls {
		if errs[i] != nil {
			return 0, errs[i]
		}
		total += ns[i]
	}
	return total, nil
}

func (f *floor) titleSame() (int, error) { return atOnce(f.probe, f.title, f.probe) }

func (f *floor) scrollSame() (int, error) {
	reveal := func() (int, error) {
		return f.inWorld(`function () { document.getElementById('far').scrollIntoView({block: 'center'}); return [scrollX, scrollY]; }`)
	}
	return atOnce(f.probe, reveal, f.probe)
}

func (f *floor) inspectSame() (int, error) {
	tree := func() (int, error) {
		res, err := proto.PageGetFrameTree{}.Call(f.p)
		if err != nil {
			return 0, err
		}
		b, _ := json.Marshal(res)
		return len(b), nil
	}
	return atOnce(tree, f.inspect)
}
