package workbench_test

import (
	"testing"
)

// TestRecordingsPlayable: a recording the agent made is listed in the
// Recordings destination while in memory, plays there as a GIF, and is gone
// once discarded.
func TestRecordingsPlayable(t *testing.T) {
	agent := mcpClient(t, nil)
	nav := call(t, agent, "browser_navigate", map[string]any{"url": env.site.URL + "/other", "new_tab": true})
	tab, _ := nav.Facts["tab"].(string)
	start := call(t, agent, "browser_record", map[string]any{"action": "start", "tab": tab})
	rec, _ := start.Facts["recording"].(string)
	if start.Status != "succeeded" || rec == "" {
		t.Fatalf("start: %s", start.Summary)
	}
	call(t, agent, "browser_navigate", map[string]any{"tab": tab, "url": env.site.URL + "/login"})
	if r := call(t, agent, "browser_record", map[string]any{"action": "stop", "recording": rec}); r.Status != "succeeded" {
		t.Fatalf("stop: %s", r.Summary)
	}
	p := personPage(t)
	p.MustElement(`nav a[data-dest="recordings"]`).MustClick()
	clickListed(t, p, `#recording-list li[data-recording="`+rec+`"] button`)
	eventually(t, "the replay plays", func() bool {
		return text(t, p, `() => { const i = document.getElementById('recording-player'); return String(!i.hidden && i.complete && i.naturalWidth > 0) }`) == "true"
	})
	call(t, agent, "browser_record", map[string]any{"action": "discard", "recording": rec})
	eventually(t, "the discarded recording leaves the list", func() bool {
		return text(t, p, `() => String(document.querySelector('#recording-list li[data-recording="`+rec+`"]') === null)`) == "true"
	})
}
