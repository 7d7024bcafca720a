package conformance

// The capability table (generated/fixtures/capabilities.json, emitted by gen/
// from the one table in spec/): every branch of every tool, sequence and flow
// steps included. For each row this proves that the decoder classifies the
// call as the spec says, that removing any one capability blocks exactly the
// calls that need it, that a restriction never widens what the configured
// layers allow, and that tab_close and tabs.preserve deny what they say.

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/tools"
)

type capRow struct {
	Tool         string          `json:"tool"`
	Branch       string          `json:"branch"`
	Present      string          `json:"present"`
	Step         string          `json:"step"`
	StepTool     string          `json:"step_tool"`
	StepBranch   string          `json:"step_branch"`
	Input        json.RawMessage `json:"input"`
	Capabilities []string        `json:"capabilities"`
	Constraints  []string        `json:"constraints"`
}

type capTable struct {
	Capabilities []string `json:"capabilities"`
	Constraints  []string `json:"constraints"`
	Rows         []capRow `json:"rows"`
}

func (r capRow) name() string {
	n := r.Tool
	if r.Branch != "" {
		n += "/" + r.Branch
	}
	if r.Step != "" {
		n += "/" + r.StepTool
		if r.StepBranch != "" {
			n += "/" + r.StepBranch
		}
	}
	if r.Present != "" {
		n += "+" + r.Present
	}
	return n
}

func loadCapTable(t *testing.T) capTable {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "generated", "fixtures", "capabilities.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tab capTable
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) == 0 || len(tab.Capabilities) != len(surface.CapabilityValues) {
		t.Fatalf("capability table: %d rows, capabilities %v", len(tab.Rows), tab.Capabilities)
	}
	return tab
}

