// Package ir is the plain Go intermediate representation of the Ghostlight
// surface: what gen/load reads out of spec/ and what every emitter renders.
// It holds no CUE values, so emitters are ordinary Go over plain data.
package ir

import "encoding/json"

// Spec is the whole surface.
type Spec struct {
	Bounds                 []*Bound
	Enums                  []*Enum
	CredentialAutocomplete []string
	// ScrollAmountPermille maps each scroll amount to thousandths of the viewport.
	ScrollAmountPermille [][2]any
	// ReasonStatus maps each refusal reason to its envelope status, in reason order.
	ReasonStatus   [][2]string
	HandlePrefixes map[string]string
	NamedKeys      []*NamedKey
	Common         []*Field // tab, timeout_ms, restrict_hosts, restrict_capabilities
	Envelope       []*Field
	RefusalFacts   []*Field
	Tools          []*Tool // sorted by name
}

// Bound is one named limit.
type Bound struct {
	Name, Doc, Unit string
	Min, Max, Def   *int64
	// Advertised bounds appear in tool schemas; the others are enforced by
	// the decoder only.
	Advertised bool
}

// Enum is a closed set of strings.
type Enum struct {
	Name   string
	Values []string
}

// NamedKey is one entry of the closed named-key list.
type NamedKey struct {
	Name, Code, Text string
	KeyCode          int
}

// Field is an input field or an output fact.
type Field struct {
	Name       string
	Type       string // string integer number boolean array object scalar open
	Doc        string
	Required   bool
	Always     bool
	Bound      *Bound
	DefBool    *bool
	DefStr     *string
	Enum       []string
	EnumHidden bool
	TrueOnly   bool
	Format     string
	Handle     string
	Unique     bool
	UniqueBy   string
	Kinds      []string
	Items      *Field
	Fields     []*Field
	Variants   *Variants
	ExactlyOne []string
	GoType     string
	GoName     string
}

// Variants choose an object's shape by one enum field (sequence steps).
type Variants struct {
	Key   string
	Cases []*Variant
}

// Variant is one case of Variants.
type Variant struct {
	Name, Tool, Doc string
	Wrap            string
}

// Branch is a set of fields that belong together.
type Branch struct {
	Name, Doc    string
	When         string   // discriminated tools
	Keys         []string // presence tools; empty marks the default
	IsDefault    bool
	Required     []string
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
	Annotations      Annotations
	Capabilities     []string
	Constraints      []string
	WhenPresent      []*WhenPresent
	Composite        bool
	TakesTab         bool
	TakesTimeout     bool
	Inputs           []*Field // declared inputs, then the common fields it takes
	Discriminator    string
	Branches         []*Branch
	Conflicts        []*Conflict
	EmptyNeeds       []*EmptyNeeds
	Together         [][]string
	Example          json.RawMessage
	Facts            []*Field
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

// Override returns the branch's narrowing of a field, or nil.
func (b *Branch) OverrideOf(name string) *Field {
	for _, o := range b.Override {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// Presence reports whether the tool's branches are chosen by field presence.
func (t *Tool) Presence() bool { return t.Discriminator == "" && len(t.Branches) > 0 }

// IsCommon reports whether a field is one of the common fields.
func IsCommon(name string) bool {
	switch name {
	case "tab", "timeout_ms", "restrict_hosts", "restrict_capabilities":
		return true
	}
	return false
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

// Enum returns the enum of that name, or nil.
func (s *Spec) EnumOf(name string) *Enum {
	for _, e := range s.Enums {
		if e.Name == name {
			return e
		}
	}
	return nil
}
