package flowref

import (
	"encoding/json"
	"testing"
)

// TestResolve: a reference takes the value at its pointer in the earlier
// step's envelope; the first one that does not resolve is named.
func TestResolve(t *testing.T) {
	envs := map[string]json.RawMessage{"open": json.RawMessage(`{"facts":{"tab":"tab_abc","items":[{"target":"target_1"}]}}`)}
	out, had, bad := Resolve(json.RawMessage(`{"tab":{"flow_ref":{"step":"open","pointer":"/facts/tab"}},"target":{"flow_ref":{"step":"open","pointer":"/facts/items/0/target"}}}`), envs)
	if !had || bad != "" || string(out) != `{"tab":"tab_abc","target":"target_1"}` {
		t.Fatalf("resolved: %s %v %q", out, had, bad)
	}
	_, had, bad = Resolve(json.RawMessage(`{"tab":{"flow_ref":{"step":"later","pointer":"/facts/tab"}}}`), envs)
	if !had || bad != "later/facts/tab" {
		t.Fatalf("unresolved: %v %q", had, bad)
	}
	if out, had, _ := Resolve(json.RawMessage(`{"url":"https://a.test/"}`), envs); had || string(out) != `{"url":"https://a.test/"}` {
		t.Fatalf("no references: %s %v", out, had)
	}
}
