package pagejs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const secret = "SECRET-VALUE-7731"

// perceptionPage exercises naming, hiding, shadow roots and frames. The
// same-origin frame is served by siteA, the cross-origin one by siteB.
func perceptionPage(t *testing.T) string {
	same := siteA.add(page(`<button>Framed same-origin</button><p>Frame paragraph text</p>`))
	cross := siteB.add(page(`<button>Framed cross-origin</button>`))
	return page(fmt.Sprintf(`
<header><h1>Perception</h1></header>
<nav aria-label="Primary"><a href="/a">Home link</a></nav>
<main>
  <h2 aria-level="3">Section heading</h2>
  <p>Intro paragraph with words.</p>
  <form aria-label="Signup">
    <label for="email">Email address</label><input id="email" type="email" value="%[1]s" required>
    <label>Wrapped name <input id="wrapped" value="%[1]s"></label>
    <span id="lb1">Labelled</span><span id="lb2">by two</span><input aria-labelledby="lb1 lb2" value="%[1]s">
    <input placeholder="Search here" type="search" value="%[1]s">
    <input title="Titled field" value="%[1]s" readonly>
    <textarea aria-label="Notes">%[1]s</textarea>
    <div contenteditable="true" aria-label="Editor">%[1]s</div>
    <input type="password" aria-label="Password" value="%[1]s">
    <input autocomplete="one-time-code" aria-label="OTP code" value="%[1]s">
    <input autocomplete="shipping cc-number" aria-label="Card number">
    <input name="password" inputmode="numeric" aria-label="Pin lookalike">
    <input name="passport" inputmode="numeric" maxlength="6" aria-label="Passport digits">
    <input type="checkbox" id="cb" checked><label for="cb">Accept terms</label>
    <input type="radio" name="r" aria-label="Radio one">
    <select aria-label="Country"><option>France</option><option selected>Spain</option></select>
    <input type="submit" value="Send form">
    <button disabled>Disabled button</button>
    <button aria-expanded="true" aria-pressed="true">Toggle</button>
    <a href="/img"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Image link" width="10" height="10"></a>
    <div role="button" tabindex="0">Role button</div>
    <div tabindex="0" onclick="void 0">Clickable div</div>
    <div tabindex="0">Focusable only</div>
  </form>
  <div style="display:none"><button>Hidden display</button></div>
  <button style="visibility:hidden">Hidden visibility</button>
  <div aria-hidden="true"><button>Hidden aria</button></div>
  <button style="width:0;height:0;padding:0;border:0;overflow:hidden">Hidden zero</button>
  <div inert><button>Hidden inert</button></div>
  <details><summary>Closed details</summary><button>Hidden details</button></details>
  <details open><summary>Open details</summary><button>Shown details</button></details>
  <button hidden>Hidden attribute</button>
  <div style="visibility:hidden"><button style="visibility:visible">Visible in hidden</button></div>
  <div id="host"></div>
  <iframe id="same" src="%[2]s" width="300" height="120"></iframe>
  <iframe id="cross" src="%[3]s" width="300" height="120"></iframe>
  <ul><li>One</li><li>Two</li></ul>
  <table><caption>Prices</caption><tr><td>a</td></tr></table>
  <dialog open aria-label="Notice"><p>Dialog text</p><button>Close dialog</button></dialog>
</main>
<footer><p>Footer paragraph</p></footer>
<script>
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = '<button>Shadow button</button><p>Shadow paragraph</p><input aria-label="Shadow input" value="%[1]s">';
  document.querySelector('#wrapped').value = %[4]q;
</script>`, secret, same, cross, secret))
}

func waitFrames(t *testing.T, w *World) {
	t.Helper()
	ctx := testCtx(t)
	// Frames load with the page's load event; check the same-origin one rendered.
	r, err := Find(ctx, w, FindRequest{Text: "Framed same-origin", Scope: FindControl})
	if err != nil || r.Total != 1 {
		t.Fatalf("same-origin frame not ready: %v %+v", err, r)
	}
}

