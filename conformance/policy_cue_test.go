package conformance

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/load"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance/policyfile"
)

// Layer fixtures. accept: valid data that unifies with #Policy. invalid:
// both real CUE and the server refuse it. data: valid CUE that is not data
// (references, expressions, defaults, imports…): the server refuses it by
// the data-subset rule, whatever CUE makes of it.
var policyFixtures = []struct {
	kind, name, src string
}{
	{"accept", "one line", `capabilities: execute: "deny"`},
	{"accept", "empty", ``},
	{"accept", "package and comments", "package acme\n\n// The organization's layer.\ncapabilities: {\n\tread:    \"allow\" // reading stays\n\texecute: \"deny\"\n}\ncapabilities: write: \"deny\"\n"},
	{"accept", "hosts", "hosts: {\n\tallow: [\n\t\t\"*.acme.test\",\n\t\t\"127.0.0.1:8080\"\n\t\t\"localhost\",\n\t]\n\tdeny: []\n\trequests: \"all\"\n}\n"},
	{"accept", "audit sizes", `audit: {path: "/var/log/ghostlight/audit.jsonl", max_bytes: 10Mi, keep: 1_0}`},
	{"accept", "kilo", `audit: max_bytes: 64K`},
	{"accept", "organization", "organization: name: \"Acme \\u00e9 \\\"Labs\\\"\"\norganization: id: \"acme-1\"\n"},
	{"accept", "struct merge", "tabs: preserve: true, tabs: close: \"deny\"\ntabs: {preserve: true}"},
	{"accept", "roots", `files: read_roots: ["/srv/share", "/home/u/Uploads"]`},
	{"accept", "quoted labels", `"capabilities": {"read": "allow", "action": "deny"}`},
	{"accept", "equal twice", "capabilities: read: \"allow\"\ncapabilities: read: \"allow\"\n"},
	{"accept", "startup and privacy", "browser: startup: \"manual\"\nprivacy: preserve_target_names: false\n"},
	{"accept", "empty sections", `capabilities: {}, hosts: {}`},
	{"accept", "windows path", `audit: path: "C:\\logs\\gl.jsonl"`},
	{"accept", "host spellings", `hosts: deny: ["::1", "[::1]", "[::1]:8080", "2130706434", "*.under_score.test:8443"]`},
	{"accept", "address rules", `hosts: addresses: deny: ["private", "link-local", "10.0.0.0/8", "fd00::/8", "169.254.169.254"]`},

	{"invalid", "unknown key", `capabilities: reed: "deny"`},
	{"invalid", "unknown section", `network: proxy: "x"`},
	{"invalid", "wrong type", `tabs: preserve: "yes"`},
	{"invalid", "bad enum", `capabilities: write: "maybe"`},
	{"invalid", "bad host pattern", `hosts: allow: ["bad host"]`},
	{"invalid", "double wildcard", `hosts: deny: ["*.*.acme.test"]`},
	{"invalid", "host with a slash", `hosts: deny: ["[::1]/x"]`},
	{"invalid", "address with a space", `hosts: addresses: deny: ["10.0.0.0/8 "]`},
	{"invalid", "address prefix too long", `hosts: addresses: deny: ["10.0.0.0/1234"]`},
	{"invalid", "preset in capitals", `hosts: addresses: deny: ["Private"]`},
	{"invalid", "unknown address key", `hosts: addresses: allow: ["private"]`},
	{"invalid", "keep too small", `audit: keep: 0`},
	{"invalid", "max_bytes too small", `audit: max_bytes: 1`},
	{"invalid", "relative path", `audit: path: "relative/x.jsonl"`},
	{"invalid", "relative root", `files: read_roots: ["uploads"]`},
	{"invalid", "conflict", "capabilities: read: \"allow\"\ncapabilities: read: \"deny\"\n"},
	{"invalid", "struct and scalar", "tabs: \"deny\"\ntabs: close: \"deny\"\n"},
	{"invalid", "bad id", `organization: id: "a b"`},
	{"invalid", "empty name", `organization: name: ""`},
	{"invalid", "null", `audit: path: null`},
	{"invalid", "unterminated", `capabilities: read: "deny`},
	{"invalid", "float", `audit: keep: 1.0`},
	{"invalid", "list at top", `["a"]`},
	{"invalid", "missing colon", `capabilities read: "deny"`},

	{"data", "let", "let d = \"deny\"\ncapabilities: read: d\n"},
	{"data", "default", `capabilities: read: *"deny" | "allow"`},
	{"data", "expression", `capabilities: read: "de" + "ny"`},
	{"data", "import", "import \"strings\"\norganization: name: strings.ToUpper(\"acme\")\n"},
	{"data", "definition", "#D: \"deny\"\ncapabilities: read: #D\n"},
	{"data", "interpolation", `audit: path: "/var/\("log")/gl.jsonl"`},
	{"data", "optional", `capabilities: read?: "deny"`},
	{"data", "multi-line string", "organization: name: \"\"\"\n\tAcme\n\t\"\"\"\n"},
	{"data", "reference", "capabilities: read: \"deny\"\ncapabilities: write: capabilities.read\n"},
	{"data", "type", `organization: name: string`},
}

