package emit

import (
	"bytes"
	"encoding/json"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// obj is a JSON object that keeps its key order, so schemas render the same
// bytes on every run.
type obj struct {
	keys []string
	vals []any
}

func newObj() *obj { return &obj{} }

func (o *obj) set(k string, v any) *obj {
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	return o
}

func (o *obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(o.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// advertisedEnumMax is the longest enum a tool schema lists; longer closed
// sets (role nouns) are taught in the description and enforced by the decoder.
const advertisedEnumMax = 8

func advertised(b *ir.Bound) bool { return b != nil && b.Advertised }

// jsonType is a field's JSON Schema type ("open" is any object).
func jsonType(t ir.Type) string {
	if t == ir.TypeOpen {
		return "object"
	}
	return string(t)
}

// inputSchema renders one input field in the portable profile: no type
// arrays, no $ref, closed objects, a description on every property.
func (s *schemaGen) inputSchema(f *ir.Field, withDoc bool) *obj {
	o := newObj()
	if f.Type != ir.TypeScalar {
		o.set("type", jsonType(f.Type))
	}
	if withDoc {
		o.set("description", f.Doc)
	}
	switch f.Type {
	case "string":
		if enumAdvertised(f) && !s.lean {
			o.set("enum", f.EnumValues())
		}
		if f.DefStr != nil && !s.lean {
			o.set("default", *f.DefStr)
		}
		if advertised(f.Bound) && f.Enum == nil && !s.lean {
			if f.Bound.Min != nil && *f.Bound.Min > 0 && f.Handle == "" {
				o.set("minLength", *f.Bound.Min)
			}
			if f.Bound.Max != nil {
				o.set("maxLength", *f.Bound.Max)
			}
		}
	case "integer", "number":
		if advertised(f.Bound) && !s.lean {
			if f.Bound.Min != nil {
				o.set("minimum", *f.Bound.Min)
			}
			if f.Bound.Max != nil {
				o.set("maximum", *f.Bound.Max)
			}
		}
		// Defaults are always advertised: omitted fields take them.
		if f.Bound != nil && f.Bound.Def != nil && !s.lean {
			o.set("default", *f.Bound.Def)
		}
	case "boolean":
		if f.TrueOnly {
			o.set("enum", []bool{true})
		}
		// false is every boolean's natural default: advertise only true.
		if f.DefBool != nil && *f.DefBool && !s.lean {
			o.set("default", *f.DefBool)
		}
	case "scalar":
		var alts []*obj
		for _, k := range f.Kinds {
			alt := newObj().set("type", k)
			def := s.kindBound(f, k)
			if advertised(def) && !s.lean {
				switch k {
				case "string":
					if def.Min != nil && *def.Min > 0 {
						alt.set("minLength", *def.Min)
					}
					if def.Max != nil {
						alt.set("maxLength", *def.Max)
					}
				case "integer", "number":
					if def.Min != nil {
						alt.set("minimum", *def.Min)
					}
					if def.Max != nil {
						alt.set("maximum", *def.Max)
					}
				}
			}
			alts = append(alts, alt)
		}
		o.set("anyOf", alts)
	case "array":
		// Items are not fields: their description would repeat the array's.
		o.set("items", s.inputSchema(f.Items, false))
		if advertised(f.Bound) && !s.lean {
			if f.Bound.Min != nil && *f.Bound.Min > 0 {
				o.set("minItems", *f.Bound.Min)
			}
			if f.Bound.Max != nil {
				o.set("maxItems", *f.Bound.Max)
			}
		}
		if f.Unique && advertised(f.Bound) {
			o.set("uniqueItems", true)
		}
	case "object":
		if f.Variants != nil {
			s.variantProps(o, f.Variants)
			break
		}
		props := newObj()
		var req []string
		for _, c := range f.Fields {
			props.set(c.Name, s.inputSchema(c, true))
			if c.Required {
				req = append(req, c.Name)
			}
		}
		o.set("properties", props)
		if req != nil {
			o.set("required", req)
		}
		o.set("additionalProperties", false)
	}
	return o
}

// kindBound finds the bound a scalar kind is held to: a branch narrowing to
// that one kind, else the field's own bound when it applies to that kind.
func (s *schemaGen) kindBound(f *ir.Field, kind string) *ir.Bound {
	if s.tool != nil {
		for _, b := range s.tool.Branches {
			if o := b.OverrideOf(f.Name); o != nil && len(o.Kinds) == 1 && o.Kinds[0] == kind {
				return o.Bound
			}
		}
	}
	if (kind == "string") == contains(f.Kinds, "string") {
		return f.Bound
	}
	return nil
}

// variantProps renders a discriminated step object flat: the variant key as
// an enum plus every variant tool's own fields (first definition wins); the
// decoder enforces which fields each variant takes.
func (s *schemaGen) variantProps(o *obj, v *ir.Variants) {
	props := newObj()
	var names []string
	for _, c := range v.Cases {
		names = append(names, c.Name)
	}
	props.set(v.Key, newObj().set("type", "string").set("description", "Step kind.").set("enum", names))
	seen := map[string]bool{v.Key: true, "tab": true, "restrict_hosts": true, "restrict_capabilities": true}
	saved := s.tool
	// Step fields render lean (type and description): the bounds are those
	// of the named tool, which its own schema advertises.
	s.lean = true
	defer func() { s.lean = false }()
	for _, c := range v.Cases {
		t := c.Tool
		s.tool = t
		fields := t.Inputs
		if c.Wrap != "" {
			fields = t.Input(c.Wrap).Items.Fields
		}
		for _, f := range fields {
			if seen[f.Name] {
				continue
			}
			seen[f.Name] = true
			props.set(f.Name, s.inputSchema(f, true))
		}
	}
	s.tool = saved
	o.set("properties", props)
	o.set("required", []string{v.Key})
	o.set("additionalProperties", false)
}

type schemaGen struct {
	spec *ir.Spec
	tool *ir.Tool
	lean bool
}

// InputSchema renders a tool's input schema.
func (s *schemaGen) toolInput(t *ir.Tool) *obj {
	s.tool = t
	props := newObj()
	var req []string
	for _, f := range t.Inputs {
		props.set(f.Name, s.inputSchema(f, true))
		if f.Required {
			req = append(req, f.Name)
		}
	}
	o := newObj().set("type", "object").set("properties", props)
	if req != nil {
		o.set("required", req)
	}
	o.set("additionalProperties", false)
	return o
}

// factSchema renders an output fact.
func (s *schemaGen) factSchema(f *ir.Field) *obj {
	o := newObj()
	if f.Type != ir.TypeScalar {
		o.set("type", jsonType(f.Type))
	}
	o.set("description", f.Doc)
	switch f.Type {
	case "string":
		if f.Enum != nil {
			o.set("enum", f.EnumValues())
		}
		if f.Bound != nil && f.Bound.Max != nil {
			o.set("maxLength", *f.Bound.Max)
		}
	case "array":
		o.set("items", s.factSchema(f.Items))
		if f.Bound != nil && f.Bound.Max != nil {
			o.set("maxItems", *f.Bound.Max)
		}
	case "object":
		props := newObj()
		var req []string
		for _, c := range f.Fields {
			props.set(c.Name, s.factSchema(c))
			if c.Always {
				req = append(req, c.Name)
			}
		}
		o.set("properties", props)
		if req != nil {
			o.set("required", req)
		}
		o.set("additionalProperties", false)
	}
	return o
}

// toolOutput renders the envelope schema of one tool: its facts are the
// tool's facts on success, a refusal's facts otherwise (beside any tool facts
// observed), so every envelope the server returns validates.
func (s *schemaGen) toolOutput(t *ir.Tool) *obj {
	props := newObj()
	var req []string
	for _, e := range s.spec.Envelope {
		if e.Always {
			req = append(req, e.Name)
		}
		if e.Name != "facts" {
			props.set(e.Name, s.factSchema(e))
			continue
		}
		fp := newObj()
		var always []string
		seen := map[string]bool{}
		for _, f := range t.Facts {
			fp.set(f.Name, s.factSchema(f))
			seen[f.Name] = true
			if f.Always {
				always = append(always, f.Name)
			}
		}
		for _, f := range s.spec.RefusalFacts {
			if !seen[f.Name] {
				fp.set(f.Name, s.factSchema(f))
			}
		}
		if !seen["tab"] {
			fp.set("tab", newObj().set("type", "string").set("description", "Tab handle."))
		}
		facts := newObj().set("type", "object").set("description", e.Doc).set("properties", fp).set("additionalProperties", false)
		if always != nil {
			facts.set("anyOf", []*obj{newObj().set("required", always), newObj().set("required", []string{"reason"})})
		}
		props.set("facts", facts)
	}
	return newObj().set("type", "object").set("properties", props).set("required", req).set("additionalProperties", false)
}

// Definition renders a tool's MCP definition in the key order mcp-go
// serializes a Tool (sorted keys), so tools/list carries these exact bytes.
func Definition(spec *ir.Spec, t *ir.Tool) ([]byte, error) {
	s := &schemaGen{spec: spec}
	ann := annotations(t.Annotations)
	var out any = s.toolOutput(t)
	if t.Verb != nil {
		// A profile verb answers with the profile's contract, not the envelope.
		v, err := verbOutput(t.Surface.Claim, t.Verb.Verb)
		if err != nil {
			return nil, err
		}
		out = v
	}
	def := newObj().
		set("annotations", ann).
		set("description", t.Doc).
		set("inputSchema", s.toolInput(t)).
		set("name", t.Name).
		set("outputSchema", out).
		set("title", t.Title)
	return json.Marshal(def)
}

// InputSide renders what a client reads to choose a tool: the definition
// without its output schema. Used for the discovery-size budget.
func InputSide(spec *ir.Spec, t *ir.Tool) ([]byte, error) {
	s := &schemaGen{spec: spec}
	ann := annotations(t.Annotations)
	return json.Marshal(newObj().set("annotations", ann).set("description", t.Doc).set("inputSchema", s.toolInput(t)).set("name", t.Name).set("title", t.Title))
}

// annotations renders the MCP hints that differ from the MCP defaults
// (readOnlyHint false, destructiveHint true, idempotentHint false,
// openWorldHint true); readOnlyHint is always stated. destructiveHint is
// meaningless for a read-only tool and left out there. Clients apply the same
// defaults, so the effective hints are exactly the spec's.
func annotations(a ir.Annotations) *obj {
	o := newObj().set("readOnlyHint", a.ReadOnly)
	if !a.ReadOnly && !a.Destructive {
		o.set("destructiveHint", false)
	}
	if a.Idempotent {
		o.set("idempotentHint", true)
	}
	if !a.OpenWorld {
		o.set("openWorldHint", false)
	}
	return o
}