func TestInspectControls(t *testing.T) {
	_, w := openPage(t, perceptionPage(t))
	waitFrames(t, w)
	ctx := testCtx(t)
	res, err := Inspect(ctx, w, InspectRequest{Scope: ScopeControls, MaxItems: 200})
	if err != nil {
		t.Fatal(err)
	}
	got := names(res.Items)
	for _, want := range []string{
		"Home link", "Email address", "Wrapped name", "Labelled by two", "Search here", "Titled field",
		"Notes", "Editor", "Password", "OTP code", "Card number", "Pin lookalike", "Passport digits", "Accept terms",
		"Radio one", "Country", "Send form", "Disabled button", "Toggle", "Image link", "Role button",
		"Clickable div", "Closed details", "Open details", "Shown details", "Visible in hidden",
		"Shadow button", "Shadow input", "Framed same-origin", "Close dialog",
	} {
		if !contains(got, want) {
			t.Errorf("missing control %q in %q", want, got)
		}
	}
	for _, hidden := range []string{
		"Hidden display", "Hidden visibility", "Hidden aria", "Hidden zero", "Hidden inert",
		"Hidden details", "Hidden attribute", "Framed cross-origin", "Focusable only",
	} {
		if contains(got, hidden) {
			t.Errorf("hidden or non-control %q listed", hidden)
		}
	}
	if res.Total != len(res.Items) || res.Truncated {
		t.Errorf("total %d items %d truncated %v", res.Total, len(res.Items), res.Truncated)
	}
	role := map[string]string{
		"Home link": "link", "Email address": "textbox", "Search here": "searchbox", "Notes": "textbox",
		"Editor": "textbox", "Accept terms": "checkbox", "Radio one": "radio", "Country": "combobox",
		"Send form": "button", "Role button": "button", "Clickable div": "generic", "Closed details": "button",
		"Image link": "link",
	}
	for n, r := range role {
		if it, ok := findItem(res.Items, n); !ok || it.Role != r {
			t.Errorf("%q role %q, want %q", n, it.Role, r)
		}
	}
	// A field's own name decides too (spec/credentials.cue's words): the
	// field named "password" is one; "passport", a short digits field with
	// no code wording near it, is not.
	cred := map[string]bool{"Password": true, "OTP code": true, "Card number": true, "Pin lookalike": true, "Passport digits": false, "Email address": false}
	for n, c := range cred {
		if it, _ := findItem(res.Items, n); it.Credential != c {
			t.Errorf("%q credential %v, want %v", n, it.Credential, c)
		}
	}
	edit := map[string]bool{"Email address": true, "Notes": true, "Editor": true, "Accept terms": false, "Country": false, "Send form": false}
	for n, e := range edit {
		if it, _ := findItem(res.Items, n); it.Editable != e {
			t.Errorf("%q editable %v, want %v", n, it.Editable, e)
		}
	}
	st := func(n string) State { it, _ := findItem(res.Items, n); return it.State }
	if !st("Disabled button").Disabled || st("Send form").Disabled {
		t.Error("disabled state wrong")
	}
	if !st("Accept terms").Checked || st("Radio one").Checked {
		t.Error("checked state wrong")
	}
	if s := st("Toggle"); !s.Expanded || !s.Pressed {
		t.Errorf("toggle state %+v", s)
	}
	if !st("Email address").Required || !st("Titled field").ReadOnly || !st("Open details").Expanded || st("Closed details").Expanded {
		t.Error("required/readonly/expanded state wrong")
	}
	// IDs are distinct positive integers.
	seen := map[int]bool{}
	for _, it := range res.Items {
		if it.ID <= 0 || seen[it.ID] {
			t.Fatalf("bad id %d", it.ID)
		}
		seen[it.ID] = true
	}
	// Stable: a second inspect returns the same ids.
	res2, err := Inspect(ctx, w, InspectRequest{Scope: ScopeControls, MaxItems: 200})
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Items {
		if res.Items[i].ID != res2.Items[i].ID {
			t.Fatalf("id of %q changed: %d -> %d", res.Items[i].Name, res.Items[i].ID, res2.Items[i].ID)
		}
	}
}

func TestInspectStructure(t *testing.T) {
	_, w := openPage(t, perceptionPage(t))
	waitFrames(t, w)
	ctx := testCtx(t)
	res, err := Inspect(ctx, w, InspectRequest{Scope: ScopeStructure, MaxItems: 200})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ role, name string }{
		{"banner", ""}, {"heading", "Perception"}, {"navigation", "Primary"}, {"main", ""},
		{"heading", "Section heading"}, {"paragraph", "Intro paragraph with words."}, {"form", "Signup"},
		{"paragraph", "Shadow paragraph"}, {"paragraph", "Frame paragraph text"}, {"list", ""},
		{"table", "Prices"}, {"dialog", "Notice"}, {"paragraph", "Dialog text"}, {"contentinfo", ""},
		{"paragraph", "Footer paragraph"},
	}
	var got []string
	for _, it := range res.Items {
		got = append(got, it.Role+":"+it.Name)
	}
	var exp []string
	for _, w := range want {
		exp = append(exp, w.role+":"+w.name)
	}
	if strings.Join(got, "|") != strings.Join(exp, "|") {
		t.Errorf("structure\n got %q\nwant %q", got, exp)
	}
	if h, _ := findItem(res.Items, "Perception"); h.Level != 1 {
		t.Errorf("h1 level %d", h.Level)
	}
	if h, _ := findItem(res.Items, "Section heading"); h.Level != 3 {
		t.Errorf("aria-level heading level %d", h.Level)
	}
}

