package emit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// Fixture is one conformance case: an input, what the tool's JSON Schema
// says of it, and what the generated decoder must answer.
type Fixture struct {
	Name string `json:"name"`
	// Input is the arguments object; InputText is used instead for inputs that
	// are not valid JSON.
	Input     json.RawMessage `json:"input,omitempty"`
	InputText string          `json:"input_text,omitempty"`
	// Schema is "accept", "reject", or "n/a" (not JSON).
	Schema string `json:"schema"`
	// Stricter names the decoder rule a schema does not advertise, when the
	// decoder refuses what the schema accepts.
	Stricter string `json:"stricter,omitempty"`
	// Lenient is "null" where the schema refuses a null the decoder reads as
	// not given (an optional field: docs/strict-mode.md), "client_added"
	// where the input holds a field a client adds on its own.
	Lenient string        `json:"lenient,omitempty"`
	Decode  FixtureDecode `json:"decode"`
}

// FixtureDecode is the decoder's expected answer.
type FixtureDecode struct {
	OK      bool            `json:"ok"`
	Value   json.RawMessage `json:"value,omitempty"`
	Pointer *string         `json:"pointer,omitempty"`
	Rule    string          `json:"rule,omitempty"`
}

// FixtureFile is one tool's fixtures.
type FixtureFile struct {
	Tool  string    `json:"tool"`
	Cases []Fixture `json:"cases"`
}

type fixtureGen struct {
	// canDrop says the field being cased may be left out of its base.
	canDrop bool
	spec    *ir.Spec
	tool    *ir.Tool
	cases   []Fixture
	seen    map[string]bool
}

// Fixtures renders one conformance fixture file per tool of the surface,
// keyed by tool name.
func Fixtures(spec *ir.Spec, s *ir.Surface) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, t := range s.Tools {
		g := &fixtureGen{spec: spec, tool: t, seen: map[string]bool{}}
		if err := g.build(); err != nil {
			return nil, fmt.Errorf("fixtures %s: %w", t.Name, err)
		}
		b, err := json.MarshalIndent(FixtureFile{Tool: t.Name, Cases: g.cases}, "", " ")
		if err != nil {
			return nil, err
		}
		out[t.Name] = append(b, '\n')
	}
	return out, nil
}

// base is an example input and the branch it exercises.
type base struct {
	name   string
	value  *obj
	branch *ir.Branch
}

func (g *fixtureGen) bases() ([]base, error) {
	var out []base
	ex, err := parseOrdered(g.tool.Example)
	if err != nil {
		return nil, err
	}
	out = append(out, base{name: "example", value: ex.(*obj), branch: g.branchOf(ex.(*obj))})
	for _, b := range g.tool.Branches {
		v, err := parseOrdered(b.Example)
		if err != nil {
			return nil, err
		}
		out = append(out, base{name: "branch " + b.Name, value: v.(*obj), branch: b})
	}
	return out, nil
}

// branchOf tells which branch an example exercises.
func (g *fixtureGen) branchOf(v *obj) *ir.Branch {
	t := g.tool
	if t.Discriminator != "" {
		d, ok := v.get(t.Discriminator)
		for _, b := range t.Branches {
			if (ok && d == b.When) || (!ok && g.tool.Input(t.Discriminator).DefStr != nil && *g.tool.Input(t.Discriminator).DefStr == b.When) {
				return b
			}
		}
		return nil
	}
	for _, b := range t.Branches {
		for _, k := range b.Keys {
			if v.has(k) {
				return b
			}
		}
	}
	for _, b := range t.Branches {
		if b.IsDefault {
			return b
		}
	}
	return nil
}

// allowed reports whether field f may appear in a call of branch b.
func (g *fixtureGen) allowed(b *ir.Branch, f string) bool {
	return !g.tool.BranchOwned(f) || (b != nil && b.Lists(f))
}

func (g *fixtureGen) add(name string, in *obj, schema string, dec FixtureDecode, stricter string) {
	if g.seen[name] {
		return
	}
	g.seen[name] = true
	g.cases = append(g.cases, Fixture{Name: name, Input: mustJSON(in), Schema: schema, Stricter: stricter, Decode: dec})
}

