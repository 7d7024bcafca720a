package pagejs

import (
	"strings"
	"testing"
)

func TestFindRanking(t *testing.T) {
	same := siteA.add(page(`<p>Deep frame save notes</p>`))
	_, w := openPage(t, page(`
<p>We will save your work</p>
<button>Save</button>
<button>Save draft</button>
<a href="#">Autosave settings</a>
<p>Save</p>
<div style="display:none"><button>Save hidden</button><p>Save hidden text</p></div>
<p>Visible <span style="display:none">save</span> words</p>
<div id="host"></div>
<div style="height:3000px"></div>
<button>Save far below</button>
<iframe src="`+same+`"></iframe>
<script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML = '<button>Shadow save</button>';</script>`))
	ctx := testCtx(t)
	r, err := Find(ctx, w, FindRequest{Text: "  SAVE ", Max: 20})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range r.Matches {
		got = append(got, m.Role+":"+m.Name+":"+string(rune('0'+m.Score)))
	}
	want := []string{
		"button:Save:4", "paragraph:Save:4", // exact; control before text
		"button:Save draft:3", "button:Save far below:3", // prefix, document order
		"button:Shadow save:2", "paragraph:We will save your work:2", "paragraph:Deep frame save notes:2", // word
		"link:Autosave settings:1", // substring
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ranking\n got %q\nwant %q", got, want)
	}
	if r.Total != len(want) {
		t.Errorf("total %d", r.Total)
	}
	// Max bounds matches, not Total.
	r2, err := Find(ctx, w, FindRequest{Text: "save", Max: 2})
	if err != nil || len(r2.Matches) != 2 || r2.Total != len(want) {
		t.Fatalf("max: %+v %v", r2, err)
	}
	// Scopes.
	rc, _ := Find(ctx, w, FindRequest{Text: "save", Scope: FindControl, Max: 20})
	for _, m := range rc.Matches {
		if m.Role == "paragraph" {
			t.Errorf("control scope returned text %q", m.Name)
		}
	}
	rt, _ := Find(ctx, w, FindRequest{Text: "save", Scope: FindText, Max: 20})
	// The paragraph whose "save" is display:none does not match.
	if len(rt.Matches) != 3 {
		t.Errorf("text scope: %+v", rt.Matches)
	}
	for _, m := range rt.Matches {
		if m.Role != "paragraph" {
			t.Errorf("text scope returned %s %q", m.Role, m.Name)
		}
		if m.ID <= 0 {
			t.Errorf("text match not registered")
		}
	}
	// Text matches are real targets.
	if d, err := Describe(ctx, w, rt.Matches[0].ID); err != nil || d.Role != "paragraph" || d.Name != rt.Matches[0].Name {
		t.Errorf("describe text match: %+v %v", d, err)
	}
	if _, err := Find(ctx, w, FindRequest{Text: "   "}); KindOf(err) != KindBadRequest {
		t.Errorf("empty text: %v", err)
	}
}

func TestFindInlineControlText(t *testing.T) {
	_, w := openPage(t, page(`<p>Read <a href="#">the docs</a> now</p><ul><li><a href="#">Only link</a></li></ul><div class="x">Generic block text</div>`))
	r, err := Find(testCtx(t), w, FindRequest{Text: "the docs", Max: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Matches) != 2 || r.Matches[0].Role != "link" || r.Matches[1].Name != "Read the docs now" {
		t.Errorf("inline control: %+v", r.Matches)
	}
	g, err := Find(testCtx(t), w, FindRequest{Text: "generic block", Max: 10})
	if err != nil || len(g.Matches) != 1 || g.Matches[0].Role != "generic" {
		t.Fatalf("generic block: %+v %v", g, err)
	}
	if d, err := Describe(testCtx(t), w, g.Matches[0].ID); err != nil || d.Name != "Generic block text" {
		t.Errorf("describe generic block: %+v %v", d, err)
	}
	// A block whose only text is a control's is not a separate text match.
	r, _ = Find(testCtx(t), w, FindRequest{Text: "only link", Max: 10})
	if r.Total != 1 || r.Matches[0].Role != "link" {
		t.Errorf("control-only block: %+v", r.Matches)
	}
}

func TestResolveSelector(t *testing.T) {
	_, w := openPage(t, page(`
<button>Delete</button><button>Delete</button>
<button>Save</button><button>Save and close</button>
<a href="#">Save</a>
<label>City <input></label>
<button>Submit order</button>
<h2>Orders</h2>
<button style="display:none">Hidden one</button>`))
	ctx := testCtx(t)
	if _, err := ResolveSelector(ctx, w, Selector{Name: "Delete"}); mustKind(t, err, KindAmbiguous).Count != 2 {
		t.Errorf("ambiguous count: %v", err)
	}
	// Case-insensitive whole-name match beats substring; role narrows.
	id, err := ResolveSelector(ctx, w, Selector{Name: "save", Role: "button"})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := Describe(ctx, w, id); d.Name != "Save" || d.Role != "button" {
		t.Errorf("resolved %+v", d)
	}
	mustKind(t, func() error { _, err := ResolveSelector(ctx, w, Selector{Name: "save"}); return err }(), KindAmbiguous)
	id, err = ResolveSelector(ctx, w, Selector{Name: "Save", Roles: []string{"link"}})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := Describe(ctx, w, id); d.Role != "link" {
		t.Errorf("roles: %+v", d)
	}
	// Exact is case-sensitive.
	_, err = ResolveSelector(ctx, w, Selector{Name: "submit ORDER", Exact: true})
	mustKind(t, err, KindNoMatch)
	if _, err := ResolveSelector(ctx, w, Selector{Name: "Submit order", Exact: true}); err != nil {
		t.Error(err)
	}
	// Substring.
	id, err = ResolveSelector(ctx, w, Selector{Name: "city"})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := Describe(ctx, w, id); d.Role != "textbox" {
		t.Errorf("label: %+v", d)
	}
	_, err = ResolveSelector(ctx, w, Selector{Name: "Hidden one"})
	mustKind(t, err, KindNoMatch)
	_, err = ResolveSelector(ctx, w, Selector{Name: "Orders", Role: "heading"})
	if err != nil {
		t.Errorf("structural role selector: %v", err)
	}
	_, err = ResolveSelector(ctx, w, Selector{Name: " "})
	mustKind(t, err, KindBadRequest)
}
