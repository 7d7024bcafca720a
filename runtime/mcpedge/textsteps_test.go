package mcpedge

import (
	"bytes"
	"strings"
	"testing"
)

// A flow's text keeps the rows of succeeded action steps and the envelopes of
// read-only, failed and last steps, without the members their rows say.
func TestCompactStepsInText(t *testing.T) {
	step := func(id, tool, status, facts string) string {
		return `{"id":"` + id + `","tool":"` + tool + `","status":"` + status + `","effect":"applied","envelope":{"invocation":"inv_x","status":"` + status +
			`","effect":"applied","readiness":"complete","summary":"` + id + ` said","untrusted_quotes":true,"facts":` + facts + `,"next_steps":["after ` + id + `"]}}`
	}
	env := `{"invocation":"inv_f","status":"failed","facts":{"completed":4,"steps":[` +
		step("a", "browser_click", "succeeded", `{"landing":{"url":"u1"}}`) + `,` +
		step("b", "browser_read", "succeeded", `{"text":"seen"}`) + `,` +
		step("c", "browser_type_text", "failed", `{"reason":"stale_target"}`) + `,` +
		step("d", "browser_click", "succeeded", `{"landing":{"url":"u2"}}`) + `]}}`
	var b bytes.Buffer
	if err := textJSON(&b, []byte(env)); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{`"b said"`, `"seen"`, `"c said"`, `"stale_target"`, `"d said"`, `"u2"`, `["after d"]`} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %s: %s", want, got)
		}
	}
	for _, gone := range []string{`"u1"`, `"inv_x"`, `after a`, `after b`, `after c`, `"untrusted_quotes"`} {
		if strings.Contains(got, gone) {
			t.Errorf("text still has %s: %s", gone, got)
		}
	}
	if !strings.Contains(got, `["a","browser_click","succeeded","applied","a said"]`) {
		t.Errorf("the action step's row with its summary is missing: %s", got)
	}
	// An envelope that is not a composite's is untouched.
	b.Reset()
	plain := `{"facts":{"steps":3,"items":[{"a":1},{"a":2}]}}`
	if err := textJSON(&b, []byte(plain)); err != nil || !strings.Contains(b.String(), `"steps":3`) {
		t.Fatalf("plain envelope changed: %s %v", b.String(), err)
	}
}