// needsOf decodes a row and classifies the call it holds: the direct call's
// needs, or its step's (the needs the pipeline's child path admits).
func needsOf(t *testing.T, r capRow) surface.Needs {
	t.Helper()
	tool := surface.Lookup(r.Tool)
	if tool == nil {
		t.Fatalf("%s: no such tool", r.name())
	}
	args, derr := tool.Decode(r.Input)
	if derr != nil {
		t.Fatalf("%s: %s does not decode: %v", r.name(), r.Input, derr)
	}
	switch r.Step {
	case "":
		return args.Needs()
	case "sequence":
		seq := args.(*surface.BrowserSequenceArgs)
		if own := args.Needs(); own.Caps != 0 || len(own.Constraints) != 0 {
			t.Fatalf("%s: the sequence itself needs %v", r.name(), own)
		}
		if seq.Steps[0].Tool != r.StepTool {
			t.Fatalf("%s: the step decodes as %s", r.name(), seq.Steps[0].Tool)
		}
		return seq.Steps[0].Args.Needs()
	case "flow":
		var in struct {
			Steps []struct {
				Tool      string          `json:"tool"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"steps"`
		}
		if err := json.Unmarshal(r.Input, &in); err != nil || len(in.Steps) != 1 {
			t.Fatalf("%s: %v", r.name(), err)
		}
		child, derr := pipeline.DecodeChild(in.Steps[0].Tool, in.Steps[0].Arguments)
		if derr != nil {
			t.Fatalf("%s: the step does not decode: %v", r.name(), derr)
		}
		return child.Needs()
	}
	t.Fatalf("%s: unknown step kind %q", r.name(), r.Step)
	return surface.Needs{}
}

func capsOf(names []string) surface.Caps { return surface.CapsOf(names) }

// TestCapabilityTableClassifies: the generated decoders classify every row
// exactly as the table (the spec) says.
func TestCapabilityTableClassifies(t *testing.T) {
	tab := loadCapTable(t)
	seen := map[string]bool{}
	for _, r := range tab.Rows {
		n := needsOf(t, r)
		if n.Caps != capsOf(r.Capabilities) {
			t.Errorf("%s needs %v, the spec says %v", r.name(), n.Caps.List(), r.Capabilities)
		}
		if !reflect.DeepEqual(append([]string{}, n.Constraints...), append([]string{}, r.Constraints...)) {
			t.Errorf("%s constraints %v, the spec says %v", r.name(), n.Constraints, r.Constraints)
		}
		for _, c := range r.Capabilities {
			seen[c] = true
		}
		seen[r.Tool] = true
	}
	// Every capability is needed by some call, and every tool has rows.
	for _, c := range tab.Capabilities {
		if !seen[c] {
			t.Errorf("no call needs %s", c)
		}
	}
	for _, tool := range surface.Catalog {
		if !seen[tool.Name] {
			t.Errorf("%s has no row", tool.Name)
		}
	}
	for _, step := range []string{"sequence", "flow"} {
		n := 0
		for _, r := range tab.Rows {
			if r.Step == step {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no %s step rows", step)
		}
	}
}

// TestRemovingOneCapabilityBlocksExactlyItsCalls: under a layer that denies
// one capability (configured, or the call's own restriction to the other
// three), exactly the rows needing it are refused, with capability_denied
// naming it and the deciding layer.
func TestRemovingOneCapabilityBlocksExactlyItsCalls(t *testing.T) {
	tab := loadCapTable(t)
	for _, c := range tab.Capabilities {
		bit := capsOf([]string{c})
		var others []string
		for _, o := range tab.Capabilities {
			if o != c {
				others = append(others, o)
			}
		}
		auths := map[string]*governance.Authority{
			"organization": governance.New("auto", "", governance.Layer{Name: surface.PolicyLayerOrganization, Caps: governance.AllCaps &^ bit}),
			"restriction":  governance.AllOpen("auto").Narrow(surface.Restrictions{Capabilities: others}),
		}
		for layer, a := range auths {
			for _, r := range tab.Rows {
				n := needsOf(t, r)
				n.URLs = nil // hosts are another test's
				ref := a.Admit(n)
				needs := n.Caps.Has(bit)
				switch {
				case needs && (ref == nil || ref.Reason != surface.ReasonCapabilityDenied || string(ref.Capability) != c || ref.Layer != layer):
					t.Errorf("without %s (%s layer), %s was not refused for it: %+v", c, layer, r.name(), ref)
				case !needs && ref != nil:
					t.Errorf("without %s (%s layer), %s was refused: %+v", c, layer, r.name(), ref)
				}
			}
		}
	}
}

// TestRestrictionNeverWidens: for every configured denial and every
// restriction, a call is admitted exactly when both allow all it needs; a
// host restriction admits no host the configured layers do not.
func TestRestrictionNeverWidens(t *testing.T) {
	tab := loadCapTable(t)
	all := tab.Capabilities
	subsets := func() [][]string {
		var out [][]string
		for m := 0; m < 1<<len(all); m++ {
			var s []string
			for i, c := range all {
				if m&(1<<i) != 0 {
					s = append(s, c)
				}
			}
			out = append(out, s)
		}
		return out
	}()
	for _, configured := range subsets {
		base := governance.New("auto", "", governance.Layer{Name: surface.PolicyLayerUser, Caps: capsOf(configured)})
		for _, restrict := range subsets {
			a := base.Narrow(surface.Restrictions{Capabilities: append([]string{}, restrict...)})
			allowed := capsOf(configured) & capsOf(restrict)
			for _, r := range tab.Rows {
				n := needsOf(t, r)
				n.URLs = nil
				ok := a.Admit(n) == nil
				if want := n.Caps&^allowed == 0; ok != want {
					t.Fatalf("configured %v, restricted to %v: %s (needs %v) admitted %v, want %v", configured, restrict, r.name(), n.Caps.List(), ok, want)
				}
			}
		}
	}
	// Hosts: a call reaching a URL is admitted only when every layer admits
	// its host; a restriction naming a host the configured layer does not
	// allow admits nothing more.
	conf := governance.New("auto", "", governance.Layer{Name: surface.PolicyLayerOrganization, Caps: governance.AllCaps, Hosts: []string{"*.example.com", "example.com"}})
	urlRows := 0
	for _, r := range tab.Rows {
		n := needsOf(t, r)
		if len(n.URLs) == 0 {
			continue
		}
		urlRows++
		for _, c := range []struct {
			hosts []string
			ok    bool
		}{
			{nil, true},
			{[]string{"example.com"}, true},
			{[]string{"other.test"}, false},
			{[]string{"other.test", "example.com"}, true},
		} {
			a := conf.Narrow(surface.Restrictions{Hosts: c.hosts})
			if ok := a.Admit(n) == nil; ok != c.ok {
				t.Errorf("%s under restriction %v: admitted %v, want %v", r.name(), c.hosts, ok, c.ok)
			}
		}
		wider := governance.New("auto", "", governance.Layer{Name: surface.PolicyLayerOrganization, Caps: governance.AllCaps, Hosts: []string{"other.test"}}).
			Narrow(surface.Restrictions{Hosts: []string{"example.com", "*.example.com"}})
		if ref := wider.Admit(n); ref == nil || ref.Reason != surface.ReasonHostDenied || ref.Layer != surface.PolicyLayerOrganization {
			t.Errorf("%s: a restriction widened the configured hosts: %+v", r.name(), ref)
		}
	}
	if urlRows == 0 {
		t.Fatal("no row reaches a URL")
	}
}

// TestConstraintsDenyWhatTheySay: tabs.close "deny" and tabs.preserve refuse
// exactly the calls carrying the tab_close constraint.
func TestConstraintsDenyWhatTheySay(t *testing.T) {
	tab := loadCapTable(t)
	for name, a := range map[string]*governance.Authority{
		"tabs.close deny": governance.New("auto", "", governance.Layer{Name: surface.PolicyLayerWorkspace, Caps: governance.AllCaps, DenyConstraints: []string{"tab_close"}}),
		"tabs.preserve":   governance.New("auto", "", governance.Layer{Name: surface.PolicyLayerWorkspace, Caps: governance.AllCaps, Preserve: true}),
	} {
		closes := 0
		for _, r := range tab.Rows {
			n := needsOf(t, r)
			n.URLs = nil
			ref := a.Admit(n)
			carries := false
			for _, c := range r.Constraints {
				carries = carries || c == "tab_close"
			}
			if carries {
				closes++
			}
			switch {
			case carries && (ref == nil || ref.Reason != surface.ReasonConstraintDenied || ref.Limit != "tab_close" || ref.Layer != surface.PolicyLayerWorkspace):
				t.Errorf("%s: %s was not refused: %+v", name, r.name(), ref)
			case !carries && ref != nil:
				t.Errorf("%s: %s was refused: %+v", name, r.name(), ref)
			}
		}
		if closes == 0 {
			t.Fatalf("%s: no row carries tab_close", name)
		}
	}
}

// TestCapabilityTableThroughPipeline runs every direct and flow row through
// the real pipeline (with a browser that never starts) restricted to all
// capabilities but one: the rows needing it are refused before dispatch
// (flow steps in a dry run, each classified and admitted on the child path),
// and no other row is refused for a capability.
func TestCapabilityTableThroughPipeline(t *testing.T) {
	tab := loadCapTable(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	b := browser.New(browser.Config{Startup: browser.StartupManual, Logger: log, Path: "/nonexistent"})
	defer b.Close()
	h, err := tools.New(tools.Options{Browser: b, Logger: log, StageDir: t.TempDir(), WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	p := pipeline.New(pipeline.Options{Handler: h, Authority: func() *governance.Authority { return governance.AllOpen("manual") }, Logger: log})
	for _, c := range tab.Capabilities {
		var others []string
		for _, o := range tab.Capabilities {
			if o != c {
				others = append(others, o)
			}
		}
		restrict, _ := json.Marshal(others)
		for _, r := range tab.Rows {
			if r.Step == "sequence" {
				continue // its steps need a tab first; TestRemovingOneCapability covers them
			}
			var in map[string]json.RawMessage
			if err := json.Unmarshal(r.Input, &in); err != nil {
				t.Fatal(err)
			}
			in["restrict_capabilities"] = restrict
			if r.Step == "flow" {
				in["dry_run"] = json.RawMessage("true")
			}
			raw, _ := json.Marshal(in)
			res := p.Call(context.Background(), "conformance", r.Tool, raw, nil)
			needs := false
			for _, x := range r.Capabilities {
				needs = needs || x == c
			}
			// The refusal of the call itself, or of its one step.
			var top struct {
				Reason     string `json:"reason"`
				Capability string `json:"capability"`
				Steps      []struct {
					Envelope struct {
						Facts struct {
							Reason     string `json:"reason"`
							Capability string `json:"capability"`
						} `json:"facts"`
					} `json:"envelope"`
				} `json:"steps"`
			}
			_ = json.Unmarshal(res.Envelope.Facts, &top)
			reason, capability := top.Reason, top.Capability
			if r.Step == "flow" && len(top.Steps) == 1 {
				reason, capability = top.Steps[0].Envelope.Facts.Reason, top.Steps[0].Envelope.Facts.Capability
			}
			if r.Step == "" && surface.Lookup(r.Tool).Composite {
				continue // its own needs are nothing; its steps are the step rows
			}
			denied := reason == string(surface.ReasonCapabilityDenied) && capability == c
			if needs != denied {
				t.Errorf("restricted to %v, %s: capability_denied %v, want %v: %s", others, r.name(), denied, needs, res.JSON)
			}
			if needs && r.Step == "" && (res.Envelope.Status != surface.StatusBlocked || res.Envelope.Effect != surface.EffectNone) {
				t.Errorf("%s refused with %s/%s", r.name(), res.Envelope.Status, res.Envelope.Effect)
			}
		}
	}
}