func TestInspectAllInDocumentOrder(t *testing.T) {
	_, w := openPage(t, page(`<h1>Top</h1><button>First</button><p>Middle text</p><a href="#">Second</a><h2>Low</h2>`))
	res, err := Inspect(testCtx(t), w, InspectRequest{Scope: ScopeAll, MaxItems: 10})
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(names(res.Items), ","); g != "Top,First,Middle text,Second,Low" {
		t.Errorf("order %s", g)
	}
	if _, err := Inspect(testCtx(t), w, InspectRequest{Scope: "bogus"}); KindOf(err) != KindBadRequest {
		t.Errorf("bad scope: %v", err)
	}
}

func TestEditableValuesNeverReturned(t *testing.T) {
	p, w := openPage(t, perceptionPage(t))
	waitFrames(t, w)
	ctx := testCtx(t)
	// Typed values too, not only value attributes.
	mainEval(t, p, `() => { for (const i of document.querySelectorAll('input:not([type=checkbox]):not([type=radio]):not([type=submit])')) i.value = '`+secret+`'; }`)
	var outs []any
	for _, sc := range []string{ScopeControls, ScopeStructure, ScopeAll} {
		r, err := Inspect(ctx, w, InspectRequest{Scope: sc, MaxItems: 200})
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, r)
		for _, it := range r.Items {
			d, err := Describe(ctx, w, it.ID)
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, d)
		}
	}
	for _, mode := range []string{ReadArticle, ReadVisible} {
		r, err := Read(ctx, w, ReadRequest{Mode: mode, MaxChars: 50000})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Text, "Intro paragraph") {
			t.Fatalf("%s read lacks page text: %q", mode, r.Text)
		}
		outs = append(outs, r)
	}
	tr, err := DocumentTree(ctx, w, TreeRequest{MaxDepth: 12, MaxItems: 200})
	if err != nil {
		t.Fatal(err)
	}
	outs = append(outs, tr)
	for _, q := range []string{secret, "SECRET", "7731"} {
		f, err := Find(ctx, w, FindRequest{Text: q, Max: 50})
		if err != nil {
			t.Fatal(err)
		}
		if f.Total != 0 {
			t.Errorf("find %q matched %d (editable value leaked as a name or text)", q, f.Total)
		}
		present, err := TextPresent(ctx, w, q)
		if err != nil || present {
			t.Errorf("TextPresent(%q) = %v, %v", q, present, err)
		}
	}
	for _, id := range []string{"email", "wrapped"} {
		n, err := ResolveSelector(ctx, w, Selector{Name: map[string]string{"email": "Email address", "wrapped": "Wrapped name"}[id]})
		if err != nil {
			t.Fatal(err)
		}
		pt, err := Locate(ctx, w, n)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, pt)
	}
	b, _ := json.Marshal(outs)
	if strings.Contains(string(b), "SECRET") || strings.Contains(string(b), "7731") {
		t.Fatalf("an editable value appears in perception output")
	}
}

func TestNameCutIsGraphemeSafe(t *testing.T) {
	// "é" as e + combining acute, and a family emoji (one grapheme, 7 code points).
	_, w := openPage(t, page("<button>ab\u0065\u0301cd\U0001F468\u200D\U0001F469\u200D\U0001F467xyz</button><button>   spaced \n\n  out   </button>"))
	r, err := Inspect(testCtx(t), w, InspectRequest{MaxItems: 10, NameMax: 6})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Items[0].Name, "ab\u0065\u0301cd\U0001F468\u200D\U0001F469\u200D\U0001F467"; got != want {
		t.Errorf("cut %q want %q", got, want)
	}
	if r.Items[1].Name != "spaced" {
		t.Errorf("normalized+cut %q", r.Items[1].Name)
	}
}

func TestBigPageInspectAndFind(t *testing.T) {
	_, w := openPage(t, bigPage())
	ctx := testCtx(t)
	r, err := Inspect(ctx, w, InspectRequest{MaxItems: 80})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != 80 || !r.Truncated || r.Total != 2500 {
		t.Fatalf("items %d truncated %v total %d", len(r.Items), r.Truncated, r.Total)
	}
	if r.Items[0].Name != "Link 1" || r.Items[79].Name != "Link 80" {
		t.Errorf("first items %q .. %q", r.Items[0].Name, r.Items[79].Name)
	}
	f, err := Find(ctx, w, FindRequest{Text: "button 1900", Max: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Matches) == 0 || f.Matches[0].Name != "Button 1900" || f.Matches[0].Score != 4 || f.Matches[0].Role != "button" {
		t.Fatalf("find: %+v", f)
	}
	d, err := Describe(ctx, w, f.Matches[0].ID)
	if err != nil || d.Name != "Button 1900" {
		t.Fatalf("describe: %+v %v", d, err)
	}
	// The 1,900th button is far below the fold: Locate brings it in.
	pt, err := Locate(ctx, w, f.Matches[0].ID)
	if err != nil || !pt.Scrolled {
		t.Fatalf("locate: %+v %v", pt, err)
	}
}
