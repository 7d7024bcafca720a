package pagejs

import (
	"math"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// press sends a real mouse click at a viewport point.
func press(t *testing.T, p *rod.Page, x, y float64) {
	t.Helper()
	for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
		err := proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: proto.InputMouseButtonLeft, ClickCount: 1}.Call(p.Context(testCtx(t)))
		if err != nil {
			t.Fatal(err)
		}
	}
}

func idByName(t *testing.T, w *World, name string) int {
	t.Helper()
	id, err := ResolveSelector(testCtx(t), w, Selector{Name: name, Exact: true})
	if err != nil {
		t.Fatalf("resolve %q: %v", name, err)
	}
	return id
}

func TestLocate(t *testing.T) {
	same := siteA.add(page(`<div style="height:40px"></div><button onclick="parent.clicked.push('framed')">Framed</button>`))
	p, w := openPage(t, page(`
<script>window.clicked = [];</script>
<style>body{margin:0} button{width:120px;height:30px}</style>
<button style="position:absolute;left:100px;top:50px" onclick="clicked.push('plain')">Plain</button>
<button style="position:absolute;left:300px;top:50px" disabled>Off</button>
<button style="position:absolute;left:500px;top:50px;visibility:hidden">Ghost</button>
<div style="position:absolute;left:700px;top:40px">
  <button onclick="clicked.push('covered')">Covered</button>
  <div role="dialog" aria-label="Cookie banner" style="position:absolute;left:0;top:0;width:200px;height:60px;background:#eee"></div>
</div>
<div id="host" style="position:absolute;left:100px;top:150px"></div>
<iframe src="`+same+`" style="position:absolute;left:300px;top:150px;width:300px;height:150px;border:7px solid black;padding:5px"></iframe>
<main style="position:absolute;left:700px;top:150px">
  <button>Under</button>
  <div title="Spinner" style="position:absolute;left:0;top:0;width:200px;height:60px"></div>
</main>
<div style="position:absolute;top:3000px"><button onclick="clicked.push('far')">Far</button></div>
<label style="position:absolute;left:100px;top:350px">
  <input type="checkbox" id="styled" style="position:absolute;opacity:0;width:1px;height:1px"> Styled check
</label>
<script>
  const r = document.getElementById('host').attachShadow({mode:'open'});
  r.innerHTML = '<button>Shadowed</button>';
  r.querySelector('button').onclick = () => clicked.push('shadow');
</script>`))
	ctx := testCtx(t)
	// Plain: centre of its box.
	pt, err := Locate(ctx, w, idByName(t, w, "Plain"))
	if err != nil {
		t.Fatal(err)
	}
	if pt.X != 160 || pt.Y != 65 || pt.Box != (Box{X: 100, Y: 50, Width: 120, Height: 30}) || pt.Scrolled || pt.Role != "button" || pt.Tag != "button" {
		t.Errorf("plain: %+v", pt)
	}
	press(t, p, pt.X, pt.Y)
	// Shadow root and frame (border + padding offsets).
	sp, err := Locate(ctx, w, idByName(t, w, "Shadowed"))
	if err != nil {
		t.Fatal(err)
	}
	press(t, p, sp.X, sp.Y)
	fp, err := Locate(ctx, w, idByName(t, w, "Framed"))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(fp.Box.X-(300+7+5+8)) > 0.5 || math.Abs(fp.Box.Y-(150+7+5+8+40)) > 0.5 {
		t.Errorf("frame offsets: %+v", fp.Box)
	}
	press(t, p, fp.X, fp.Y)
	// Far below: scrolled into view, point inside the viewport.
	far, err := Locate(ctx, w, idByName(t, w, "Far"))
	if err != nil {
		t.Fatal(err)
	}
	if !far.Scrolled || far.Y < 0 || far.Y > 700 {
		t.Errorf("far: %+v", far)
	}
	press(t, p, far.X, far.Y)
	// Already in view: no scroll.
	far2, err := Locate(ctx, w, idByName(t, w, "Far"))
	if err != nil || far2.Scrolled || far2.Y != far.Y {
		t.Errorf("far again: %+v %v", far2, err)
	}
	if got := mainEval(t, p, `() => clicked.join(',')`); got != "plain,shadow,framed,far" {
		t.Errorf("clicks landed: %s", got)
	}
	mainEval(t, p, `() => scrollTo(0, 0)`)
	// Refusals.
	_, err = Locate(ctx, w, mustInspectID(t, w, "Off"))
	mustKind(t, err, KindDisabled)
	if _, err := LocateWith(ctx, w, mustInspectID(t, w, "Off"), LocateOptions{AllowDisabled: true}); err != nil {
		t.Errorf("allow disabled: %v", err)
	}
	ghost := mustFindHiddenID(t, p, w, "Ghost")
	_, err = Locate(ctx, w, ghost)
	mustKind(t, err, KindHidden)
	e := mustKind(t, func() error { _, err := Locate(ctx, w, idByName(t, w, "Covered")); return err }(), KindObscured)
	if e.Role != "dialog" || e.Name != "Cookie banner" || !strings.Contains(e.Detail, "Cookie banner") {
		t.Errorf("obscured by: %+v", e)
	}
	// A plain overlay inside a landmark: the landmark (a common ancestor) is
	// not the cover.
	e = mustKind(t, func() error { _, err := Locate(ctx, w, idByName(t, w, "Under")); return err }(), KindObscured)
	if e.Role != "generic" || e.Name != "Spinner" {
		t.Errorf("obscured by plain overlay: %+v", e)
	}
	if _, err := LocateWith(ctx, w, idByName(t, w, "Covered"), LocateOptions{AllowObscured: true}); err != nil {
		t.Errorf("allow obscured: %v", err)
	}
	// A visually hidden checkbox under its label: the label receives the press.
	sc, err := Locate(ctx, w, idByName(t, w, "Styled check"))
	if err != nil {
		t.Fatalf("styled checkbox: %v", err)
	}
	press(t, p, sc.X, sc.Y)
	if mainEval(t, p, `() => String(document.getElementById('styled').checked)`) != "true" {
		t.Error("styled checkbox not toggled by the located point")
	}
}

