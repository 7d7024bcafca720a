// Package ir is the typed intermediate representation of the Ghostlight
// surfaces: what gen/load reads out of spec/ and what every emitter renders.
// It holds no CUE values. As in protogen, it is referential: a field points
// at its enum and its surface, and every Go name is computed once, at load,
// so emitters never guess an identity back from values or names.
package ir

import "encoding/json"

// Spec is everything spec/ declares.
type Spec struct {
	// Surfaces are the tool catalogs served; the first is the core surface,
	// whose package holds the shared envelope, bounds and catalog types.
	Surfaces []*Surface
	Bounds   []*Bound
	// Enums are every closed set, named ones first (in declaration order,
	// the core surface's then each surface's), then the anonymous ones
	// fields declare inline.
	Enums []*Enum
	// CredentialClasses are spec/credentials.cue's table, in name order;
	// CredentialAutocomplete is every class's autocomplete tokens, in that
	// order.
	CredentialClasses      []*CredentialClass
	CredentialAutocomplete []string
	// ClientAdded names the fields clients add to every tool's arguments on
	// their own (Gemini CLI's wait_for_previous): accepted at the top level
	// of every tool's arguments and never read.
	ClientAdded []string
	// ScrollAmountPermille maps each scroll amount to thousandths of the viewport.
	ScrollAmountPermille [][2]any
	// ReasonStatus maps each refusal reason to its envelope status, in reason order.
	ReasonStatus   [][2]string
	HandlePrefixes map[string]string
	NamedKeys      []*NamedKey
	Common         []*Field // tab, timeout_ms, restrict_hosts, restrict_capabilities
	Envelope       []*Field
	RefusalFacts   []*Field
	// Texts are fixed sentences (name, text) the runtime says verbatim.
	Texts [][2]string
	Tools []*Tool // every surface's, sorted by name
	// Policy is the layer schema (#Policy in spec/policy.cue); nil when the
	// spec declares none.
	Policy *Policy
}

// Core is the surface whose package holds the shared types.
func (s *Spec) Core() *Surface { return s.Surfaces[0] }

// Surface is one tool catalog with its own Go package, schemas, docs,
// fixtures and discovery budget.
type Surface struct {
	Name, Doc string
	// Package is the Go package name and its directory under the output root.
	Package string
	// Budget bounds the bytes of the tools list's input side.
	Budget *Bound
	// Common names the common fields every tool of the surface takes (tab
	// and timeout_ms are chosen per tool).
	Common []string
	// Enums are the named enums whose Go types live in this package.
	Enums []*Enum
	Tools []*Tool // sorted by name
	// Claim is the class-profile claim the surface publishes, or nil.
	Claim *Claim
}

// Bound is one named limit.
type Bound struct {
	Name, Doc, Unit string
	GoName          string
	Min, Max, Def   *int64
	Kind            BoundKind
}

// BoundKind says what a bound's number is (spec/schema.cue, #Bound.kind).
type BoundKind string

// Kinds of bound.
const (
	BoundLimit  BoundKind = "limit"  // a contract or surface limit a client can rely on
	BoundTuning BoundKind = "tuning" // a value of Ghostlight's own behaviour
	BoundBudget BoundKind = "budget" // a size the tests hold Ghostlight's output to
)

// BoundKinds lists the kinds in the order the docs and bounds files give them.
var BoundKinds = []BoundKind{BoundLimit, BoundBudget, BoundTuning}

// Enum is a closed set of strings. A named enum has a Go type of its own in
// its surface's package; an anonymous one (declared inline on a field) has
// untyped constants named after its field.
type Enum struct {
	Name    string // spec name ("role"); "" for anonymous enums
	GoName  string // Go type of a named enum; constant prefix of an anonymous one
	Values  []*EnumValue
	Surface *Surface
}

// Named reports whether the enum has a Go type of its own.
func (e *Enum) Named() bool { return e != nil && e.Name != "" }

// Strings returns the values in order.
func (e *Enum) Strings() []string {
	if e == nil {
		return nil
	}
	out := make([]string, len(e.Values))
	for i, v := range e.Values {
		out[i] = v.Value
	}
	return out
}

// Value returns the value of that spelling, or nil.
func (e *Enum) Value(s string) *EnumValue {
	for _, v := range e.Values {
		if v.Value == s {
			return v
		}
	}
	return nil
}

// EnumValue is one value and its Go constant.
type EnumValue struct{ Value, GoName string }

// NamedKey is one entry of the closed named-key list.
type NamedKey struct {
	Name, Code, Text string
	KeyCode          int
}

// Type is a field's JSON kind.
type Type string

// Field types.
const (
	TypeString  Type = "string"
	TypeInteger Type = "integer"
	TypeNumber  Type = "number"
	TypeBoolean Type = "boolean"
	TypeArray   Type = "array"
	TypeObject  Type = "object"
	TypeScalar  Type = "scalar" // one of Kinds
	TypeOpen    Type = "open"   // any object, kept as JSON
	TypeMap     Type = "map"    // policy only: an object keyed by pattern, each value Items
)