func (g *fixtureGen) ok(name string, in *obj) {
	g.add(name, in, "accept", FixtureDecode{OK: true, Value: mustJSON(g.withDefaults(in))}, "")
}

// dropped marks a member to leave out (the expected decoding of a value that
// reads as not given).
type dropped struct{}

// strip removes every dropped member, at every level.
func strip(v any) any {
	switch v := v.(type) {
	case *obj:
		o := newObj()
		for i, k := range v.keys {
			if _, d := v.vals[i].(dropped); !d {
				o.set(k, strip(v.vals[i]))
			}
		}
		return o
	case []any:
		l := make([]any, len(v))
		for i := range v {
			l[i] = strip(v[i])
		}
		return l
	}
	return v
}

// absent records a value that reads as not given: it decodes as the input
// without the member. schema says whether the schema accepts the value.
func (g *fixtureGen) absent(name string, with func(any) *obj, v any, schema bool) {
	in := with(v)
	out := g.withDefaults(strip(with(dropped{})).(*obj))
	lenient, verdict := "", "accept"
	if !schema {
		lenient, verdict = "null", "reject"
	}
	if g.seen[name] || !g.canDrop {
		return
	}
	g.seen[name] = true
	g.cases = append(g.cases, Fixture{Name: name, Input: mustJSON(in), Schema: verdict, Lenient: lenient, Decode: FixtureDecode{OK: true, Value: mustJSON(out)}})
}

// bad records an input the decoder refuses at pointer for rule; advertised
// says whether the schema expresses that rule for that field.
func (g *fixtureGen) bad(name string, in *obj, pointer, rule string, advertised bool) {
	ptr := pointer
	schema, stricter := "reject", ""
	if !advertised {
		schema, stricter = "accept", rule
	}
	g.add(name, in, schema, FixtureDecode{Pointer: &ptr, Rule: rule}, stricter)
}

func (g *fixtureGen) build() error {
	bases, err := g.bases()
	if err != nil {
		return err
	}
	for _, b := range bases {
		g.ok("shortest "+b.name, b.value)
	}
	// Per field: types, bounds, enums, formats.
	for _, f := range g.tool.Inputs {
		b := g.baseFor(bases, f.Name)
		if b == nil {
			continue
		}
		def := f
		if b.branch != nil {
			if o := b.branch.OverrideOf(f.Name); o != nil {
				def = o
			}
		}
		g.fieldCases(b, def, "/"+f.Name, func(v any) *obj { return g.without(clone(b.value).(*obj), f.Name).put(f.Name, v) }, f.Name == g.tool.Discriminator)
		// A field its base's branch needs reads as not given in another
		// branch (a strict-mode call sends every field, null where unused).
		for i := range bases {
			if f.Required || g.seen[f.Name+": null reads as not given"] {
				break
			}
			if o := &bases[i]; !g.needs(o, f.Name) {
				g.canDrop = true
				g.absent(f.Name+": null reads as not given", func(v any) *obj { return clone(o.value).(*obj).put(f.Name, v) }, nil, false)
				g.canDrop = false
			}
		}
	}
	// Branch overrides exercised on their own branch.
	for _, br := range g.tool.Branches {
		for _, o := range br.Override {
			v, _ := parseOrdered(br.Example)
			bb := base{name: "branch " + br.Name, value: v.(*obj), branch: br}
			if bb.value.has(o.Name) {
				g.fieldCases(&bb, o, "/"+o.Name, func(x any) *obj { return clone(bb.value).(*obj).put(o.Name, x) }, false)
			}
		}
	}
	g.unknownFields(bases)
	g.branchCases(bases)
	g.conflictCases(bases)
	g.syntaxCases(bases[0].value)
	return nil
}

// baseFor picks the first example where the field may appear, preferring one
// that already holds it.
func (g *fixtureGen) baseFor(bases []base, field string) *base {
	for i := range bases {
		if bases[i].value.has(field) {
			return &bases[i]
		}
	}
	for i := range bases {
		if g.allowed(bases[i].branch, field) {
			return &bases[i]
		}
	}
	return nil
}