func policyDefinition(t *testing.T) (*cue.Context, cue.Value) {
	t.Helper()
	dir, _ := filepath.Abs("../spec")
	insts := load.Instances([]string{"."}, &load.Config{Dir: dir})
	if err := insts[0].Err; err != nil {
		t.Fatal(err)
	}
	ctx := cuecontext.New()
	v := ctx.BuildInstance(insts[0])
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	def := v.LookupPath(cue.ParsePath("#Policy"))
	if !def.Exists() {
		t.Fatal("spec has no #Policy")
	}
	return ctx, def
}

// TestPolicyParserAgreesWithCUE: the server's data-subset parser and the
// generated decoder accept exactly what real CUE accepts of the data
// subset, and yield the JSON CUE exports.
func TestPolicyParserAgreesWithCUE(t *testing.T) {
	ctx, def := policyDefinition(t)
	for _, fx := range policyFixtures {
		t.Run(fx.name, func(t *testing.T) {
			var cueJSON []byte
			cueErr := func() error {
				v := ctx.CompileString(fx.src, cue.Filename("layer.cue"))
				if err := v.Err(); err != nil {
					return err
				}
				u := def.Unify(v)
				if err := u.Validate(cue.Concrete(true)); err != nil {
					return err
				}
				b, err := u.MarshalJSON()
				cueJSON = b
				return err
			}()
			doc, perr := policyfile.Parse("layer.cue", []byte(fx.src))
			var derr error
			if perr == nil {
				if _, e := surface.DecodePolicy(doc.JSON); e != nil {
					derr = e
				}
			}
			switch fx.kind {
			case "accept":
				if cueErr != nil {
					t.Fatalf("CUE refuses an accepted fixture: %v", cueErr)
				}
				if perr != nil || derr != nil {
					t.Fatalf("the server refuses it: %v %v", perr, derr)
				}
				var a, b any
				json.Unmarshal(cueJSON, &a)
				json.Unmarshal(doc.JSON, &b)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("CUE exports %s, the parser yields %s", cueJSON, doc.JSON)
				}
			case "invalid":
				if cueErr == nil {
					t.Fatalf("CUE accepts an invalid fixture: %s", cueJSON)
				}
				if perr == nil && derr == nil {
					t.Fatalf("the server accepts what CUE refuses (%v): %s", cueErr, doc.JSON)
				}
			case "data":
				if perr == nil {
					t.Fatalf("the parser accepts non-data: %s", doc.JSON)
				}
				msg := perr.Error()
				if !strings.HasPrefix(msg, "layer.cue:") || !(strings.Contains(msg, "policy layers are data") || strings.Contains(msg, "not supported in policy layers") || strings.Contains(msg, "constraints, not data")) {
					t.Fatalf("the refusal does not say layers are data, at file:line:col: %v", perr)
				}
			}
		})
	}
}

// TestPolicySettingsMatchDefinition: every generated setting is a field of
// #Policy with the enum CUE declares, so the decoder and the narrowing
// table are the definition's.
func TestPolicySettingsMatchDefinition(t *testing.T) {
	_, def := policyDefinition(t)
	n := 0
	var walk func(v cue.Value, ptr string)
	walk = func(v cue.Value, ptr string) {
		it, _ := v.Fields(cue.Optional(true))
		for it.Next() {
			p := ptr + "/" + it.Selector().Unquoted()
			if it.Value().IncompleteKind() == cue.StructKind && !isPolicyMap(it.Value()) {
				walk(it.Value(), p)
				continue
			}
			n++
			var s *surface.PolicySetting
			for i := range surface.PolicySettings {
				if surface.PolicySettings[i].Pointer == p {
					s = &surface.PolicySettings[i]
				}
			}
			if s == nil {
				t.Errorf("#Policy field %s has no generated setting", p)
				continue
			}
			if op, args := it.Value().Expr(); op == cue.OrOp {
				var enum []string
				for _, a := range args {
					str, _ := a.String()
					enum = append(enum, str)
				}
				if !reflect.DeepEqual(enum, s.Enum) {
					t.Errorf("%s: CUE says %v, generated %v", p, enum, s.Enum)
				}
			}
		}
	}
	walk(def, "")
	if n != len(surface.PolicySettings) {
		t.Errorf("#Policy has %d fields, %d generated settings", n, len(surface.PolicySettings))
	}
}

// isPolicyMap: a struct of pattern-keyed entries only ({[#HostPattern]:
// #SiteRules}), which the generator makes one map setting.
func isPolicyMap(v cue.Value) bool {
	if it, _ := v.Fields(cue.Optional(true)); it.Next() {
		return false
	}
	it, err := v.Fields(cue.Optional(true), cue.Patterns(true))
	for err == nil && it.Next() {
		if it.Selector().ConstraintType() == cue.PatternConstraint {
			return true
		}
	}
	return false
}