// Field is an input field or an output fact.
type Field struct {
	Name     string
	Type     Type
	Doc      string
	Required bool
	Always   bool
	Bound    *Bound
	DefBool  *bool
	DefStr   *string
	// Enum is the closed set of a string field, or nil.
	Enum     *Enum
	TrueOnly bool
	// Evident fields are advertised without their description: the name,
	// type, enum and range say what the value is (docs and Go keep Doc).
	Evident    bool
	Format     string
	Handle     string
	Unique     bool
	UniqueBy   string
	Kinds      []string
	Items      *Field
	Fields     []*Field
	Variants   *Variants
	ExactlyOne []string
	// GoName is the Go field name; GoType the Go type name of an object.
	GoName string
	GoType string
	// Policy fields only: how a lower layer may move the value (Narrow, with
	// NarrowOrder narrowest first), the one layer that may set it, its
	// default as reference text, and whether an empty list stays non-nil.
	Narrow      string
	NarrowOrder []string
	OnlyLayer   string
	PolicyDef   string
	KeepEmpty   bool
}

// EnumValues returns the field's enum values (nil without an enum).
func (f *Field) EnumValues() []string { return f.Enum.Strings() }

// Variants choose an object's shape by one enum field (sequence steps).
type Variants struct {
	Key   string
	Cases []*Variant
}

// Variant is one case of Variants.
type Variant struct {
	Name, Doc string
	Tool      *Tool
	Wrap      string
}

// Branch is a set of fields that belong together.
type Branch struct {
	Name, Doc    string
	GoName       string   // the Branch constant
	When         string   // discriminated tools
	Keys         []string // presence tools; empty marks the default
	IsDefault    bool
	Required     []string
	OneOf        [][]string
	Allowed      []string
	Override     []*Field
	Capabilities []string
	HasCaps      bool
	Constraints  []string
	WhenPresent  []*WhenPresent
	Example      json.RawMessage
}

// WhenPresent changes capabilities when a field is present.
type WhenPresent struct {
	Field    string
	Add, Set []string
}

// Conflict forbids two fields together.
type Conflict struct {
	A, B  string
	Value *bool
	Doc   string
}

// EmptyNeeds lets a text field be empty only when a boolean is true.
type EmptyNeeds struct{ Field, Needs string }

// Annotations are the MCP tool hints.
type Annotations struct{ ReadOnly, Destructive, Idempotent, OpenWorld bool }

// Tool is one catalog entry.
type Tool struct {
	Name, Title, Doc string
	GoName           string
	// Icon is the SVG path data of the tool's icon (spec/icons.cue).
	Icon          string
	Surface       *Surface
	Annotations   Annotations
	Capabilities  []string
	Constraints   []string
	WhenPresent   []*WhenPresent
	Composite     bool
	TakesTab      bool
	TakesTimeout  bool
	Inputs        []*Field // declared inputs, then the common fields it takes
	Discriminator string
	Branches      []*Branch
	Conflicts     []*Conflict
	EmptyNeeds    []*EmptyNeeds
	Together      [][]string
	Example       json.RawMessage
	Facts         []*Field
	// Verb is the class-profile verb the tool publishes, or nil.
	Verb *VerbClaim
}

// Input returns the input field of that name, or nil.
func (t *Tool) Input(name string) *Field {
	for _, f := range t.Inputs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// BranchOwned reports whether a field belongs to some branch (and so is
// forbidden in the others).
func (t *Tool) BranchOwned(name string) bool {
	if name == t.Discriminator {
		return false
	}
	for _, b := range t.Branches {
		if b.Lists(name) {
			return true
		}
	}
	return false
}

// Lists reports whether the branch names the field as key, required, allowed
// or overridden.
func (b *Branch) Lists(name string) bool {
	for _, l := range [][]string{b.Keys, b.Required, b.Allowed} {
		for _, n := range l {
			if n == name {
				return true
			}
		}
	}
	for _, o := range b.Override {
		if o.Name == name {
			return true
		}
	}
	return false
}

// OverrideOf returns the branch's narrowing of a field, or nil.
func (b *Branch) OverrideOf(name string) *Field {
	for _, o := range b.Override {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// Tool returns the tool of that name, or nil.
func (s *Spec) Tool(name string) *Tool {
	for _, t := range s.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// EnumOf returns the named enum of that name, or nil.
func (s *Spec) EnumOf(name string) *Enum {
	for _, e := range s.Enums {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// Policy is the layer schema and the facts around it: the layers from the
// top, the organization signature, the permanent ceilings.
type Policy struct {
	Fields    []*Field // top-level sections, each an object
	Layers    []*PolicyLayer
	Signature PolicySignature
	Ceilings  []string
	// ConfirmDefaults are the actions `confirm: defaults: true` makes wait.
	ConfirmDefaults []string
	// AddressPresets are the named ranges hosts.addresses.deny may list.
	AddressPresets []*AddressPreset
}

// AddressPreset is a named list of CIDRs (spec/address_presets.cue).
type AddressPreset struct {
	Name, Doc string
	CIDRs     []string
}

// PolicyLayer is one layer of authority, in order from the top.
type PolicyLayer struct{ Name, Doc, Path, Env string }

// PolicySignature says where an organization layer's signature and the
// installation's pinned key live.
type PolicySignature struct{ Suffix, KeyPath, KeyEnv string }

// Narrowing rules of a policy field (see spec/policy.cue).
const (
	NarrowOrder   = "order"
	NarrowWithin  = "within"
	NarrowAdds    = "adds"
	NarrowFixed   = "fixed"
	NarrowAtLeast = "atleast"
)

// CredentialClass is one class of credential field (spec/credentials.cue).
type CredentialClass struct {
	Name, Doc    string
	InputTypes   []string
	Autocomplete []string
	Words        []string
	ContextWords []string
	Numeric      bool
}
