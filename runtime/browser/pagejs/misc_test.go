package pagejs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

func TestScrollRevealMetrics(t *testing.T) {
	p, w := openPage(t, page(`<style>body{margin:0}</style><div id="tall" style="height:5000px;width:3000px">top</div><button>Bottom</button>
<div id="pane" style="position:fixed;inset:0;overflow:auto;display:none"><div style="height:4000px">pane</div></div>`))
	ctx := testCtx(t)
	m, err := Metrics(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	if m.ViewportWidth != 1000 || m.ViewportHeight != 700 || m.DevicePixelRatio != 1 || m.ReadyState != "complete" || m.Title != "Test page" || m.ScrollY != 0 {
		t.Errorf("metrics %+v", m)
	}
	o, err := ScrollBy(ctx, w, 0, 400)
	if err != nil || !o.Scrolled || o.Y != 400 || o.Container {
		t.Errorf("scroll %+v %v", o, err)
	}
	o, err = ScrollBy(ctx, w, 250, 0)
	if err != nil || o.X != 250 || o.Y != 400 {
		t.Errorf("scroll x %+v %v", o, err)
	}
	bottom := idByName(t, w, "Bottom")
	mainEval(t, p, `() => scrollTo(0, 0)`)
	r, err := Reveal(ctx, w, bottom, "")
	if err != nil || !r.Scrolled || r.ScrollY == nil || *r.ScrollY < 4000 || r.Name != "Bottom" {
		t.Fatalf("reveal %+v %v", r, err)
	}
	r2, err := Reveal(ctx, w, bottom, "")
	if err != nil || r2.Scrolled || r2.ScrollY == nil || *r2.ScrollY != *r.ScrollY || r2.Name != r.Name || r2.Role != r.Role {
		t.Errorf("reveal again %+v %v", r2, err)
	}
	if m, _ := Metrics(ctx, w); m.ScrollY != *r.ScrollY {
		t.Errorf("metrics scroll %v", m.ScrollY)
	}
	// An app that scrolls an inner pane: the window cannot move.
	mainEval(t, p, `() => { scrollTo(0, 0); tall.style.display = "none"; document.querySelector("button").style.display = "none"; pane.style.display = "block"; }`)
	o, err = ScrollBy(ctx, w, 0, 300)
	if err != nil || !o.Container || o.Y != 300 || !o.Scrolled {
		t.Errorf("pane scroll %+v %v", o, err)
	}
	if v := mainEval(t, p, `() => pane.scrollTop + ',' + scrollY`); v != "300,0" {
		t.Errorf("pane/window offsets %s", v)
	}
}

func TestProbes(t *testing.T) {
	p, w := openPage(t, page(`<p>Visible words here</p><p style="display:none">Invisible words</p>
<input type="file" aria-label="Upload">
<label style="display:inline-block;padding:4px">Attach <input type="file" id="hiddenfile" style="display:none"></label>
<button id="b">Gone soon</button><input aria-label="Typed" value="typed secret">`))
	ctx := testCtx(t)
	for q, want := range map[string]bool{"visible WORDS": true, "Invisible words": false, "typed secret": false, "Attach": true} {
		got, err := TextPresent(ctx, w, q)
		if err != nil || got != want {
			t.Errorf("TextPresent(%q) = %v %v", q, got, err)
		}
	}
	if _, err := TextPresent(ctx, w, " "); KindOf(err) != KindBadRequest {
		t.Errorf("empty text: %v", err)
	}
	up := idByName(t, w, "Upload")
	if ok, err := IsFileInput(ctx, w, up); err != nil || !ok {
		t.Errorf("file input %v %v", ok, err)
	}
	// The label over a hidden file input stands in for it.
	att := idByName(t, w, "Attach")
	if ok, err := IsFileInput(ctx, w, att); err != nil || !ok {
		t.Errorf("label file input %v %v", ok, err)
	}
	gone := idByName(t, w, "Gone soon")
	if ok, _ := IsFileInput(ctx, w, gone); ok {
		t.Error("button is not a file input")
	}
	if ok, err := Present(ctx, w, gone); err != nil || !ok {
		t.Errorf("present %v %v", ok, err)
	}
	mainEval(t, p, `() => { b.style.display = 'none'; }`)
	if ok, err := Present(ctx, w, gone); err != nil || ok {
		t.Errorf("present when display:none %v %v", ok, err)
	}
	if ok, err := Present(ctx, w, 12345); err != nil || ok {
		t.Errorf("present unknown %v %v", ok, err)
	}
}

func TestElementObjectUpload(t *testing.T) {
	p, w := openPage(t, page(`<label>Attach <input type="file" id="f" style="display:none" onchange="window.got = [...this.files].map(f => f.name + ':' + f.size).join()"></label>`))
	ctx := testCtx(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "note.txt")
	if err := os.WriteFile(path, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	obj, err := w.ElementObject(ctx, idByName(t, w, "Attach"))
	if err != nil {
		t.Fatal(err)
	}
	if err := (proto.DOMSetFileInputFiles{Files: []string{path}, ObjectID: obj}).Call(p.Context(ctx)); err != nil {
		t.Fatal(err)
	}
	if got := mainEval(t, p, `() => window.got`); got != "note.txt:5" {
		t.Errorf("upload landed as %q", got)
	}
	if err := w.ReleaseObjects(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = w.ElementObject(ctx, 77)
	mustKind(t, err, KindStale)
}

func TestCallAndWorldLifecycle(t *testing.T) {
	p, w := openPage(t, page(`<button>A</button>`))
	ctx := testCtx(t)
	raw, err := w.call(ctx, `function(a, b){ return {sum: a + b, api: typeof this.inspect, doc: document.title}; }`, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Sum int
		API string
		Doc string
	}
	if err := json.Unmarshal(raw, &got); err != nil || got.Sum != 5 || got.API != "function" || got.Doc != "Test page" {
		t.Errorf("call: %s %v", raw, err)
	}
	if _, err := w.call(ctx, `function(){ throw new Error('boom'); }`); KindOf(err) != KindInternal || !strings.Contains(err.Error(), "boom") {
		t.Errorf("throw: %v", err)
	}
	if _, err := w.call(ctx, `function(x){}`, make(chan int)); KindOf(err) != KindBadRequest {
		t.Errorf("unserializable arg: %v", err)
	}
	// State set in the world survives between calls of one document and is
	// gone after a navigation (a fresh world is installed transparently).
	if _, err := w.call(ctx, `function(){ this.mark = 'kept'; }`); err != nil {
		t.Fatal(err)
	}
	raw, _ = w.call(ctx, `function(){ return this.mark || 'none'; }`)
	if string(raw) != `"kept"` {
		t.Errorf("mark %s", raw)
	}
	if s := w.currentSerial(); s != 1 {
		t.Errorf("serial %d", s)
	}
	navigate(t, p, siteA.add(page(`<button>B</button>`)))
	raw, err = w.call(ctx, `function(){ return this.mark || 'none'; }`)
	if err != nil || string(raw) != `"none"` {
		t.Errorf("after navigation %s %v", raw, err)
	}
	if s := w.currentSerial(); s != 2 {
		t.Errorf("serial after navigation %d", s)
	}
	// Reload is a new document too.
	if err := p.Context(ctx).Reload(); err != nil {
		t.Fatal(err)
	}
	if err := p.Context(ctx).WaitLoad(); err != nil {
		t.Fatal(err)
	}
	r, err := Inspect(ctx, w, InspectRequest{MaxItems: 5})
	if err != nil || len(r.Items) != 1 || r.Items[0].ID/1000000 != 3 {
		t.Errorf("after reload %+v %v", r, err)
	}
	// A closed page answers Unavailable, not a hang or panic.
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(ctx, w, InspectRequest{MaxItems: 5}); KindOf(err) != KindUnavailable {
		t.Errorf("closed page: %v", err)
	}
}

func TestStrictCSPPage(t *testing.T) {
	// The page forbids every script of its own; the isolated world still runs.
	_, w := openURL(t, siteA.add(`<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'none'; require-trusted-types-for 'script'"><title>CSP</title></head><body><button>Allowed</button><div contenteditable aria-label="Ed" style="height:20px"></div></body></html>`))
	ctx := testCtx(t)
	r, err := Inspect(ctx, w, InspectRequest{MaxItems: 5})
	if err != nil || len(r.Items) != 2 {
		t.Fatalf("inspect under CSP: %+v %v", r, err)
	}
	if err := SetValue(ctx, w, r.Items[1].ID, StringValue("typed")); err != nil {
		t.Errorf("set editable under CSP: %v", err)
	}
}

func TestModalDialogAndLabelProxy(t *testing.T) {
	_, w := openPage(t, page(`<button>Behind</button>
<label class="toggle" style="display:inline-block;width:40px;height:20px">
  <input type="checkbox" id="t" style="display:none" checked> Dark mode</label>
<dialog id="d"><button>Inside</button><input aria-label="Dialog field"></dialog>`))
	ctx := testCtx(t)
	r, err := Inspect(ctx, w, InspectRequest{MaxItems: 10})
	if err != nil {
		t.Fatal(err)
	}
	dm, ok := findItem(r.Items, "Dark mode")
	if !ok || dm.Role != "checkbox" || !dm.State.Checked || len(r.Items) != 2 {
		t.Fatalf("label proxy: %+v", r.Items)
	}
	if err := SetValue(ctx, w, dm.ID, BoolValue(false)); err != nil {
		t.Fatal(err)
	}
	if d, _ := Describe(ctx, w, dm.ID); d.State.Checked {
		t.Error("proxy checkbox still checked")
	}
	behind, _ := findItem(r.Items, "Behind")
	if _, err := w.call(ctx, `function(){ document.getElementById('d').showModal(); }`); err != nil {
		t.Fatal(err)
	}
	r, err = Inspect(ctx, w, InspectRequest{MaxItems: 10})
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(names(r.Items), ","); g != "Inside,Dialog field" {
		t.Errorf("modal scope: %s", g)
	}
	_, err = Locate(ctx, w, behind.ID)
	if e := mustKind(t, err, KindObscured); e.Role != "dialog" {
		t.Errorf("behind modal: %+v", e)
	}
}

func TestConcurrentCallsInstallOnce(t *testing.T) {
	_, w := openPage(t, page(`<button>One</button><button>Two</button>`))
	ctx := testCtx(t)
	errs := make(chan error, 6)
	ids := make(chan int, 6)
	for i := 0; i < 6; i++ {
		go func() {
			r, err := Inspect(ctx, w, InspectRequest{MaxItems: 5})
			if err == nil && len(r.Items) == 2 {
				ids <- r.Items[1].ID
			}
			errs <- err
		}()
	}
	for i := 0; i < 6; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(ids)
	first := -1
	for id := range ids {
		if first >= 0 && id != first {
			t.Errorf("ids differ across concurrent calls: %d vs %d", first, id)
		}
		first = id
	}
	if serial := w.currentSerial(); serial != 1 {
		t.Errorf("installed %d times", serial)
	}
}
