package conformance

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/conformance/schemacheck"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/tools"
)

// TestRefusalEnvelopesValidate runs every tool's refused fixtures, its
// shortest valid input, and that input under a capability restriction that
// excludes it, through the real pipeline (a browser that never starts), and
// validates each envelope against the tool's output schema: the refusal
// facts an output schema no longer lists (docs/decisions/
// output-schemas-are-shape-only.md) must still validate.
func TestRefusalEnvelopesValidate(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	b := browser.New(browser.Config{Startup: browser.StartupManual, Logger: log, Path: "/nonexistent"})
	defer b.Close()
	h, err := tools.New(tools.Options{Browser: b, Logger: log, StageDir: t.TempDir(), WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	p := pipeline.New(pipeline.Options{Handler: h, Authority: func() *governance.Authority { return governance.AllOpen("manual") }, Logger: log})
	calls, reasons := 0, map[string]int{}
	check := func(tool, name string, raw []byte) {
		t.Helper()
		r := p.Call(context.Background(), "s1", tool, raw, nil)
		calls++
		if err := schemacheck.Envelope(tool, r.JSON); err != nil {
			t.Errorf("%s/%s: envelope breaks the output schema: %v\n%s", tool, name, err, r.JSON)
		}
		var f struct {
			Reason string `json:"reason"`
		}
		json.Unmarshal(r.Envelope.Facts, &f)
		reasons[f.Reason]++
	}
	for _, ff := range loadFixtures(t) {
		for _, c := range ff.Cases {
			switch {
			case c.Schema == "n/a":
			case !c.Decode.OK:
				check(ff.Tool, c.Name, c.raw())
			case strings.HasPrefix(c.Name, "shortest "):
				check(ff.Tool, c.Name, c.raw())
				var in map[string]any
				if json.Unmarshal(c.raw(), &in) != nil {
					t.Fatalf("%s/%s: not an object", ff.Tool, c.Name)
				}
				only := "execute"
				if ff.Tool == "browser_execute" {
					only = "read"
				}
				in["restrict_capabilities"] = []string{only}
				raw, _ := json.Marshal(in)
				check(ff.Tool, c.Name+" restricted", raw)
			}
		}
	}
	t.Logf("%d envelopes validated; by reason: %v", calls, reasons)
	if reasons["invalid_arguments"] == 0 || reasons["capability_denied"] == 0 {
		t.Fatalf("the run met no invalid_arguments or capability_denied refusal: %v", reasons)
	}
}
