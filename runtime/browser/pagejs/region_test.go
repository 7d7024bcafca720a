package pagejs

import (
	"strings"
	"testing"
)

// namedPage holds perceivable named elements that are neither controls nor
// named by their own text: a person sees each by the name given here.
const namedPage = `<style>.z{width:200px;height:80px;border:1px solid}</style>
<header aria-label="Site banner"><span>logo</span></header>
<nav aria-label="Primary"><a href="#a">Home</a></nav>
<main>
<h2>Orders</h2>
<div class="z" role="region" aria-label="Done column"><p>Drop cards here</p></div>
<div class="z" aria-label="Backlog lane">Drop cards here too</div>
<div class="z" role="group" aria-labelledby="gl"><span id="gl">Review group</span></div>
<section aria-label="Cart area"><p>Nothing yet</p></section>
<img alt="Company logo" width="20" height="20" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==">
<svg role="img" aria-label="Sales chart" width="20" height="20"></svg>
<ul aria-label="Todo list"><li>First chore</li><li aria-label="Second chore card">x</li></ul>
<figure><figcaption>Figure caption words</figcaption></figure>
<table><caption>Price table</caption><tr><td>1</td></tr></table>
<span aria-label="Warning icon">!</span>
<div class="z" style="display:none" aria-label="Hidden lane">h</div>
<div class="z" aria-hidden="true" role="region" aria-label="Muted region">m</div>
<div class="z" title="Only a title">t</div>
</main>`

func TestFindNamedElements(t *testing.T) {
	framed := siteA.add(page(`<nav aria-label="Framed nav"><a href="#x">X</a></nav>`))
	_, w := openPage(t, page(namedPage+`<div id="host"></div><iframe src="`+framed+`"></iframe>
<script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML = '<div role="region" aria-labelledby="t" style="height:40px"><b id="t">Shadow zone</b></div>';</script>`))
	ctx := testCtx(t)
	for _, c := range []struct{ q, role, name string }{
		{"Done column", "region", "Done column"},
		{"Backlog lane", "generic", "Backlog lane"},
		{"Review group", "group", "Review group"},
		{"Cart area", "region", "Cart area"},
		{"Primary", "navigation", "Primary"},
		{"Site banner", "banner", "Site banner"},
		{"Company logo", "img", "Company logo"},
		{"Sales chart", "img", "Sales chart"},
		{"Todo list", "list", "Todo list"},
		{"Second chore card", "listitem", "Second chore card"},
		{"First chore", "listitem", "First chore"},
		{"Orders", "heading", "Orders"},
		{"Price table", "table", "Price table"},
		{"Figure caption", "figure", "Figure caption words"},
		{"Warning icon", "generic", "Warning icon"},
		{"Shadow zone", "region", "Shadow zone"},
		{"Framed nav", "navigation", "Framed nav"},
	} {
		r, err := Find(ctx, w, FindRequest{Text: c.q, Max: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Matches) == 0 || r.Matches[0].Role != c.role || r.Matches[0].Name != c.name {
			t.Errorf("find %q: got %+v, want %s %q first", c.q, r.Matches, c.role, c.name)
			continue
		}
		// The match is a target: describe names it the same way.
		if d, err := Describe(ctx, w, r.Matches[0].ID); err != nil || d.Role != c.role {
			t.Errorf("describe %q: %+v %v", c.q, d, err)
		}
	}
	// One element is one match, however many ways it matches.
	r, _ := Find(ctx, w, FindRequest{Text: "Orders", Max: 10})
	if r.Total != 1 {
		t.Errorf("Orders: %d matches %+v", r.Total, r.Matches)
	}
	// A region's own text still finds it (named by the text that matched).
	r, _ = Find(ctx, w, FindRequest{Text: "Drop cards here", Scope: FindText, Max: 10})
	if r.Total != 2 || r.Matches[0].Role != "paragraph" || r.Matches[1].Role != "generic" {
		t.Errorf("own text: %+v", r.Matches)
	}
	// Named elements are not controls.
	if r, _ := Find(ctx, w, FindRequest{Text: "Done column", Scope: FindControl, Max: 5}); r.Total != 0 {
		t.Errorf("control scope found a region: %+v", r.Matches)
	}
	if r, _ := Find(ctx, w, FindRequest{Text: "Done column", Scope: FindText, Max: 5}); r.Total != 1 {
		t.Errorf("text scope: %+v", r.Matches)
	}
	// Hidden or aria-hidden named elements, and a generic's title (a
	// description, not a name), are not found.
	for _, q := range []string{"Hidden lane", "Muted region", "Only a title"} {
		if r, _ := Find(ctx, w, FindRequest{Text: q, Max: 5}); r.Total != 0 {
			t.Errorf("find %q: %+v", q, r.Matches)
		}
	}
}

// Named regions and named containers are structure: listed by structure
// and all, not by the default controls scope; the document tree holds them.
func TestInspectNamedContainers(t *testing.T) {
	_, w := openPage(t, page(namedPage+`<button>Act</button>`))
	ctx := testCtx(t)
	st, err := Inspect(ctx, w, InspectRequest{Scope: ScopeStructure, MaxItems: 100})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(roleNames(st.Items), "|")
	for _, want := range []string{"region:Done column", "generic:Backlog lane", "group:Review group", "region:Cart area", "navigation:Primary", "list:Todo list"} {
		if !strings.Contains("|"+got+"|", "|"+want+"|") {
			t.Errorf("structure lacks %s: %s", want, got)
		}
	}
	for _, no := range []string{"Hidden lane", "Muted region", "Warning icon", "Only a title", "Act"} {
		if strings.Contains(got, no) {
			t.Errorf("structure lists %q: %s", no, got)
		}
	}
	all, _ := Inspect(ctx, w, InspectRequest{Scope: ScopeAll, MaxItems: 100})
	ag := strings.Join(roleNames(all.Items), "|")
	if !strings.Contains(ag, "region:Done column") || !strings.Contains(ag, "generic:Backlog lane") || !strings.Contains(ag, "button:Act") {
		t.Errorf("all: %s", ag)
	}
	ctl, _ := Inspect(ctx, w, InspectRequest{MaxItems: 100})
	if cg := strings.Join(roleNames(ctl.Items), "|"); strings.Contains(cg, "Done column") || strings.Contains(cg, "Backlog lane") {
		t.Errorf("controls lists a region: %s", cg)
	}
	tr, err := DocumentTree(ctx, w, TreeRequest{MaxDepth: 6, MaxItems: 100})
	if err != nil {
		t.Fatal(err)
	}
	var tg []string
	for _, n := range tr.Nodes {
		tg = append(tg, n.Role+":"+n.Name)
	}
	if s := strings.Join(tg, "|"); !strings.Contains(s, "generic:Backlog lane") || !strings.Contains(s, "region:Done column") {
		t.Errorf("tree: %s", s)
	}
}

func roleNames(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Role + ":" + it.Name
	}
	return out
}