func mustInspectID(t *testing.T, w *World, name string) int {
	t.Helper()
	r, err := Inspect(testCtx(t), w, InspectRequest{MaxItems: 200})
	if err != nil {
		t.Fatal(err)
	}
	it, ok := findItem(r.Items, name)
	if !ok {
		t.Fatalf("no item %q", name)
	}
	return it.ID
}

// mustFindHiddenID registers an element that perception would not list by
// making it visible, inspecting, and hiding it again.
func mustFindHiddenID(t *testing.T, p *rod.Page, w *World, name string) int {
	t.Helper()
	mainEval(t, p, `() => { for (const b of document.querySelectorAll('button')) if (b.textContent === '`+name+`') b.dataset.was = b.style.visibility, b.style.visibility = 'visible'; }`)
	id := mustInspectID(t, w, name)
	mainEval(t, p, `() => { for (const b of document.querySelectorAll('button')) if (b.textContent === '`+name+`') b.style.visibility = b.dataset.was; }`)
	return id
}

func TestStaleIDs(t *testing.T) {
	p, w := openPage(t, page(`<button id="a">Alpha</button><button>Beta</button>`))
	ctx := testCtx(t)
	alpha := idByName(t, w, "Alpha")
	beta := idByName(t, w, "Beta")
	mainEval(t, p, `() => document.getElementById('a').remove()`)
	for name, f := range map[string]func() error{
		"describe": func() error { _, err := Describe(ctx, w, alpha); return err },
		"locate":   func() error { _, err := Locate(ctx, w, alpha); return err },
		"setValue": func() error { return SetValue(ctx, w, alpha, StringValue("x")) },
		"focus":    func() error { return Focus(ctx, w, alpha) },
		"read":     func() error { _, err := Read(ctx, w, ReadRequest{Target: alpha}); return err },
		"object":   func() error { _, err := w.ElementObject(ctx, alpha); return err },
	} {
		if err := f(); KindOf(err) != KindStale {
			t.Errorf("%s after removal: %v", name, err)
		}
	}
	if ok, err := Present(ctx, w, alpha); err != nil || ok {
		t.Errorf("present after removal: %v %v", ok, err)
	}
	if ok, err := Present(ctx, w, beta); err != nil || !ok {
		t.Errorf("present: %v %v", ok, err)
	}
	// A new document: earlier ids are stale even though the new page has
	// elements at the same registry positions.
	navigate(t, p, siteA.add(page(`<button>Gamma</button><button>Delta</button>`)))
	if _, err := Describe(ctx, w, beta); KindOf(err) != KindStale {
		t.Errorf("describe after navigation: %v", err)
	}
	r, err := Inspect(ctx, w, InspectRequest{MaxItems: 10})
	if err != nil || len(r.Items) != 2 || r.Items[0].Name != "Gamma" {
		t.Fatalf("inspect after navigation: %+v %v", r, err)
	}
	if r.Items[0].ID == alpha || r.Items[1].ID == beta {
		t.Errorf("ids reused across documents: %d %d", r.Items[0].ID, r.Items[1].ID)
	}
	if _, err := Describe(ctx, w, beta); KindOf(err) != KindStale {
		t.Errorf("describe old id in new world: %v", err)
	}
	// Same-document navigation keeps the registry.
	mainEval(t, p, `() => history.pushState({}, '', '#next')`)
	if d, err := Describe(ctx, w, r.Items[0].ID); err != nil || d.Name != "Gamma" {
		t.Errorf("after pushState: %+v %v", d, err)
	}
}

