package emit

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

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

// jsonType is a field's JSON Schema type ("open" is any object).
func jsonType(t ir.Type) string {
	if t == ir.TypeOpen {
		return "object"
	}
	return string(t)
}

// formatPattern is the ECMA-262 (and RE2) pattern of a string format, the
// same rule the decoder's support.Check<Format> applies by hand.
var formatPattern = map[string]string{
	"url":           `^https?://[^/?#]`,
	"absolute_path": `^(/|[A-Za-z]:[\\/])`,
	"base64":        `^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`,
	"host_pattern":  `^(\*\.)?[\w:\[\]-]([\w.:\[\]-]*[\w:\[\]-])?$`,
	"address_rule":  `^([a-z-]+|[0-9A-Fa-f.:]+(/[0-9]{1,3})?)$`,
	"identifier":    `^[A-Za-z0-9_-]*$`,
}

// handleBody is the most characters a handle field's body may have after
// its prefix and "_", when its length bound is that body length: the
// pattern then states the bound ({1,n}) and the schema needs no maxLength,
// the same language in 11 fewer bytes a handle field.
func handleBody(f *ir.Field, prefix string) (int, bool) {
	if f.Handle == "" || f.Bound == nil || f.Bound.Max == nil || f.Bound.Min != nil && *f.Bound.Min > int64(len(prefix)+2) {
		return 0, false
	}
	n := int(*f.Bound.Max) - len(prefix) - 1
	return n, n >= 1
}

// alternation joins names into a regex alternation, names sharing a stem
// grouped: ArrowUp|ArrowDown becomes Arrow(Up|Down), F1|F12 F(1|12). The
// stem ends before a name's last capital or its first digit; a stem no
// other name shares stays whole. Same language, about 25 bytes fewer for
// the named keys in each key pattern.
func alternation(names []string) string {
	stem := func(n string) string {
		for i := 1; i < len(n); i++ {
			if n[i] >= '0' && n[i] <= '9' {
				return n[:i]
			}
		}
		for i := len(n) - 1; i > 0; i-- {
			if n[i] >= 'A' && n[i] <= 'Z' {
				return n[:i]
			}
		}
		return n
	}
	groups := map[string][]string{}
	var order []string
	for _, n := range names {
		st := stem(n)
		if groups[st] == nil {
			order = append(order, st)
		}
		groups[st] = append(groups[st], n)
	}
	parts := make([]string, 0, len(order))
	for _, st := range order {
		g := groups[st]
		if len(g) < 2 {
			parts = append(parts, g...)
			continue
		}
		rest := make([]string, len(g))
		for i, n := range g {
			rest[i] = n[len(st):]
		}
		if r, ok := numberRun(rest); ok {
			parts = append(parts, st+r)
			continue
		}
		parts = append(parts, st+"("+strings.Join(rest, "|")+")")
	}
	return strings.Join(parts, "|")
}

// numberRun writes the rests "1" to "n" in that order, n from 10 to 19, as
// character classes: F1 to F12 become F([1-9]|1[0-2]), the same language
// in 15 fewer bytes.
func numberRun(rest []string) (string, bool) {
	n := len(rest)
	if n < 10 || n > 19 {
		return "", false
	}
	for i, r := range rest {
		if r != strconv.Itoa(i+1) {
			return "", false
		}
	}
	return "([1-9]|1[0-" + strconv.Itoa(n-10) + "])", true
}

// decoderOnly says the tool's schema leaves the decoder-only limits out:
// string length caps, list item caps and the patterns of handles and
// formats (a key's pattern stays: it is the list of key names a model
// needs). The decoder still enforces them; a model never needs them to
// write a valid call (issue 24: 39,897 B of declarations against 17,591 B
// for playwright-mcp). A profile verb states them all: its claim may not
// widen the profile's schema.
func decoderOnly(t *ir.Tool) bool { return t != nil && t.Verb == nil }

// Pattern returns the pattern a string field's schema states, or "": its
// handle prefix or format; "" is allowed where it reads as not given.
func (s *schemaGen) pattern(f *ir.Field) string {
	if decoderOnly(s.tool) && f.Format != "key" {
		return ""
	}
	var p string
	switch {
	case f.Handle != "":
		prefix := s.spec.HandlePrefixes[f.Handle]
		p = prefix + "_[0-9A-Za-z]+"
		if n, ok := handleBody(f, prefix); ok {
			p = prefix + "_[0-9A-Za-z]{1," + strconv.Itoa(n) + "}"
		}
	case f.Format == "key":
		names := make([]string, len(s.spec.NamedKeys))
		for i, k := range s.spec.NamedKeys {
			names[i] = k.Name
		}
		p = `[\s\S]|` + alternation(names)
	case f.Format != "":
		p = formatPattern[f.Format]
		if emptyOmits(f) && p != "" && p[len(p)-1] != '$' {
			return `^$|` + p
		}
		return p
	default:
		return ""
	}
	if emptyOmits(f) {
		return "^(" + p + ")?$"
	}
	return "^(" + p + ")$"
}

