package input

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

const clickPage = `<button id=b style="position:absolute;left:40px;top:40px;width:200px;height:60px">B</button>
<p id=para style="position:absolute;left:40px;top:200px;font:20px sans-serif">Alpha beta gamma delta.</p>
<script>
window.log = [];
window.moves = [];
document.addEventListener('mousemove', () => moves.push(log.length));
for (const ev of ['mousedown', 'mouseup', 'click', 'auxclick', 'contextmenu', 'dblclick'])
  document.addEventListener(ev, e => { log.push(ev + ':' + e.button + ':' + e.detail); if (ev === 'contextmenu') e.preventDefault(); });
</script>`

func TestClickButtons(t *testing.T) {
	p := newPage(t, doc(clickPage))
	pt := center(t, p, "#b")
	cases := []struct {
		button string
		want   []string // events that must be seen
		absent []string // events that must not be seen
	}{
		{"primary", []string{"mousedown:0:1", "mouseup:0:1", "click:0:1"}, []string{"auxclick:0:1", "contextmenu:0:1"}},
		{"middle", []string{"mousedown:1:1", "mouseup:1:1", "auxclick:1:1"}, []string{"click:1:1", "click:0:1"}},
		{"secondary", []string{"mousedown:2:1", "mouseup:2:1", "contextmenu:2:0"}, []string{"click:2:1", "click:0:1"}},
	}
	for _, c := range cases {
		evalInto(t, p, "log = []; moves = []", nil)
		eff, err := Click(tctx(t, 5*time.Second), p, pt, c.button, 1)
		if err != nil || eff != EffectApplied {
			t.Fatalf("%s: Click = %v, %v", c.button, eff, err)
		}
		var log []string
		evalInto(t, p, "log", &log)
		for _, w := range c.want {
			if !slices.Contains(log, w) {
				t.Errorf("%s: log %v lacks %s", c.button, log, w)
			}
		}
		for _, a := range c.absent {
			if slices.Contains(log, a) {
				t.Errorf("%s: log %v has %s", c.button, log, a)
			}
		}
		// The posted move reached the page before the press.
		var moves []int
		evalInto(t, p, "moves", &moves)
		if len(moves) == 0 || moves[0] != 0 {
			t.Errorf("%s: mousemove at log positions %v, want one before mousedown", c.button, moves)
		}
	}
}

func TestClickDoubleAndTriple(t *testing.T) {
	p := newPage(t, doc(clickPage))
	pt := center(t, p, "#para")

	if eff, err := Click(tctx(t, 5*time.Second), p, pt, "primary", 2); err != nil || eff != EffectApplied {
		t.Fatalf("double Click = %v, %v", eff, err)
	}
	var log []string
	evalInto(t, p, "log", &log)
	if !slices.Contains(log, "dblclick:0:2") || !slices.Contains(log, "click:0:2") {
		t.Errorf("double click log %v lacks dblclick/click with detail 2", log)
	}
	if sel := evalStr(t, p, "getSelection().toString().trim()"); sel != "beta" && sel != "gamma" {
		t.Errorf("double click selected %q, want one word", sel)
	}

	evalInto(t, p, "log = []; getSelection().removeAllRanges()", nil)
	if eff, err := Click(tctx(t, 5*time.Second), p, pt, "primary", 3); err != nil || eff != EffectApplied {
		t.Fatalf("triple Click = %v, %v", eff, err)
	}
	evalInto(t, p, "log", &log)
	if !slices.Contains(log, "click:0:3") {
		t.Errorf("triple click log %v lacks click with detail 3", log)
	}
	if sel := evalStr(t, p, "getSelection().toString().trim()"); sel != "Alpha beta gamma delta." {
		t.Errorf("triple click selected %q, want the paragraph", sel)
	}
}