func wrongValue(f *ir.Field) (any, string) {
	switch f.Type {
	case "string":
		return json.Number("7"), "string"
	case "integer", "number":
		return "7", string(f.Type)
	case "boolean":
		return "true", "boolean"
	case "array":
		return newObj(), "array"
	case "object", "open":
		return []any{}, "object"
	case "scalar":
		return []any{}, "scalar"
	}
	return nil, ""
}

// fieldCases emits the type, bound and enum cases of one field.
func (g *fixtureGen) fieldCases(b *base, f *ir.Field, ptr string, with func(any) *obj, discriminator bool) {
	name := strings.TrimPrefix(ptr, "/")
	wv, _ := wrongValue(f)
	g.bad(name+": wrong type", with(wv), ptr, "type", true)
	// A field the base's branch needs cannot be left out of it: its
	// not-given values are tested only where it is optional.
	saved := g.canDrop
	defer func() { g.canDrop = saved }()
	g.canDrop = b == nil || !g.needs(b, f.Name)
	if f.Required {
		g.bad(name+": null", with(nil), ptr, "type", true)
	} else {
		g.absent(name+": null reads as not given", with, nil, false)
	}
	adv := true
	switch f.Type {
	case "integer":
		g.bad(name+": not a whole number", with(json.Number("1.5")), ptr, "integer", true)
		g.intBounds(name, f.Bound, ptr, with, adv)
	case "scalar":
		if len(f.Kinds) == 1 && f.Kinds[0] == "integer" {
			g.intBounds(name, f.Bound, ptr, with, adv)
		}
		if len(f.Kinds) == 1 && f.Kinds[0] == "string" {
			g.strBounds(name, f, ptr, with, adv)
		}
	case "boolean":
		if f.TrueOnly {
			g.absent(name+": false reads as not given", with, false, true)
		}
	case "string":
		if f.Enum != nil {
			g.bad(name+": not in enum", with("not_a_value"), ptr, "enum", true)
			g.bad(name+": empty", with(""), ptr, "enum", true)
			if !discriminator {
				for _, e := range f.EnumValues() {
					g.ok(name+": "+e, with(e))
				}
			}
			break
		}
		g.strBounds(name, f, ptr, with, adv)
		// Handle and format patterns are decoder-only where the schema
		// leaves them out (decoderOnly); a key's pattern stays.
		pat := !decoderOnly(g.tool)
		if f.Handle != "" {
			g.bad(name+": foreign handle", with("nothandle_1"), ptr, "handle", pat)
			g.bad(name+": bare prefix", with(g.spec.HandlePrefixes[f.Handle]+"_"), ptr, "handle", pat)
			g.bad(name+": punctuation", with(g.spec.HandlePrefixes[f.Handle]+"_a-b"), ptr, "handle", pat)
		}
		switch f.Format {
		case "url":
			g.bad(name+": not http", with("ftp://example.com/"), ptr, "url", pat)
			g.bad(name+": relative", with("/path"), ptr, "url", pat)
			g.bad(name+": no host", with("http:///path"), ptr, "url", pat)
			g.ok(name+": http", with("http://127.0.0.1:8080/a?b#c"))
		case "absolute_path":
			g.bad(name+": relative path", with("relative/file.txt"), ptr, "format", pat)
			g.bad(name+": drive without letter", with("1:/file.txt"), ptr, "format", pat)
			g.ok(name+": drive path", with(`C:\\file.txt`))
		case "key":
			g.bad(name+": unknown key name", with("NotAKey"), ptr, "format", true)
			g.ok(name+": one character", with("é"))
			g.ok(name+": named key", with("PageDown"))
		case "host_pattern":
			g.ok(name+": wildcard", with("*.example.com"))
			g.bad(name+": bare wildcard", with("*."), ptr, "format", pat)
			g.bad(name+": trailing dot", with("example.com."), ptr, "format", pat)
			g.bad(name+": space", with("a b"), ptr, "format", pat)
		case "base64":
			g.ok(name+": padded", with("QQ=="))
			g.bad(name+": bad padding", with("QQ=A"), ptr, "format", pat)
			g.bad(name+": not a multiple of four", with("QQQ"), ptr, "format", pat)
		case "identifier":
			g.bad(name+": punctuation", with("a.b"), ptr, "format", pat)
		}
		if f.Bound != nil && f.Bound.Max != nil && *f.Bound.Max > 0 && f.Format == "" && f.Handle == "" {
			g.bad(name+": lone surrogate", g.rawString(with, `"\ud800"`), ptr, "utf8", false)
		}
	case "array":
		g.arrayCases(name, f, ptr, with)
	case "object":
		if f.Variants == nil {
			for _, c := range f.Fields {
				if c.Required {
					sample := g.sampleObject(f)
					g.bad(name+": missing "+c.Name, with(sample.del(c.Name)), ptr+"/"+c.Name, "required", true)
				}
			}
			g.childCases(f, ptr, func(o *obj) *obj { return with(o) })
		}
	}
}