// inputSchema renders one input field in the portable profile: no type
// arrays, no $ref, closed objects, a description on every property but an
// evident field's and a sequence step's. The limits a model needs are
// stated (ranges, enums, key patterns, uniqueness; decoderOnly lists the
// rest); a minLength or minItems of 1 is left out where "" or [] reads as
// not given (support.Omit), so schema and decoder agree.
func (s *schemaGen) inputSchema(f *ir.Field, withDoc bool) *obj {
	o := newObj()
	if f.Type != ir.TypeScalar {
		o.set("type", jsonType(f.Type))
	}
	// An evident field's name, type, enum and range say what it is: its
	// description is left out where decoder-only limits are (a profile
	// verb's schema keeps every description).
	if withDoc && !s.lean && !(f.Evident && decoderOnly(s.tool)) {
		o.set("description", f.Doc)
	}
	if s.lean {
		switch f.Type {
		case "array":
			o.set("items", s.inputSchema(f.Items, false))
		case "object":
			s.closedObject(o, f.Fields)
		case "scalar":
			var alts []*obj
			for _, k := range f.Kinds {
				alts = append(alts, newObj().set("type", k))
			}
			o.set("anyOf", alts)
		}
		return o
	}
	switch f.Type {
	case "string":
		if f.Enum != nil {
			o.set("enum", f.EnumValues())
		}
		if f.DefStr != nil {
			o.set("default", *f.DefStr)
		}
		if _, inPattern := handleBody(f, s.spec.HandlePrefixes[f.Handle]); inPattern && decoderOnly(s.tool) {
			// The handle's length bound lived in its pattern: decoder-only.
		} else if f.Bound != nil && f.Enum == nil && !inPattern {
			if f.Bound.Min != nil && *f.Bound.Min > 0 && !emptyOmits(f) {
				o.set("minLength", *f.Bound.Min)
			}
			if f.Bound.Max != nil && !decoderOnly(s.tool) {
				o.set("maxLength", *f.Bound.Max)
			}
		}
		if p := s.pattern(f); p != "" {
			o.set("pattern", p)
		}
	case "integer", "number":
		if f.Bound != nil {
			if f.Bound.Min != nil {
				o.set("minimum", *f.Bound.Min)
			}
			if f.Bound.Max != nil {
				o.set("maximum", *f.Bound.Max)
			}
		}
		if f.Bound != nil && f.Bound.Def != nil {
			o.set("default", *f.Bound.Def)
		}
	case "boolean":
		// false is every boolean's natural default: advertise only true. A
		// true-only boolean's false reads as not given.
		if f.DefBool != nil && *f.DefBool {
			o.set("default", *f.DefBool)
		}
	case "scalar":
		var alts []*obj
		for _, k := range f.Kinds {
			alt := newObj().set("type", k)
			if def := s.kindBound(f, k); def != nil {
				switch k {
				case "string":
					if def.Min != nil && *def.Min > 0 {
						alt.set("minLength", *def.Min)
					}
					if def.Max != nil && !decoderOnly(s.tool) {
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
		if f.Bound != nil {
			if f.Bound.Min != nil && *f.Bound.Min > 0 && !emptyOmits(f) {
				o.set("minItems", *f.Bound.Min)
			}
			if f.Bound.Max != nil && !decoderOnly(s.tool) {
				o.set("maxItems", *f.Bound.Max)
			}
		}
		if f.Unique {
			o.set("uniqueItems", true)
		}
	case "object":
		if f.Variants != nil {
			s.variantProps(o, f.Variants)
			break
		}
		s.closedObject(o, f.Fields)
	}
	return o
}

// kindBound finds the bound a scalar kind is held to: a branch narrowing to
// that one kind, else the field's own bound when it applies to that kind.
// closedObject gives o the properties of input fields, the required ones, and no others.
func (s *schemaGen) closedObject(o *obj, fields []*ir.Field) {
	closed(o, fields, func(c *ir.Field) *obj { return s.inputSchema(c, true) }, func(c *ir.Field) bool { return c.Required })
}

// closed gives o each field's schema as a property, lists the fields
// required says must be present, and admits no other property.
func closed(o *obj, fields []*ir.Field, schema func(*ir.Field) *obj, required func(*ir.Field) bool) {
	props := newObj()
	var req []string
	for _, c := range fields {
		props.set(c.Name, schema(c))
		if required(c) {
			req = append(req, c.Name)
		}
	}
	o.set("properties", props)
	if req != nil {
		o.set("required", req)
	}
	o.set("additionalProperties", false)
}

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
	// Step fields render lean (type and shape, no description): each step
	// decodes with its tool's own decoder, whose schema states the field's
	// limits (and the fixtures check) and describes it; stating both again
	// would cost about 3.3 KB. The tool's description says a step is the
	// action plus that tool's fields.
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
		p := s.inputSchema(f, true)
		if h := paramHeader(f); h != "" && !s.lean {
			p.set("x-mcp-header", h)
		}
		props.set(f.Name, p)
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

// paramHeader is the x-mcp-header a top-level tab or target field declares
// (MCP 2026-07-28, SEP-2243): the client mirrors its value into
// Mcp-Param-<header>, so a router reads the replica a handle names from a
// header, never the body (docs/deployment.md). Only tabs and targets: a
// view, recording or image belongs to a tab the call may name too, and
// declaring all five cost 1,032 B of model-visible declarations, past
// their bound (docs/decisions/route-on-tab-and-target.md).
// "surface_id" is "Surface-Id".
func paramHeader(f *ir.Field) string {
	if (f.Handle != "tab" && f.Handle != "target") || f.Type != "string" {
		return ""
	}
	words := strings.Split(f.Name, "_")
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, "-")
}

// factSchema renders an output fact for a client that validates results:
// its type and shape only. No prose (a model reads the result, not its
// schema; the Google GenAI SDK sends every outputSchema to the model), no
// enums and no length bounds (the contract and docs/ list the values; a
// client never needs them to read a result) and no additionalProperties
// (an open object validates a later server's new fact or value). Issue 24:
// 146,837 B of output schemas became 21,300.
func (s *schemaGen) factSchema(f *ir.Field) *obj {
	o := newObj()
	if f.Type != ir.TypeScalar {
		o.set("type", jsonType(f.Type))
	}
	switch f.Type {
	case "array":
		o.set("items", s.factSchema(f.Items))
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
	}
	return o
}

// toolOutput renders the envelope schema of one tool: its facts are the
// tool's facts on success; a refusal's facts (reason and the refusal facts
// the contract lists) are declared by reason alone, the open facts object
// admitting the rest, so every envelope the server returns validates and
// the refusal facts are not repeated in 24 schemas (about 900 B each).
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
		for _, f := range []string{"reason", "tab"} {
			if !seen[f] {
				fp.set(f, newObj().set("type", "string"))
			}
		}
		facts := newObj().set("type", "object").set("properties", fp)
		if always != nil {
			facts.set("anyOf", []*obj{newObj().set("required", always), newObj().set("required", []string{"reason"})})
		}
		props.set("facts", facts)
	}
	return newObj().set("type", "object").set("properties", props).set("required", req)
}

// Definition renders a tool's MCP definition in the key order mcp-go
// serializes a Tool (sorted keys), so tools/list carries these exact bytes.
func Definition(spec *ir.Spec, t *ir.Tool) ([]byte, error) {
	s := &schemaGen{spec: spec}
	var out any = s.toolOutput(t)
	if t.Verb != nil {
		// A profile verb answers with the profile's contract, not the envelope.
		v, err := verbOutput(t.Surface.Claim, t.Verb.Verb)
		if err != nil {
			return nil, err
		}
		out = v
	}
	return json.Marshal(s.definition(t, out))
}

// InputSide renders what a client reads to choose a tool: the definition
// without its output schema. Used for the discovery-size budget.
func InputSide(spec *ir.Spec, t *ir.Tool) ([]byte, error) {
	s := &schemaGen{spec: spec}
	return json.Marshal(s.definition(t, nil))
}

func (s *schemaGen) definition(t *ir.Tool, out any) *obj {
	def := newObj().set("annotations", annotations(t.Annotations)).set("description", Description(t))
	if t.Icon != "" {
		def.set("icons", []*obj{newObj().set("src", IconURI(t.Icon))})
	}
	def.set("inputSchema", s.toolInput(t)).set("name", t.Name)
	if out != nil {
		def.set("outputSchema", out)
	}
	return def.set("title", t.Title)
}

// Description is a tool's description as tools/list carries it: its doc,
// then its shortest valid example. Clients show models the description;
// several drop or refuse a schema's examples keyword (OpenAI strict mode
// allows only a subset of keywords), so the example lives in the text.
func Description(t *ir.Tool) string {
	return t.Doc + " Example: " + string(t.Example)
}

// IconURI renders a tool icon's SVG path data as a data: URI of a 16x16
// SVG: percent-encoded angle brackets (JSON would escape them in six
// bytes), single-quoted attributes.
func IconURI(path string) string {
	return "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath d='" + path + "'/%3E%3C/svg%3E"
}

// annotations states all four MCP hints, in the key order mcp-go writes
// them: clients read a missing hint as the MCP default (destructive, not
// idempotent, open world), which is wrong for most tools, and several
// (auto-approval, plan modes, app directories) require them stated.
func annotations(a ir.Annotations) *obj {
	return newObj().set("readOnlyHint", a.ReadOnly).set("destructiveHint", a.Destructive).
		set("idempotentHint", a.Idempotent).set("openWorldHint", a.OpenWorld)
}
