package conformance

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/tools/bench-live/shop"
)

// TestFlowTextShare runs the shop task of docs/performance.md (search, two
// products into the cart, checkout, the form, the order, the confirmation)
// twice over the shipped binary and real Chromium: one call per step, then
// one browser_flow. The flow's text block may weigh at most
// flow_text_share_pct of the step-by-step text, while its structuredContent
// carries every step's envelope and its text what the last step read.
func TestFlowTextShare(t *testing.T) {
	site := httptest.NewServer(shop.Handler())
	defer site.Close()
	s := startStdio(t)
	defer s.c.Close()
	steps := shop.Steps(site.URL)
	each := 0
	for _, st := range steps {
		var args map[string]any
		if err := json.Unmarshal([]byte(st[1]), &args); err != nil {
			t.Fatal(err)
		}
		res, env := s.call(t, st[0], args)
		if env.Status != surface.StatusSucceeded {
			t.Fatalf("%s: %s", st[0], env.Summary)
		}
		n, _ := textBytes(t, res)
		each += n
	}
	var fs []string
	for i, st := range steps {
		fs = append(fs, fmt.Sprintf(`{"id":"s%d","tool":%q,"arguments":%s}`, i+1, st[0], st[1]))
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(`{"timeout_ms":10000,"steps":[`+strings.Join(fs, ",")+`]}`), &args); err != nil {
		t.Fatal(err)
	}
	res, env := s.call(t, "browser_flow", args)
	if env.Status != surface.StatusSucceeded {
		t.Fatalf("flow: %s", env.Summary)
	}
	n, text := textBytes(t, res)
	t.Logf("one call per step: %d text bytes; one flow: %d (%d%%)", each, n, 100*n/each)
	if 100*n > surface.FlowTextSharePctMax*each {
		t.Errorf("the flow's text is %d bytes, over %d%% of the step-by-step %d:\n%s", n, surface.FlowTextSharePctMax, each, text)
	}
	if !shop.Confirmed(text) {
		t.Errorf("the text lacks the confirmation the last step read:\n%s", text)
	}
	var f surface.BrowserFlowFacts
	if err := json.Unmarshal(env.Facts, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Steps) != len(steps) {
		t.Fatalf("%d step rows, want %d", len(f.Steps), len(steps))
	}
	for _, r := range f.Steps {
		if len(r.Envelope) == 0 {
			t.Errorf("step %s has no envelope in structuredContent", r.ID)
		}
	}
}
