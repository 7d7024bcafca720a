package pipeline

import (
	"encoding/json"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Carried facts join any result's facts, a success's or a refusal's, and never
// replace a fact already there; nothing carried leaves the facts as they were.
func TestWithCarried(t *testing.T) {
	add := []func(*surface.Refusal){func(r *surface.Refusal) { r.PopupsClosed += 3 }, func(r *surface.Refusal) { r.PopupsClosed += 0 }}
	for _, c := range []struct{ facts, want string }{
		{`{"tab":"tab_a"}`, `{"popups_closed":3,"tab":"tab_a"}`},
		{`{}`, `{"popups_closed":3}`},
		{`{"reason":"timeout","limit":"8000"}`, `{"limit":"8000","popups_closed":3,"reason":"timeout"}`},
	} {
		got := withCarried(json.RawMessage(c.facts), add)
		if string(got) != c.want {
			t.Errorf("%s: got %s, want %s", c.facts, got, c.want)
		}
	}
	none := []func(*surface.Refusal){func(r *surface.Refusal) {}}
	if got := withCarried(json.RawMessage(`{"tab":"tab_a"}`), none); string(got) != `{"tab":"tab_a"}` {
		t.Errorf("nothing carried: %s", got)
	}
}