func TestRegistryInvisibleToPage(t *testing.T) {
	p, w := openPage(t, page(`<button>One</button><input aria-label="Field"><p>Text here</p>
<script>
  window.observed = [];
  new MutationObserver(ms => { for (const m of ms) observed.push(m.type + ':' + (m.attributeName || '')); })
    .observe(document, {subtree: true, attributes: true, childList: true, characterData: true});
  // Hostile page: poison the builtins Ghostlight would use if it ran here.
  window.touched = Object.create(null);
  for (const [o, k] of [[window, 'WeakMap'], [window, 'Map'], [window, 'WeakRef'], [Array.prototype, 'push'],
      [Element.prototype, 'getAttribute'], [Element.prototype, 'checkVisibility'], [Node.prototype, 'contains'],
      [Element.prototype, 'getBoundingClientRect'], [String.prototype, 'toLowerCase']]) {
    const orig = o[k];
    o[k] = function (...a) { touched[k] = 1; return new.target ? Reflect.construct(orig, a, new.target) : orig.apply(this, a); };
  }
  window.baseline = null; window.baseline = new Set(Object.getOwnPropertyNames(window));
</script>`))
	ctx := testCtx(t)
	mainEval(t, p, `() => { for (const k in touched) delete touched[k]; }`)
	if _, err := Inspect(ctx, w, InspectRequest{Scope: ScopeAll, MaxItems: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(ctx, w, FindRequest{Text: "one"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(ctx, w, ReadRequest{MaxChars: 100}); err != nil {
		t.Fatal(err)
	}
	if _, err := DocumentTree(ctx, w, TreeRequest{MaxDepth: 3, MaxItems: 10}); err != nil {
		t.Fatal(err)
	}
	res := mainEval(t, p, `() => JSON.stringify({
		touched: Object.keys(touched),
		observed: observed,
		extraGlobals: Object.getOwnPropertyNames(window).filter(n => !baseline.has(n)),
		elementProps: [...document.querySelectorAll('*')].flatMap(e => [...Object.getOwnPropertyNames(e), ...Object.getOwnPropertySymbols(e).map(String)]),
		docProps: [...Object.getOwnPropertyNames(document), ...Object.getOwnPropertySymbols(document).map(String)],
		attrs: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes].map(a => a.name)).filter(n => /ghost|gl-|data-id/i.test(n)),
	})`)
	want := `{"touched":[],"observed":[],"extraGlobals":[],"elementProps":[],"docProps":["location"],"attrs":[]}`
	if res != want {
		t.Errorf("page saw Ghostlight:\n got %s\nwant %s", res, want)
	}
	// The traps work: the same builtins used from the page's world are seen.
	if got := mainEval(t, p, `() => { new WeakMap(); document.body.getAttribute('x'); return Object.keys(touched).join(); }`); got != "WeakMap,getAttribute" {
		t.Errorf("trap self-check: %q", got)
	}
}
