package tools

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func (h *harness) read(args string) (surface.BrowserReadFacts, string) {
	h.t.Helper()
	r := h.must("browser_read", args)
	var f surface.BrowserReadFacts
	h.facts(r, &f)
	// The sentence names the character count of the text fact.
	n := utf8.RuneCountInString(f.Text)
	if n > 0 && !strings.Contains(r.Envelope.Summary, " "+strconv.Itoa(n)+" character") {
		h.t.Fatalf("summary %q does not name the %d characters of the text", r.Envelope.Summary, n)
	}
	return f, r.Envelope.Summary
}

func TestReadArticleVisibleAndTruncation(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{
		"/story": article(120),
		"/form": `<title>Form</title><main><p>Type your name below, please, and press save to keep it.</p>
			<input value="hunter2-secret"><textarea>draft-secret-text</textarea>
			<div contenteditable="true">editable-secret</div><p style="display:none">hidden-words</p></main>`,
	})
	nav := h.open(srv.URL + "/story")
	f, _ := h.read(`{}`)
	if f.Mode != "article" || f.Tab != nav.Tab || f.Title != "Story" || f.URL != srv.URL+"/story" || f.DocumentGeneration != nav.DocumentGeneration {
		t.Fatalf("article facts: %+v", f)
	}
	if !strings.Contains(f.Text, "The mill") || !strings.Contains(f.Text, "café crème") || strings.Contains(f.Text, "Footer chrome") {
		t.Fatalf("article text: %.300q", f.Text)
	}
	// The default bound is the contract's, and the cut is truthful.
	if n := utf8.RuneCountInString(f.Text); n != surface.ReadCharsDefault || !f.Truncated {
		t.Fatalf("default read: %d characters, truncated %v", n, f.Truncated)
	}
	small, sum := h.read(`{"max_chars":500}`)
	if n := utf8.RuneCountInString(small.Text); n != 500 || !small.Truncated || !strings.Contains(sum, "cut") {
		t.Fatalf("max_chars 500: %d characters, truncated %v, %q", n, small.Truncated, sum)
	}
	vis, _ := h.read(`{"mode":"visible","max_chars":50000}`)
	if vis.Mode != "visible" || vis.Truncated || !strings.Contains(vis.Text, "Footer chrome") || !strings.Contains(vis.Text, "Home") {
		t.Fatalf("visible read: mode %s truncated %v %.200q", vis.Mode, vis.Truncated, vis.Text)
	}
	full, _ := h.read(`{"max_chars":50000}`)
	if full.Truncated || utf8.RuneCountInString(full.Text) >= 50000 {
		t.Fatalf("whole article: truncated %v", full.Truncated)
	}

	// Editable values and hidden text are never read, in any mode.
	h.open(srv.URL + "/form")
	for _, args := range []string{`{}`, `{"mode":"visible"}`} {
		f, _ := h.read(args)
		for _, secret := range []string{"hunter2", "draft-secret", "editable-secret", "hidden-words"} {
			if strings.Contains(f.Text, secret) {
				t.Fatalf("read %s returned %q: %q", args, secret, f.Text)
			}
		}
		if !strings.Contains(f.Text, "Type your name") {
			t.Fatalf("read %s: %q", args, f.Text)
		}
	}
}

func TestReadTarget(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{
		"/":  `<title>T</title><main><section aria-label="Terms"><h2>Terms</h2><p>You agree to everything.</p></section><p>Elsewhere text.</p><button>OK</button></main>`,
		"/2": `<title>Two</title><p>Another page.</p>`,
	})
	h.open(srv.URL + "/")
	doc, _ := h.inspect(`{"scope":"document"}`)
	terms := itemNamed(t, doc.Items, "region", "Terms")
	f, sum := h.read(`{"target":"` + terms.Target + `","mode":"visible"}`)
	if f.Mode != "target" || !strings.Contains(f.Text, "You agree to everything.") || strings.Contains(f.Text, "Elsewhere") {
		t.Fatalf("target read: %+v", f)
	}
	if !strings.Contains(sum, "target") {
		t.Fatalf("summary: %s", sum)
	}
	// After a navigation the handle is stale, refused with a way back.
	h.open(srv.URL + "/2")
	r := h.refuse("browser_read", `{"target":"`+terms.Target+`"}`, surface.ReasonStaleTarget)
	if len(r.Envelope.NextSteps) == 0 || !strings.Contains(r.Envelope.NextSteps[0], "browser_inspect") {
		t.Fatalf("stale target next steps: %v", r.Envelope.NextSteps)
	}
	// A handle Ghostlight never issued is refused by the decoder or as stale.
	bad := h.call("browser_read", `{"target":"target_zzzzG1N1"}`)
	if bad.Envelope.Status == surface.StatusSucceeded {
		t.Fatalf("foreign handle read: %s", bad.JSON)
	}
}