// without removes from a base the fields that conflict with field
// regardless of value, so a case of field meets no conflict.
func (g *fixtureGen) without(o *obj, field string) *obj {
	if o.has(field) {
		return o
	}
	for _, c := range g.tool.Conflicts {
		if c.Value != nil {
			continue
		}
		if c.A == field {
			o.del(c.B)
		} else if c.B == field {
			o.del(c.A)
		}
	}
	return o
}

// needs reports whether a base's branch requires the field, selects by it,
// or holds it in a group given together.
func (g *fixtureGen) needs(b *base, field string) bool {
	if b.branch != nil && (contains(b.branch.Required, field) || contains(b.branch.Keys, field)) {
		return true
	}
	if b.branch != nil {
		for _, grp := range b.branch.OneOf {
			if contains(grp, field) && b.value.has(field) {
				return true
			}
		}
	}
	for _, grp := range g.tool.Together {
		if contains(grp, field) && b.value.has(field) {
			return true
		}
	}
	return false
}

// notGiven reports whether a case value is one that reads as not given.
func notGiven(v any) bool {
	switch v := v.(type) {
	case nil, dropped:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case []any:
		return len(v) == 0
	}
	return false
}

// childCases runs the field cases of every member of an object field, each
// inside an otherwise valid sample object placed by place.
func (g *fixtureGen) childCases(f *ir.Field, ptr string, place func(*obj) *obj) {
	for _, c := range f.Fields {
		c := c
		g.fieldCases(nil, c, ptr+"/"+c.Name, func(v any) *obj {
			o := g.sampleObject(f)
			if contains(f.ExactlyOne, c.Name) {
				// One location only; a left-out one leaves the other.
				for _, n := range f.ExactlyOne {
					o.del(n)
				}
				if notGiven(v) && (c.Type != "object" || v == nil || v == any(dropped{})) {
					for _, alt := range f.Fields {
						if alt.Name != c.Name && contains(f.ExactlyOne, alt.Name) {
							o.put(alt.Name, g.sample(alt, 0))
							break
						}
					}
				}
			}
			if _, d := v.(dropped); d {
				return place(o.del(c.Name))
			}
			return place(o.put(c.Name, v))
		}, false)
	}
}

// rawString marks a value to be spliced in verbatim (a JSON escape that Go
// would otherwise normalize).
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

func (g *fixtureGen) rawString(with func(any) *obj, raw string) *obj { return with(rawJSON(raw)) }

func (g *fixtureGen) intBounds(name string, b *ir.Bound, ptr string, with func(any) *obj, adv bool) {
	if b == nil {
		return
	}
	if b.Min != nil {
		g.ok(name+": minimum", with(json.Number(fmt.Sprint(*b.Min))))
		g.bad(name+": below minimum", with(json.Number(fmt.Sprint(*b.Min-1))), ptr, "minimum", adv)
	}
	if b.Max != nil {
		g.ok(name+": maximum", with(json.Number(fmt.Sprint(*b.Max))))
		g.bad(name+": above maximum", with(json.Number(fmt.Sprint(*b.Max+1))), ptr, "maximum", adv)
	}
}

// maxTextFixture keeps fixture files small: longer limits are tested by the
// conformance suite's own generated inputs, not stored.
const maxTextFixture = 20000

