package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// TestWriteDenyStopsSubmitKeys: under a layer with write: deny, no key
// submits a form: type_text ending in a newline, press_key Enter in a
// form's field, and Space or Enter on its submit button are refused
// (capability_denied, the layer named) before the key goes down, and the
// form's endpoint receives nothing (its server counts). A newline in a text
// area is typing, not submitting. The same Enter under the default policy
// submits, so the count would tell.
func TestWriteDenyStopsSubmitKeys(t *testing.T) {
	s := newCredServer(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "policy.cue")
	if err := os.WriteFile(p, []byte(`capabilities: write: "deny"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ld, err := governance.Load(governance.Config{Files: []governance.File{{Layer: "workspace", Path: p}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := &policyHarness{t: t, pipe: pipeline.New(pipeline.Options{Handler: testHandler, Authority: ld.Current}), session: strings.ReplaceAll(t.Name(), "/", "_")}
	t.Cleanup(func() { testHandler.Release(context.Background(), h.session) })
	h.must("browser_navigate", `{"url":`+quote(s.A+"/form")+`,"timeout_ms":30000}`)

	denied := func(what string, r pipeline.Result) {
		t.Helper()
		// A sequence names its step's refusal in its summary, its reason step_failed.
		if r.Envelope.Status == surface.StatusSucceeded || !strings.Contains(r.Envelope.Summary, "needs the write capability") || !strings.Contains(r.Envelope.Summary, "would submit its form") {
			t.Fatalf("%s: want capability_denied for a submitting key, got %s", what, r.JSON)
		}
		if n := s.submissions(); n != 0 {
			t.Fatalf("%s: the form's endpoint received %d submissions", what, n)
		}
	}
	denied("type_text with a newline", h.call("browser_type_text", `{"selector":{"name":"Query"},"text":"hello\n"}`))
	denied("type_text with CRLF", h.call("browser_type_text", `{"selector":{"name":"Query"},"text":"again\r\n"}`))
	denied("press_key Enter in the field", h.call("browser_press_key", `{"selector":{"name":"Query"},"key":"Enter"}`))
	denied("press_key strokes ending in Enter", h.call("browser_press_key", `{"selector":{"name":"Query"},"strokes":["x","Enter"]}`))
	denied("press_key Enter on the button", h.call("browser_press_key", `{"selector":{"name":"Go"},"key":"Enter"}`))
	denied("press_key Space on the button", h.call("browser_press_key", `{"selector":{"name":"Go"},"key":"Space"}`))
	denied("sequence step", h.call("browser_sequence", `{"steps":[{"action":"type_text","selector":{"name":"Query"},"text":"q"},{"action":"press_key","key":"Enter"}]}`))
	// A newline in a text area is a newline.
	h.must("browser_type_text", `{"selector":{"name":"Notes"},"text":"line one\nline two"}`)
	if n := s.submissions(); n != 0 {
		t.Fatalf("a text area's newline submitted %d times", n)
	}

	// The default policy: the same Enter submits (the count can move).
	o := newHarness(t)
	tab := o.actOpen(s.A + "/form")
	o.must("browser_press_key", `{"tab":"`+tab+`","selector":{"name":"Query"},"key":"Enter"}`)
	if n := s.submissions(); n != 1 {
		t.Fatalf("under the default policy Enter submitted %d times, want 1", n)
	}
}
