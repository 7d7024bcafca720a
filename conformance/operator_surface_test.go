package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// operatorTools is the operator surface, typed here on purpose: the
// Operator class profile's baseline and the facets Ghostlight implements
// (operator/browser@1 navigate, operator/screenshot@1 capture), under
// portable names.
var operatorTools = []string{
	"operator_act", "operator_capture", "operator_list_surfaces",
	"operator_navigate", "operator_perceive", "operator_settle",
}

func TestOperatorSurfaceIsExactlyTheClaimedVerbs(t *testing.T) {
	var got []string
	name := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for _, tool := range operator.Catalog {
		got = append(got, tool.Name)
		if !name.MatchString(tool.Name) || len(tool.Name) > 30 {
			t.Errorf("tool name %q breaks ^[a-z][a-z0-9_]*$ or 30 characters", tool.Name)
		}
		if surface.Lookup(tool.Name) != nil {
			t.Errorf("%s is on both surfaces", tool.Name)
		}
		d := definitionOf(t, tool)
		if d.Name != tool.Name || d.Title != tool.Title || d.Description == "" {
			t.Errorf("%s: definition name/title/description disagree with the catalog", tool.Name)
		}
		if tool.Composite {
			t.Errorf("%s: a verb is not a composite; it rests on tools through the child path", tool.Name)
		}
	}
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(operatorTools, ",") {
		t.Fatalf("operator surface\n got %v\nwant %v", got, operatorTools)
	}
}

// TestOperatorAnnotations: readOnlyHint is stated and the effective hints
// are the catalog's, as for Ghostlight's own tools.
func TestOperatorAnnotations(t *testing.T) {
	defaults := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
	for _, tool := range operator.Catalog {
		d := definitionOf(t, tool)
		eff := map[string]bool{}
		for k, v := range defaults {
			eff[k] = v
		}
		for k, v := range d.Annotations {
			eff[k] = v
		}
		if _, ok := d.Annotations["readOnlyHint"]; !ok {
			t.Errorf("%s: readOnlyHint must be stated", tool.Name)
		}
		a := tool.Annotations
		if eff["readOnlyHint"] != a.ReadOnly || eff["idempotentHint"] != a.Idempotent || eff["openWorldHint"] != a.OpenWorld || (!a.ReadOnly && eff["destructiveHint"] != a.Destructive) {
			t.Errorf("%s: effective hints %v disagree with the catalog %+v", tool.Name, eff, a)
		}
	}
}

// TestOperatorPortableInputs holds every operator input schema to the same
// portable profile as Ghostlight's tools (closed objects, no $ref, a
// description on every field); outputs are the profile's contracts, whose
// roots are objects.
func TestOperatorPortableInputs(t *testing.T) {
	for _, tool := range operator.Catalog {
		d := definitionOf(t, tool)
		var in, out map[string]any
		if err := json.Unmarshal(d.InputSchema, &in); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(d.OutputSchema, &out); err != nil {
			t.Fatal(err)
		}
		if in["type"] != "object" || out["type"] != "object" {
			t.Errorf("%s: root types %v / %v", tool.Name, in["type"], out["type"])
		}
		if bytes.Contains(d.OutputSchema, []byte(`"$ref"`)) {
			t.Errorf("%s: outputSchema keeps a $ref", tool.Name)
		}
		checkPortable(t, tool.Name, "", in, false)
	}
}

// TestOperatorDiscoveryBudget holds the operator tools list's input side to
// the surface's own budget.
func TestOperatorDiscoveryBudget(t *testing.T) {
	input, full := 0, 0
	for _, tool := range operator.Catalog {
		var d map[string]json.RawMessage
		if err := json.Unmarshal(tool.Definition, &d); err != nil {
			t.Fatal(err)
		}
		full += len(tool.Definition)
		delete(d, "outputSchema")
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		input += len(b)
	}
	t.Logf("operator tools list: input side %d bytes (budget %d), full %d bytes", input, operator.DiscoveryBudget, full)
	if input > operator.DiscoveryBudget {
		t.Fatalf("input side %d bytes exceeds the operator budget of %d", input, operator.DiscoveryBudget)
	}
}

// TestOperatorFixtures runs the operator surface's fixtures through each
// verb's input schema and its own generated decoder, as TestFixtures does
// for Ghostlight's tools.
func TestOperatorFixtures(t *testing.T) {
	paths, err := filepath.Glob("../generated/operator/fixtures/*.json")
	if err != nil || len(paths) != len(operator.Catalog) {
		t.Fatalf("want one fixture file per verb, found %d (%v)", len(paths), err)
	}
	total := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var ff fixtureFile
		if err := json.Unmarshal(b, &ff); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		tool := operator.Lookup(ff.Tool)
		if tool == nil {
			t.Fatalf("fixtures for unknown verb %s", ff.Tool)
		}
		in := compile(t, "mem://"+tool.Name+"/input.json", definitionOf(t, tool).InputSchema)
		for _, c := range ff.Cases {
			total++
			t.Run(ff.Tool+"/"+c.Name, func(t *testing.T) {
				if c.Schema != "n/a" {
					doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.raw()))
					if err != nil {
						t.Fatalf("fixture input is not JSON: %v", err)
					}
					err = in.Validate(doc)
					if got := map[bool]string{true: "accept", false: "reject"}[err == nil]; got != c.Schema {
						t.Errorf("schema: got %s, want %s (%v)", got, c.Schema, err)
					}
				}
				args, derr := tool.Decode(c.raw())
				if c.Decode.OK {
					if derr != nil {
						t.Fatalf("decode refused: %v", derr)
					}
					got, _ := json.Marshal(args)
					if !semanticEqual(got, c.Decode.Value) {
						t.Errorf("decoded\n got %s\nwant %s", got, c.Decode.Value)
					}
					return
				}
				if derr == nil || derr.Pointer != *c.Decode.Pointer || string(derr.Rule) != c.Decode.Rule {
					t.Fatalf("decode error %v, want %s at %q", derr, c.Decode.Rule, *c.Decode.Pointer)
				}
				if c.Schema == "accept" && c.Stricter != c.Decode.Rule {
					t.Errorf("schema accepts but the fixture names stricter %q, not %q", c.Stricter, c.Decode.Rule)
				}
			})
		}
	}
	t.Logf("%d operator fixtures", total)
}

// TestOperatorSharesTheOnePath: the operator verbs reach the browser only
// through the pipeline's child path. runtime/operator imports neither the
// executor, rod, the tool handlers nor the MCP edge; the generated operator
// package imports nothing of runtime/, and the support package the generated
// decoders share imports nothing of the module.
func TestOperatorSharesTheOnePath(t *testing.T) {
	const mod = "github.com/ghostlight-dev/ghostlight/"
	forbid := map[string][]string{
		"../runtime/operator":   {"github.com/go-rod/", "github.com/mark3labs/mcp-go", mod + "runtime/browser", mod + "runtime/tools", mod + "runtime/mcpedge"},
		"../generated/operator": {mod + "runtime"},
		"../support":            {mod},
	}
	for pkg, bad := range forbid {
		for _, imp := range pkgImports(t, pkg, false) {
			for _, i := range imp {
				for _, b := range bad {
					if strings.HasPrefix(i, b) {
						t.Errorf("%s imports %s", pkg, i)
					}
				}
			}
		}
	}
	imports := pkgImports(t, "../runtime/operator", false)[mod+"runtime/operator"]
	if !slices.Contains(imports, mod+"runtime/pipeline") {
		t.Errorf("runtime/operator does not run its verbs through runtime/pipeline: %v", imports)
	}
}
