package server

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestPersonCredentialStaysTheirs: the model's type_text stops at a password
// field; the person clicks it and types "PERSON-SECRET-4242" through the
// workbench's live view (the adapter the workbench's input API calls) and
// hands the tab back. The page then holds the secret (read through
// DevTools), yet the model's browser_execute reading the field, and its
// browser_screenshot, are refused
// (attention_required, credential_handoff, the summary saying why), and no
// result of execute, read, inspect or find carries the secret. The person's
// Release in the workbench lets script run again; so does a navigation.
func TestPersonCredentialStaysTheirs(t *testing.T) {
	const secret = "PERSON-SECRET-4242"
	page := serve(t, signInPage)
	h := newCredHarness(t, page.URL+"/")
	call, tab, wb := h.call, h.tab, h.wb
	if r := call("browser_type_text", `{"tab":"`+tab+`","selector":{"name":"Password"},"text":"model-guess"}`); !strings.Contains(string(r.JSON), `"credential_handoff"`) {
		t.Fatalf("type_text into the password field: %s", r.JSON)
	}
	person := func() {
		t.Helper()
		if err := h.person(secret); err != nil {
			t.Fatal(err)
		}
	}
	pageValue := func() string { return h.page(`document.getElementById('pw').value`) }
	held := func() bool { return h.listed().Held }

	person()
	if !wb.HandBack(tab) {
		t.Fatal("no handoff to hand back")
	}
	if v := pageValue(); v != secret {
		t.Fatalf("the page holds %q, want the person's secret", v)
	}
	if !held() {
		t.Fatal("the workbench does not show the tab as holding the person's credential")
	}
	read := `{"tab":"` + tab + `","script":"document.getElementById('pw').value"}`
	r := call("browser_execute", read)
	if r.Envelope.Status != surface.StatusAttentionRequired || !strings.Contains(string(r.JSON), `"credential_handoff"`) ||
		!strings.Contains(r.Envelope.Summary, "typed a credential into this page") || !strings.Contains(r.Envelope.Summary, "Release") {
		t.Fatalf("browser_execute on the held document: %s", r.JSON)
	}
	for _, c := range []struct{ tool, args string }{
		{"browser_execute", read},
		{"browser_read", `{"tab":"` + tab + `"}`},
		{"browser_inspect", `{"tab":"` + tab + `"}`},
		{"browser_find", `{"tab":"` + tab + `","text":"PERSON"}`},
		{"browser_find", `{"tab":"` + tab + `","text":"Password"}`},
	} {
		if r := call(c.tool, c.args); strings.Contains(string(r.JSON), "4242") {
			t.Fatalf("%s returned the person's secret: %s", c.tool, r.JSON)
		}
	}

	// No picture of it either: a card number or a code is not masked.
	shot := `{"tab":"` + tab + `"}`
	if r := call("browser_screenshot", shot); r.Envelope.Status != surface.StatusAttentionRequired ||
		!strings.Contains(string(r.JSON), `"credential_handoff"`) || !strings.Contains(r.Envelope.Summary, "a picture could show it") {
		t.Fatalf("browser_screenshot on the held document: %s", r.JSON)
	}

	// The person releases the document: script runs again.
	if !wb.Release(tab) || wb.Release(tab) {
		t.Fatal("release: want true once")
	}
	if r := call("browser_execute", `{"tab":"`+tab+`","script":"1"}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("execute after release: %s", r.JSON)
	}
	if r := call("browser_screenshot", shot); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("screenshot after release: %s", r.JSON)
	}

	// Typed again, then the tab navigates: the new document is not held.
	// The model's script just ran on the site, so the person clears it
	// first (credscript_test.go).
	if err := wb.ClearSite(h.ctx, tab); err != nil {
		t.Fatal(err)
	}
	person()
	if !held() {
		t.Fatal("typing again did not hold the document")
	}
	if r := call("browser_execute", `{"tab":"`+tab+`","script":"1"}`); r.Envelope.Status != surface.StatusAttentionRequired {
		t.Fatalf("execute before the navigation: %s", r.JSON)
	}
	if r := call("browser_navigate", `{"tab":"`+tab+`","url":"`+page.URL+`/again","timeout_ms":30000}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("navigate: %s", r.JSON)
	}
	r = call("browser_execute", read)
	if r.Envelope.Status != surface.StatusSucceeded || strings.Contains(string(r.JSON), "4242") {
		t.Fatalf("execute on the new document: %s", r.JSON)
	}
}