func (g *fixtureGen) strBounds(name string, f *ir.Field, ptr string, with func(any) *obj, adv bool) {
	b := f.Bound
	if b == nil {
		return
	}
	if b.Min != nil && *b.Min >= 1 {
		if emptyOmits(f) {
			g.absent(name+": empty reads as not given", with, "", true)
		} else {
			_, inPattern := handleBody(f, g.spec.HandlePrefixes[f.Handle])
			g.bad(name+": empty", with(""), ptr, "min_length", adv && !(inPattern && decoderOnly(g.tool)))
		}
	}
	if b.Max != nil && *b.Max <= maxTextFixture && f.Format != "key" && f.Format != "base64" {
		g.ok(name+": longest", with(g.sampleString(f, int(*b.Max))))
		g.bad(name+": too long", with(g.sampleString(f, int(*b.Max)+1)), ptr, "max_length", adv && !decoderOnly(g.tool))
	}
}

// sampleString returns a valid value of the field of exactly n characters.
func (g *fixtureGen) sampleString(f *ir.Field, n int) string {
	prefix := ""
	switch {
	case f.Handle != "":
		prefix = g.spec.HandlePrefixes[f.Handle] + "_"
	case f.Format == "url":
		prefix = "https://example.com/"
	case f.Format == "absolute_path":
		prefix = "/"
	}
	if n < len(prefix)+1 {
		n = len(prefix) + 1
	}
	return prefix + strings.Repeat("a", n-len(prefix))
}

// sample returns the i-th distinct valid value of a field.
func (g *fixtureGen) sample(f *ir.Field, i int) any {
	switch f.Type {
	case "string":
		switch {
		case f.Enum != nil:
			return f.Enum.Values[i%len(f.Enum.Values)].Value
		case f.Handle != "":
			return fmt.Sprintf("%s_%d", g.spec.HandlePrefixes[f.Handle], i+1)
		case f.Format == "url":
			return fmt.Sprintf("https://example.com/%d", i)
		case f.Format == "absolute_path":
			return fmt.Sprintf("/tmp/file%d.txt", i)
		case f.Format == "host_pattern":
			return fmt.Sprintf("h%d.example.com", i)
		case f.Format == "key":
			return string(rune('a' + i%26))
		case f.Format == "base64":
			return "QUJD"
		}
		return fmt.Sprintf("v%d", i)
	case "integer":
		if f.Bound != nil && f.Bound.Min != nil {
			return json.Number(fmt.Sprint(*f.Bound.Min))
		}
		return json.Number("1")
	case "number":
		return json.Number("1")
	case "boolean":
		return true
	case "scalar":
		if contains(f.Kinds, "string") {
			return fmt.Sprintf("v%d", i)
		}
		return json.Number("1")
	case "object":
		o := g.sampleObject(f)
		if f.Fields != nil {
			for _, c := range f.Fields {
				if c.Required && c.Type == "string" && c.Handle == "" && c.Format == "" && c.Enum == nil {
					o.put(c.Name, fmt.Sprintf("v%d", i))
				}
			}
		}
		return o
	case "array":
		return []any{g.sample(f.Items, i)}
	case "open":
		return newObj()
	}
	return nil
}

// sampleObject returns a minimal valid object of an object field.
func (g *fixtureGen) sampleObject(f *ir.Field) *obj {
	o := newObj()
	if f.Variants != nil {
		c := f.Variants.Cases[0]
		o.set(f.Variants.Key, c.Name)
		t := c.Tool
		ex, _ := parseOrdered(t.Example)
		for i, k := range ex.(*obj).keys {
			o.set(k, ex.(*obj).vals[i])
		}
		return o
	}
	// A location choice (target or selector) needs one of them.
	for _, c := range f.Fields {
		if c.Required {
			o.set(c.Name, g.sample(c, 0))
		}
	}
	for _, c := range f.Fields {
		if c.Name == "target" && !o.has("selector") {
			o.set("target", g.sample(c, 0))
			break
		}
	}
	return o
}

