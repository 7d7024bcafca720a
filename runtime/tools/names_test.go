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

// TestWithheldTargetNamesFollowThePolicy: privacy.preserve_target_names:
// false in a layer file removes target names from action receipts, their
// facts, refusals about a target and sequence rows, while find still names
// what it sees; rewriting the file applies from the next call.
func TestWithheldTargetNamesFollowThePolicy(t *testing.T) {
	srv := actSite(t, map[string]string{"/": `<title>Names</title>
<button onclick="window.saved=(window.saved||0)+1">Save Ledger</button>
<label>Memo Field <input id="memo"></label>
<div style="position:relative;margin-top:40px;width:120px"><button>Hidden Under</button>
<div role="dialog" aria-label="Cover Sheet" style="position:absolute;inset:0;background:#eee"></div></div>`}, nil)
	host := hostOf(srv.URL)
	dir := t.TempDir()
	ws := filepath.Join(dir, "policy.cue")
	write := func(src string) {
		tmp := filepath.Join(dir, "policy.cue.new")
		if err := os.WriteFile(tmp, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, ws); err != nil { // a new file, as deployments write layers
			t.Fatal(err)
		}
	}
	write("privacy: preserve_target_names: false\n")
	l, err := governance.Load(governance.Config{Files: []governance.File{{Layer: surface.PolicyLayerWorkspace, Path: ws, Explicit: true}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := pipeline.New(pipeline.Options{Handler: testHandler, Authority: l.Current})
	h := newHarness(t)
	tab := h.actOpen(srv.URL + "/")
	call := func(tool, args string) pipeline.Result {
		t.Helper()
		r := p.Call(context.Background(), h.session, tool, []byte(args), nil)
		checkEnvelope(t, tool, r)
		return r
	}
	named := []string{"Save Ledger", "Memo Field", "Cover Sheet", "Hidden Under"}
	unnamed := func(r pipeline.Result) {
		t.Helper()
		for _, n := range named {
			if strings.Contains(string(r.JSON), n) {
				t.Fatalf("withheld name %q in %s", n, r.JSON)
			}
		}
	}

	r := call("browser_click", `{"tab":"`+tab+`","target":"`+h.actTarget(tab, "Save Ledger")+`"}`)
	if r.Envelope.Summary != "Clicked a button on "+host+"." {
		t.Fatalf("click receipt: %s", r.JSON)
	}
	unnamed(r)
	r = call("browser_type_text", `{"tab":"`+tab+`","target":"`+h.actTarget(tab, "Memo Field")+`","text":"hello"}`)
	if r.Envelope.Status != surface.StatusSucceeded || !strings.Contains(r.Envelope.Summary, "a textbox") {
		t.Fatalf("type receipt: %s", r.JSON)
	}
	unnamed(r)
	r = call("browser_click", `{"tab":"`+tab+`","timeout_ms":600,"target":"`+h.actTarget(tab, "Hidden Under")+`"}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonTargetObscured)
	unnamed(r)
	r = call("browser_sequence", `{"tab":"`+tab+`","timeout_ms":2000,"steps":[{"action":"click","target":"`+h.actTarget(tab, "Save Ledger")+`"},{"action":"click","target":"`+h.actTarget(tab, "Hidden Under")+`"}]}`)
	if !strings.Contains(string(r.Envelope.Facts), "Clicked a button on") {
		t.Fatalf("sequence rows: %s", r.JSON)
	}
	unnamed(r)
	// Perception the model asked for still names what it sees.
	if r := call("browser_find", `{"tab":"`+tab+`","text":"Save Ledger"}`); !strings.Contains(string(r.JSON), "Save Ledger") {
		t.Fatalf("find withheld a name: %s", r.JSON)
	}

	// The next call after the file changes runs under the new setting.
	write("privacy: preserve_target_names: true\n")
	r = call("browser_click", `{"tab":"`+tab+`","target":"`+h.actTarget(tab, "Save Ledger")+`"}`)
	if r.Envelope.Summary != `Clicked the "Save Ledger" button on `+host+`.` {
		t.Fatalf("after the reload: %s", r.JSON)
	}
	r = call("browser_click", `{"tab":"`+tab+`","timeout_ms":600,"target":"`+h.actTarget(tab, "Hidden Under")+`"}`)
	if !strings.Contains(r.Envelope.Summary, "Cover Sheet") {
		t.Fatalf("obscured after the reload: %s", r.JSON)
	}
}
