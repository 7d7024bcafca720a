package emit

import (
	"bytes"
	"fmt"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// SupportImport is the handwritten package every generated decoder imports
// for its JSON scanning and typed field refusals, as protobuf-go's generated
// code imports protoimpl: one tested source, no copy under generated/.
const SupportImport = "github.com/ghostlight-dev/ghostlight/support"

// Paths of a surface's artifacts, relative to the output root.

// ToolPath is where a tool's MCP definition lives.
func ToolPath(s *ir.Surface, tool string) string { return s.Package + "/tools/" + tool + ".json" }

// FixturePath is where a tool's conformance fixtures live: the core
// surface's under fixtures/, another's under its package.
func FixturePath(spec *ir.Spec, s *ir.Surface, tool string) string {
	if s == spec.Core() {
		return "fixtures/" + tool + ".json"
	}
	return s.Package + "/fixtures/" + tool + ".json"
}

// DocsPath is where a surface's tool reference lives.
func DocsPath(spec *ir.Spec, s *ir.Surface) string {
	if s == spec.Core() {
		return "docs/tools.md"
	}
	return "docs/" + s.Name + ".md"
}

// Render renders every artifact of the spec in memory, keyed by path
// relative to the output directory, whose Go import path is root. Nothing
// is written here.
func Render(spec *ir.Spec, root string) (files map[string][]byte, err error) {
	defer func() {
		// Emitters panic only on IR the loader should have refused; report it
		// as an error rather than a crash.
		if r := recover(); r != nil {
			err = fmt.Errorf("render: %v", r)
		}
	}()
	files = map[string][]byte{}
	for _, s := range spec.Surfaces {
		if err := renderSurface(spec, s, root, files); err != nil {
			return nil, err
		}
	}
	if len(spec.Bounds) > 0 {
		for name, f := range limitsFiles(spec, root) {
			var b bytes.Buffer
			if err := f.Render(&b); err != nil {
				return nil, fmt.Errorf("render %s/%s: %w", LimitsPackage, name, err)
			}
			files[LimitsPackage+"/"+name] = b.Bytes()
		}
	}
	if spec.Policy != nil {
		var b bytes.Buffer
		if err := policyFile(spec, root).Render(&b); err != nil {
			return nil, fmt.Errorf("render policy.go: %w", err)
		}
		files[spec.Core().Package+"/policy.go"] = b.Bytes()
		files["docs/policy.md"] = PolicyDocs(spec)
	}
	return files, nil
}

func renderSurface(spec *ir.Spec, s *ir.Surface, root string, files map[string][]byte) error {
	g := newGoGen(spec, s, root)
	for name, f := range g.all() {
		var b bytes.Buffer
		if err := f.Render(&b); err != nil {
			return fmt.Errorf("render %s/%s: %w", s.Package, name, err)
		}
		files[s.Package+"/"+name] = b.Bytes()
	}
	for _, t := range s.Tools {
		def, err := Definition(spec, t)
		if err != nil {
			return fmt.Errorf("definition %s: %w", t.Name, err)
		}
		files[ToolPath(s, t.Name)] = def // served byte for byte: no trailing newline
	}
	docs, err := Docs(spec, s)
	if err != nil {
		return err
	}
	files[DocsPath(spec, s)] = docs
	fx, err := Fixtures(spec, s)
	if err != nil {
		return err
	}
	for name, b := range fx {
		files[FixturePath(spec, s, name)] = b
	}
	if s == spec.Core() {
		caps, err := CapabilitiesJSON(spec, s)
		if err != nil {
			return err
		}
		files[FixturePath(spec, s, "capabilities")] = caps
	}
	if s.Claim != nil {
		claim, err := ClaimJSON(spec, s)
		if err != nil {
			return fmt.Errorf("claim %s: %w", s.Name, err)
		}
		files[s.Package+"/claim.json"] = claim
		files["docs/"+s.Name+"-profile.md"] = ClaimDocs(spec, s)
	}
	return nil
}