func (g *fixtureGen) arrayCases(name string, f *ir.Field, ptr string, with func(any) *obj) {
	adv := true
	item := func(i int) any { return g.sample(f.Items, i) }
	if f.Items.Variants != nil || f.UniqueBy != "" {
		item = func(i int) any {
			if f.Items.Variants != nil {
				return g.sampleObject(f.Items)
			}
			o := g.sampleObject(f.Items)
			o.put(f.UniqueBy, fmt.Sprintf("s%d", i))
			if o.has("tool") {
				o.put("tool", "browser_read")
			}
			return o
		}
	}
	distinct := 1 << 30
	if f.Items.Enum != nil && (f.Unique || f.UniqueBy != "") {
		distinct = len(f.Items.Enum.Values)
	}
	list := func(n int) []any {
		l := make([]any, n)
		for i := range l {
			l[i] = item(i)
		}
		return l
	}
	if b := f.Bound; b != nil {
		if b.Min != nil && *b.Min >= 1 {
			g.ok(name+": fewest items", with(list(int(*b.Min))))
			if emptyOmits(f) && *b.Min == 1 {
				g.absent(name+": empty reads as not given", with, []any{}, true)
			} else {
				g.bad(name+": too few items", with(list(int(*b.Min)-1)), ptr, "min_items", adv)
			}
		}
		if b.Max != nil && int(*b.Max) <= distinct {
			g.ok(name+": most items", with(list(int(*b.Max))))
			if int(*b.Max)+1 <= distinct {
				g.bad(name+": too many items", with(list(int(*b.Max)+1)), ptr, "max_items", adv && !decoderOnly(g.tool))
			}
		}
	}
	if f.Unique {
		g.bad(name+": repeated item", with([]any{item(0), item(0)}), ptr+"/1", "unique", adv)
	}
	if f.UniqueBy != "" {
		g.bad(name+": repeated "+f.UniqueBy, with([]any{item(0), item(0)}), ptr+"/1", "unique", false)
	}
	if f.Items.Enum != nil {
		g.bad(name+": item not in enum", with([]any{"not_a_value"}), ptr+"/0", "enum", true)
	}
	wv, _ := wrongValue(f.Items)
	g.bad(name+": item of wrong type", with([]any{wv}), ptr+"/0", "type", true)
	if f.Items.Type == "object" && f.Items.Variants == nil {
		g.childCases(f.Items, ptr+"/0", func(o *obj) *obj { return with([]any{o}) })
	}
	if one := f.Items.ExactlyOne; len(one) > 1 {
		both := g.sampleObject(f.Items)
		for _, n := range one {
			for _, c := range f.Items.Fields {
				if c.Name == n {
					both.put(n, g.sample(c, 0))
				}
			}
		}
		g.bad(name+": item with "+strings.Join(one, " and "), with([]any{both}), ptr+"/0/"+one[1], "conflict", false)
		neither := g.sampleObject(f.Items)
		for _, n := range one {
			neither.del(n)
		}
		g.bad(name+": item without "+strings.Join(one, " or "), with([]any{neither}), ptr+"/0", "branch_required", false)
	}
}

func (g *fixtureGen) unknownFields(bases []base) {
	in := clone(bases[0].value).(*obj).set("bogus_field", json.Number("1"))
	g.bad("unknown field at the root", in, "/bogus_field", "unknown_field", true)
	// A client-added field is accepted and ignored at the root, though no
	// schema declares it (the client adds it to the schema it shows).
	for _, n := range g.spec.ClientAdded {
		in := clone(bases[0].value).(*obj).set(n, true)
		g.cases = append(g.cases, Fixture{Name: "client-added " + n, Input: mustJSON(in), Schema: "reject", Lenient: "client_added",
			Decode: FixtureDecode{OK: true, Value: mustJSON(g.withDefaults(bases[0].value))}})
	}
	// Nested: the first object (or object item) any example holds.
	for _, b := range bases {
		for i, k := range b.value.keys {
			v := b.value.vals[i]
			f := g.tool.Input(k)
			switch x := v.(type) {
			case *obj:
				if f != nil && f.Type == "object" {
					in := clone(b.value).(*obj)
					inner, _ := in.get(k)
					inner.(*obj).set("bogus_field", json.Number("1"))
					g.bad("unknown field in "+k, in, "/"+k+"/bogus_field", "unknown_field", true)
					return
				}
			case []any:
				if len(x) > 0 {
					if _, isObj := x[0].(*obj); isObj && f != nil && f.Items.Variants == nil {
						in := clone(b.value).(*obj)
						l, _ := in.get(k)
						l.([]any)[0].(*obj).set("bogus_field", json.Number("1"))
						g.bad("unknown field in "+k+"[0]", in, "/"+k+"/0/bogus_field", "unknown_field", true)
						return
					}
					if _, isObj := x[0].(*obj); isObj && f != nil && f.Items.Variants != nil {
						in := clone(b.value).(*obj)
						l, _ := in.get(k)
						l.([]any)[0].(*obj).set("bogus_field", json.Number("1"))
						g.bad("unknown field in "+k+"[0]", in, "/"+k+"/0/bogus_field", "unknown_field", true)
						return
					}
				}
			}
		}
	}
}