func TestClickInvalidArguments(t *testing.T) {
	p := newPage(t, doc(clickPage))
	ctx := tctx(t, 5*time.Second)
	for name, call := range map[string]func() (Effect, error){
		"button":   func() (Effect, error) { return Click(ctx, p, Point{10, 10}, "left", 1) },
		"count":    func() (Effect, error) { return Click(ctx, p, Point{10, 10}, "primary", 0) },
		"nan":      func() (Effect, error) { return Click(ctx, p, Point{math.NaN(), 10}, "primary", 1) },
		"inf":      func() (Effect, error) { return Hover(ctx, p, Point{10, math.Inf(1)}) },
		"nil page": func() (Effect, error) { return Click(ctx, nil, Point{10, 10}, "primary", 1) },
		"wheel":    func() (Effect, error) { return Wheel(ctx, p, Point{10, 10}, math.NaN(), 0) },
		"steps":    func() (Effect, error) { return Drag(ctx, p, Point{1, 1}, Point{2, 2}, 0, nil) },
		"source":   func() (Effect, error) { return Drag(ctx, p, Point{1, 1}, Point{2, 2}, 1, nil) },
	} {
		eff, err := call()
		if KindOf(err) != KindInvalidArgument || eff != EffectNone {
			t.Errorf("%s: got %v, %v; want none, invalid argument", name, eff, err)
		}
	}
	var log []string
	evalInto(t, p, "log", &log)
	if len(log) != 0 {
		t.Errorf("invalid calls reached the page: %v", log)
	}
}

func TestClickCancelledContextSendsNothing(t *testing.T) {
	p := newPage(t, doc(clickPage))
	cause := errors.New("caller gave up")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	eff, err := Click(ctx, p, center(t, p, "#b"), "primary", 1)
	if eff != EffectNone || KindOf(err) != KindCancelled || !errors.Is(err, cause) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Click on cancelled ctx = %v, %v", eff, err)
	}
	dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer dcancel()
	if _, err := Hover(dctx, p, Point{5, 5}); KindOf(err) != KindTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Hover past deadline = %v", err)
	}
	var log []string
	evalInto(t, p, "log", &log)
	if len(log) != 0 {
		t.Errorf("cancelled click reached the page: %v", log)
	}
}

func TestHover(t *testing.T) {
	p := newPage(t, doc(`<style>#h:hover{color:rgb(255,0,0)}</style>
<div id=h style="position:absolute;left:100px;top:100px;width:100px;height:50px">hover me</div>
<script>window.over = 0; h.addEventListener('mouseover', () => over++);</script>`))
	if _, err := Hover(tctx(t, 5*time.Second), p, Point{5, 5}); err != nil {
		t.Fatal(err)
	}
	if evalBool(t, p, "h.matches(':hover')") {
		t.Fatal("hovered before the hover")
	}
	eff, err := Hover(tctx(t, 5*time.Second), p, center(t, p, "#h"))
	if err != nil || eff != EffectApplied {
		t.Fatalf("Hover = %v, %v", eff, err)
	}
	if n := evalNum(t, p, "over"); n != 1 {
		t.Errorf("mouseover fired %v times, want 1", n)
	}
	if !evalBool(t, p, "h.matches(':hover') && getComputedStyle(h).color === 'rgb(255, 0, 0)'") {
		t.Error(":hover not applied")
	}
}

func TestWheel(t *testing.T) {
	p := newPage(t, doc(`<div style="width:5000px;height:5000px;background:linear-gradient(red,blue)"></div>`))
	eff, err := Wheel(tctx(t, 5*time.Second), p, Point{200, 200}, 0, 300)
	if err != nil || eff != EffectApplied {
		t.Fatalf("Wheel = %v, %v", eff, err)
	}
	if !waitJS(t, p, "scrollY >= 300", 2*time.Second) {
		t.Fatalf("scrollY = %v after a 300px wheel", evalNum(t, p, "scrollY"))
	}
	if _, err := Wheel(tctx(t, 5*time.Second), p, Point{200, 200}, 120, -100); err != nil {
		t.Fatal(err)
	}
	if !waitJS(t, p, "scrollX >= 120 && scrollY <= 200", 2*time.Second) {
		t.Fatalf("offsets = %v,%v after a right/up wheel", evalNum(t, p, "scrollX"), evalNum(t, p, "scrollY"))
	}
}
