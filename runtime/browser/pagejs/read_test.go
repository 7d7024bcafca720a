package pagejs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestReadModes(t *testing.T) {
	same := siteA.add(page(`<p>Framed words</p>`))
	_, w := openPage(t, page(`
<nav>Menu One Menu Two</nav>
<main>
  <h1>Headline</h1>
  <p>Article body text.</p>
  <p style="display:none">Hidden article text</p>
  <p>Typed: <input value="`+secret+`"> <textarea>`+secret+`</textarea> <select><option>Choice shown</option></select></p>
  <div contenteditable="true">`+secret+` editable</div>
  <div id="host"></div>
  <iframe src="`+same+`"></iframe>
</main>
<footer>Footer words</footer>
<script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML = '<p>Shadow prose</p><div contenteditable>`+secret+`</div>';</script>`))
	ctx := testCtx(t)
	r, err := Read(ctx, w, ReadRequest{MaxChars: 8000})
	if err != nil {
		t.Fatal(err)
	}
	if r.ModeUsed != ReadArticle || r.Title != "Test page" || !strings.HasPrefix(r.URL, "http://127.0.0.1") {
		t.Errorf("meta %+v", r)
	}
	for _, want := range []string{"Headline", "Article body text.", "Shadow prose", "Framed words"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("article lacks %q: %q", want, r.Text)
		}
	}
	for _, no := range []string{"Menu One", "Footer words", "Hidden article text", "SECRET", "editable"} {
		if strings.Contains(r.Text, no) {
			t.Errorf("article has %q: %q", no, r.Text)
		}
	}
	v, err := Read(ctx, w, ReadRequest{Mode: ReadVisible, MaxChars: 8000})
	if err != nil {
		t.Fatal(err)
	}
	if v.ModeUsed != ReadVisible || !strings.Contains(v.Text, "Menu One") || !strings.Contains(v.Text, "Footer words") || strings.Contains(v.Text, "SECRET") {
		t.Errorf("visible: %+v", v)
	}
	if !strings.Contains(v.Text, "Headline\n") {
		t.Errorf("block breaks lost: %q", v.Text)
	}
	// Target.
	f, err := Find(ctx, w, FindRequest{Text: "Article body", Max: 1})
	if err != nil || len(f.Matches) != 1 {
		t.Fatal(err, f)
	}
	tr, err := Read(ctx, w, ReadRequest{Target: f.Matches[0].ID, MaxChars: 8000})
	if err != nil || tr.Text != "Article body text." || tr.ModeUsed != "target" {
		t.Errorf("target: %+v %v", tr, err)
	}
	// MaxChars counts runes.
	cut, err := Read(ctx, w, ReadRequest{Mode: ReadVisible, MaxChars: 5})
	if err != nil || cut.Text != "Menu " || !cut.Truncated {
		t.Errorf("cut: %+v %v", cut, err)
	}
	if _, err := Read(ctx, w, ReadRequest{Mode: "all"}); KindOf(err) != KindBadRequest {
		t.Errorf("bad mode: %v", err)
	}
}

func TestReadDensestBlockAndRunes(t *testing.T) {
	long := strings.Repeat("Ünïcödé prose keeps going along the page. ", 10)
	_, w := openPage(t, page(`<div class="nav">Links Links Links</div><div class="content"><p>`+long+`</p><p>`+long+`</p></div><div>Sidebar</div>`))
	ctx := testCtx(t)
	r, err := Read(ctx, w, ReadRequest{MaxChars: 50000})
	if err != nil {
		t.Fatal(err)
	}
	if r.ModeUsed != ReadArticle || strings.Contains(r.Text, "Links") || strings.Contains(r.Text, "Sidebar") || !strings.Contains(r.Text, "Ünïcödé") {
		t.Errorf("densest: %+v", r)
	}
	c, err := Read(ctx, w, ReadRequest{MaxChars: 3})
	if err != nil || c.Text != "Ünï" || !c.Truncated || utf8.RuneCountInString(c.Text) != 3 {
		t.Errorf("rune cut %q %v", c.Text, err)
	}
	// No article-like content: falls back to visible text.
	_, w2 := openPage(t, page(`<div>Just a line</div>`))
	r2, err := Read(ctx, w2, ReadRequest{MaxChars: 100})
	if err != nil || r2.ModeUsed != ReadVisible || r2.Text != "Just a line" || r2.Truncated {
		t.Errorf("fallback: %+v %v", r2, err)
	}
}