// branchCases emits the conflicts, missing and forbidden fields of branches.
func (g *fixtureGen) branchCases(bases []base) {
	t := g.tool
	branchBase := func(b *ir.Branch) *obj {
		for _, x := range bases {
			if x.branch == b && x.name == "branch "+b.Name {
				return clone(x.value).(*obj)
			}
		}
		return nil
	}
	for i, bi := range t.Branches {
		in := branchBase(bi)
		// Missing required fields.
		for _, r := range bi.Required {
			v := clone(in).(*obj).del(r)
			if t.Discriminator == "" && len(bi.Keys) > 0 {
				still := false
				for _, k := range bi.Keys {
					still = still || v.has(k)
				}
				if !still {
					if g.hasDefault() {
						continue
					}
					g.bad("no location given", v, "", "branch_required", false)
					continue
				}
			}
			g.bad(bi.Name+": missing "+r, v, "/"+r, "branch_required", false)
		}
		// A branch given none of a one-of group.
		for _, grp := range bi.OneOf {
			v := clone(in).(*obj)
			for _, n := range grp {
				v.del(n)
			}
			g.bad(bi.Name+": none of "+strings.Join(grp, ", "), v, "/"+grp[0], "branch_required", false)
		}
		// Forbidden fields (keys of other presence branches are conflicts instead).
		for _, f := range t.Inputs {
			if !t.BranchOwned(f.Name) || bi.Lists(f.Name) || g.isKey(f.Name) {
				continue
			}
			v := clone(in).(*obj).put(f.Name, g.sample(f, 0))
			g.bad(bi.Name+": "+f.Name+" not allowed", v, "/"+f.Name, "branch_forbidden", false)
		}
		// Conflicts with later presence branches.
		if t.Discriminator != "" || bi.IsDefault {
			continue
		}
		for _, bj := range t.Branches[i+1:] {
			if bj.IsDefault {
				continue
			}
			k := bj.Keys[0]
			v := clone(in).(*obj).put(k, g.sample(t.Input(k), 0))
			g.bad(bi.Name+" with "+bj.Name, v, "/"+k, "conflict", false)
		}
	}
}

func (g *fixtureGen) hasDefault() bool {
	for _, b := range g.tool.Branches {
		if b.IsDefault {
			return true
		}
	}
	return false
}

func (g *fixtureGen) isKey(name string) bool {
	for _, b := range g.tool.Branches {
		for _, k := range b.Keys {
			if k == name {
				return true
			}
		}
	}
	return false
}

func (g *fixtureGen) conflictCases(bases []base) {
	for _, c := range g.tool.Conflicts {
		var in *obj
		for _, b := range bases {
			if g.allowed(b.branch, c.A) && g.allowed(b.branch, c.B) {
				in = clone(b.value).(*obj)
				break
			}
		}
		if in == nil {
			continue
		}
		in.put(c.A, g.sample(g.tool.Input(c.A), 0))
		bv := g.sample(g.tool.Input(c.B), 0)
		if c.Value != nil {
			bv = *c.Value
		}
		in.put(c.B, bv)
		g.bad(c.A+" with "+c.B, in, "/"+c.B, "conflict", false)
	}
	for _, grp := range g.tool.Together {
		for _, b := range bases {
			all := true
			for _, n := range grp {
				all = all && b.value.has(n)
			}
			if !all {
				continue
			}
			for _, n := range grp {
				g.bad(strings.Join(grp, "+")+" without "+n, clone(b.value).(*obj).del(n), "/"+n, "branch_required", false)
			}
			break
		}
	}
	for _, e := range g.tool.EmptyNeeds {
		for _, b := range bases {
			if b.value.has(e.Field) {
				g.bad(e.Field+" empty", clone(b.value).(*obj).put(e.Field, ""), "/"+e.Field, "empty_text", false)
				g.ok(e.Field+" empty with "+e.Needs, clone(b.value).(*obj).put(e.Field, "").put(e.Needs, true))
				break
			}
		}
	}
}

