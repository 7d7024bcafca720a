package conformance

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// strictArgs builds the arguments a strict-mode client (OpenAI's, with every
// optional field made required) sends: every property of the tool's input
// schema present, null where the model means to leave it out, plus what a
// client adds on its own (Gemini CLI's wait_for_previous).
func strictArgs(t *testing.T, tool string, given map[string]any) map[string]any {
	t.Helper()
	var in struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(definitionOf(t, surface.Lookup(tool)).InputSchema, &in); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for name := range in.Properties {
		out[name] = nil
	}
	for k, v := range given {
		if _, ok := in.Properties[k]; !ok {
			t.Fatalf("%s has no field %s", tool, k)
		}
		out[k] = v
	}
	for _, n := range surface.ClientAddedFields {
		out[n] = true
	}
	return out
}

// TestLiveStrictModeCalls drives navigate → inspect → click (by handle and by
// selector), a sequence and a flow through the shipped binary with every
// optional field present as null, nested objects and steps included, and the
// "" and [] strict clients send for an unused handle or list. Each decodes
// and runs as the same call without those fields would.
func TestLiveStrictModeCalls(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>Strict</title><button onclick="window.clicks = (window.clicks || 0) + 1">Save</button>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	s := startStdio(t)
	defer s.c.Close()

	ok := func(tool string, given map[string]any) surface.Envelope {
		t.Helper()
		_, env := s.call(t, tool, strictArgs(t, tool, given))
		if env.Status != surface.StatusSucceeded {
			t.Fatalf("%s with strict-mode nulls: %+v", tool, env)
		}
		return env
	}
	// "" for an unused handle and [] for an unused list read as not given too.
	nav := strictArgs(t, "browser_navigate", map[string]any{"url": srv.URL + "/"})
	nav["tab"], nav["restrict_hosts"], nav["restrict_capabilities"] = "", []any{}, []any{}
	if _, env := s.call(t, "browser_navigate", nav); env.Status != surface.StatusSucceeded {
		t.Fatalf("navigate with \"\" and []: %+v", env)
	}

	env := ok("browser_inspect", nil)
	var insp struct {
		Items []struct {
			Target string `json:"target"`
			Name   string `json:"name"`
		} `json:"items"`
	}
	if err := json.Unmarshal(env.Facts, &insp); err != nil || len(insp.Items) == 0 || insp.Items[0].Name != "Save" {
		t.Fatalf("inspect facts: %s (%v)", env.Facts, err)
	}
	ok("browser_click", map[string]any{"target": insp.Items[0].Target})
	ok("browser_click", map[string]any{"selector": map[string]any{"name": "Save", "role": nil, "exact": nil}})

	step := func(tool string, given map[string]any) map[string]any {
		a := strictArgs(t, tool, given)
		for _, n := range append([]string{"tab", "restrict_hosts", "restrict_capabilities"}, surface.ClientAddedFields...) {
			delete(a, n) // steps take none of these, and no client adds them there
		}
		return a
	}
	click := step("browser_click", map[string]any{"selector": map[string]any{"name": "Save", "role": "button", "exact": nil}})
	click["action"] = "click"
	wait := step("browser_wait", map[string]any{"condition": "load_ready"})
	wait["action"] = "wait"
	ok("browser_sequence", map[string]any{"steps": []any{click, wait}})

	ok("browser_flow", map[string]any{"steps": []any{
		map[string]any{"id": "find", "tool": "browser_find", "arguments": step("browser_find", map[string]any{"text": "Save"})},
		map[string]any{"id": "press", "tool": "browser_click", "arguments": step("browser_click", map[string]any{
			"target": map[string]any{"flow_ref": map[string]any{"step": "find", "pointer": "/facts/matches/0/target"}}})},
	}})

	env = ok("browser_execute", map[string]any{"script": "window.clicks"})
	var ex struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal(env.Facts, &ex); err != nil || ex.Value != "4" {
		t.Fatalf("the page saw %s clicks, want 4 (handle, selector, sequence, flow): %s", ex.Value, env.Facts)
	}
}
