package server

import (
	"errors"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// TestModelScriptNeverHearsThePersonsSecret: the attack. Before it reaches
// the password field, the model runs a script on the sign-in page that
// copies whatever is typed into the field into the page's text (for a later
// browser_read) and into localStorage (for a script on a later document).
// The person, asked to type the password, would hand it to that script. So
// the person's keys are not sent to a credential field of a site the
// model's script ran on: the page's field, its text and its storage stay
// empty, as read through DevTools. The person clears the site (storage gone,
// the page reloaded without the listener) and types: the field holds the
// secret and no model result, nor the page's text, carries it. A script on
// another site does not stop the person (the rule is per site).
func TestModelScriptNeverHearsThePersonsSecret(t *testing.T) {
	const secret = "PERSON-SECRET-7373"
	signIn := serve(t, signInPage)
	other := serve(t, `<title>Other</title><p>Another site</p>`)
	h := newCredHarness(t, signIn.URL+"/")
	call, tab, wb, ctx := h.call, h.tab, h.wb, h.ctx
	listen := `{"tab":"` + tab + `","script":"localStorage.setItem('left','model'); document.getElementById('pw').addEventListener('input', function (e) { document.getElementById('out').textContent = e.target.value; localStorage.setItem('heard', e.target.value) }); 1"}`
	if r := call("browser_execute", listen); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("the model's listener: %s", r.JSON)
	}
	askPerson := func(scripted bool) {
		t.Helper()
		r := call("browser_type_text", `{"tab":"`+tab+`","selector":{"name":"Password"},"text":"model-guess"}`)
		if !strings.Contains(string(r.JSON), `"credential_handoff"`) {
			t.Fatalf("type_text into the password field: %s", r.JSON)
		}
		// The model is told the person clears the site first (its cookies go).
		if said := strings.Contains(string(r.JSON), `"site_scripted":true`) && strings.Contains(r.Envelope.Summary+strings.Join(r.Envelope.NextSteps, " "), "Clear site"); said != scripted {
			t.Fatalf("the handoff says the site is scripted: %v, want %v: %s", said, scripted, r.JSON)
		}
	}
	askPerson(true)
	person := func() error { return h.person(secret) }
	page := h.page
	scripted := func() bool { return h.listed().Scripted }

	if !scripted() {
		t.Fatal("the workbench does not show the site as scripted by the model")
	}
	if err := person(); !errors.Is(err, workbench.ErrScriptedSite) {
		t.Fatalf("the person's keys into the scripted site's password field: %v, want ErrScriptedSite", err)
	}
	for what, js := range map[string]string{"the field": `document.getElementById('pw').value`, "the page's text": `document.getElementById('out').textContent`, "the page's storage": `localStorage.getItem('heard')`} {
		if v := page(js); strings.Contains(v, "7373") {
			t.Fatalf("%s holds the person's secret (%q): the model's listener heard it", what, v)
		}
	}

	// The person clears the site: what the script left goes, the page
	// reloads without its listener, and the person's keys go through.
	gen := wb.tab(tab).Generation()
	if err := wb.ClearSite(ctx, tab); err != nil {
		t.Fatal(err)
	}
	if g := wb.tab(tab).Generation(); g == gen {
		t.Fatalf("the tab did not reload (generation %d)", g)
	}
	if v := page(`localStorage.getItem('left')`); v != "null" {
		t.Fatalf("the site's storage still holds what the model's script left: %q", v)
	}
	if scripted() {
		t.Fatal("the site still shows as scripted after the person cleared it")
	}
	if err := person(); err != nil {
		t.Fatalf("the person's keys after clearing: %v", err)
	}
	if v := page(`document.getElementById('pw').value`); v != secret {
		t.Fatalf("the field holds %q, want the person's secret", v)
	}
	if v := page(`document.getElementById('out').textContent + '|' + localStorage.getItem('heard')`); v != "Words|null" {
		t.Fatalf("a listener heard the secret after the reload: %q", v)
	}
	for _, c := range []struct{ tool, args string }{
		{"browser_read", `{"tab":"` + tab + `"}`},
		{"browser_execute", `{"tab":"` + tab + `","script":"document.getElementById('pw').value"}`},
		{"browser_find", `{"tab":"` + tab + `","text":"PERSON"}`},
	} {
		if r := call(c.tool, c.args); strings.Contains(string(r.JSON), "7373") {
			t.Fatalf("%s returned the person's secret: %s", c.tool, r.JSON)
		}
	}

	// Per site: the model's script on another site leaves the sign-in site
	// as the person cleared it.
	if r := call("browser_navigate", `{"tab":"`+tab+`","url":"`+other.URL+`/","timeout_ms":30000}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("navigate to the other site: %s", r.JSON)
	}
	if r := call("browser_execute", `{"tab":"`+tab+`","script":"1"}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("execute on the other site: %s", r.JSON)
	}
	if !scripted() {
		t.Fatal("the other site does not show as scripted")
	}
	if r := call("browser_navigate", `{"tab":"`+tab+`","url":"`+signIn.URL+`/","timeout_ms":30000}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("navigate back: %s", r.JSON)
	}
	askPerson(false)
	if err := person(); err != nil {
		t.Fatalf("the person's keys on the sign-in site after a script on another site: %v", err)
	}
}