func (g *fixtureGen) syntaxCases(ex *obj) {
	root := ""
	g.cases = append(g.cases,
		Fixture{Name: "not an object", Input: json.RawMessage(`[]`), Schema: "reject", Decode: FixtureDecode{Pointer: &root, Rule: "type"}},
		Fixture{Name: "invalid JSON", InputText: `{"a":`, Schema: "n/a", Decode: FixtureDecode{Pointer: &root, Rule: "syntax"}},
		Fixture{Name: "trailing data", InputText: string(mustJSON(ex)) + ` {}`, Schema: "n/a", Decode: FixtureDecode{Pointer: &root, Rule: "syntax"}},
	)
	if len(ex.keys) > 0 {
		k := ex.keys[0]
		dup := strings.TrimSuffix(string(mustJSON(ex)), "}") + `,"` + k + `":` + string(mustJSON(ex.vals[0])) + `}`
		ptr := "/" + k
		g.cases = append(g.cases, Fixture{Name: "repeated key", Input: json.RawMessage(dup), Schema: "accept", Stricter: "duplicate_field", Decode: FixtureDecode{Pointer: &ptr, Rule: "duplicate_field"}})
	}
}

// withDefaults returns the decoded form of a valid input: the input with
// every default filled, at every level.
func (g *fixtureGen) withDefaults(in *obj) *obj {
	return fillDefaults(g.spec, g.tool, g.tool.Inputs, clone(in).(*obj))
}

// fillDefaults fills defaults of fields; for a tool's own inputs (tool set),
// a branch-owned default only in the branches that take it.
func fillDefaults(spec *ir.Spec, tool *ir.Tool, fields []*ir.Field, o *obj) *obj {
	var br *ir.Branch
	if tool != nil {
		br = (&fixtureGen{spec: spec, tool: tool}).branchOf(o)
	}
	for _, f := range fields {
		v, ok := o.get(f.Name)
		if !ok {
			if tool != nil && tool.BranchOwned(f.Name) && (br == nil || !br.Lists(f.Name)) {
				continue
			}
			if tool != nil && tool.BranchOwned(f.Name) && f.DefBool != nil && !*f.DefBool {
				continue // a branch-owned false is omitted when encoded
			}
			switch {
			case f.DefBool != nil:
				o.set(f.Name, *f.DefBool)
			case f.DefStr != nil:
				o.set(f.Name, *f.DefStr)
			case f.Bound != nil && f.Bound.Def != nil && f.Type == "integer":
				o.set(f.Name, json.Number(fmt.Sprint(*f.Bound.Def)))
			}
			continue
		}
		switch {
		case f.Type == "object" && f.Fields != nil:
			fillDefaults(spec, nil, f.Fields, v.(*obj))
		case f.Type == "array" && f.Items.Type == "object":
			for _, it := range v.([]any) {
				io, isObj := it.(*obj)
				if !isObj {
					continue
				}
				if vs := f.Items.Variants; vs != nil {
					key, _ := io.get(vs.Key)
					for _, c := range vs.Cases {
						if c.Name == key {
							t := c.Tool
							if c.Wrap != "" {
								fillDefaults(spec, nil, t.Input(c.Wrap).Items.Fields, io)
							} else {
								fillDefaults(spec, t, t.Inputs, io)
							}
						}
					}
					continue
				}
				fillDefaults(spec, nil, f.Items.Fields, io)
			}
		}
	}
	return o
}
