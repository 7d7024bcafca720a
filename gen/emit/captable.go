package emit

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// CapabilityRow is one call of the capability table: a tool, a branch (and,
// for a composite, one step), an input that selects it, and what the spec
// says the call needs. conformance/ runs every row through the decoder and
// the authority: removing any one capability blocks exactly the rows that
// need it, a restriction never widens, and the constraints deny what they
// say.
type CapabilityRow struct {
	Tool   string `json:"tool"`
	Branch string `json:"branch,omitempty"`
	// Present names the field whose presence changes the capabilities
	// (when_present), when the row exercises it.
	Present string `json:"present,omitempty"`
	// Composite steps: "sequence" or "flow", the step's tool and branch.
	Step       string `json:"step,omitempty"`
	StepTool   string `json:"step_tool,omitempty"`
	StepBranch string `json:"step_branch,omitempty"`
	// Input is the direct call's arguments (for a step row, a composite call
	// holding the step).
	Input        json.RawMessage `json:"input"`
	Capabilities []string        `json:"capabilities"`
	Constraints  []string        `json:"constraints"`
}

// CapabilityTable is generated/fixtures/capabilities.json: every branch of
// every tool of the core surface, sequence and flow steps included, with the
// capabilities and constraints the spec gives it.
type CapabilityTable struct {
	Capabilities []string        `json:"capabilities"`
	Constraints  []string        `json:"constraints"`
	Rows         []CapabilityRow `json:"rows"`
}

// CapabilitiesJSON renders the table.
func CapabilitiesJSON(spec *ir.Spec, s *ir.Surface) ([]byte, error) {
	tab := CapabilityTable{Capabilities: capabilityOrder(spec), Constraints: []string{}}
	seenC := map[string]bool{}
	for _, t := range s.Tools {
		for _, c := range t.Constraints {
			seenC[c] = true
		}
		for _, b := range t.Branches {
			for _, c := range b.Constraints {
				seenC[c] = true
			}
		}
	}
	for c := range seenC {
		tab.Constraints = append(tab.Constraints, c)
	}
	sort.Strings(tab.Constraints)
	for _, t := range s.Tools {
		rows, err := toolRows(spec, t)
		if err != nil {
			return nil, fmt.Errorf("capabilities %s: %w", t.Name, err)
		}
		tab.Rows = append(tab.Rows, rows...)
	}
	// Composite steps: every branch of every step tool, inside the composite.
	for _, t := range s.Tools {
		if !t.Composite {
			continue
		}
		rows, err := stepRows(spec, s, t)
		if err != nil {
			return nil, fmt.Errorf("capabilities %s steps: %w", t.Name, err)
		}
		tab.Rows = append(tab.Rows, rows...)
	}
	b, err := json.MarshalIndent(tab, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// branchInputs are a tool's calls, one per branch (the tool's example when
// it has no branches), each with the branch it selects.
func branchInputs(t *ir.Tool) ([]*obj, []*ir.Branch, error) {
	if len(t.Branches) == 0 {
		ex, err := parseOrdered(t.Example)
		if err != nil {
			return nil, nil, err
		}
		return []*obj{ex.(*obj)}, []*ir.Branch{nil}, nil
	}
	var ins []*obj
	var bs []*ir.Branch
	for _, b := range t.Branches {
		ex, err := parseOrdered(b.Example)
		if err != nil {
			return nil, nil, err
		}
		ins, bs = append(ins, ex.(*obj)), append(bs, b)
	}
	return ins, bs, nil
}

// needs is what the spec says a call of branch b needs, with field present
// ("" none) there: the branch's capabilities replace the tool's when it
// states them, then each when_present rule of the branch and of the tool
// adds or sets capabilities (the order the generated Needs applies them).
func needs(spec *ir.Spec, t *ir.Tool, b *ir.Branch, present string) ([]string, []string) {
	caps := map[string]bool{}
	set := func(l []string) {
		clear(caps)
		for _, c := range l {
			caps[c] = true
		}
	}
	set(t.Capabilities)
	cons := t.Constraints
	var wps []*ir.WhenPresent
	if b != nil {
		if b.HasCaps {
			set(b.Capabilities)
		}
		if len(b.Constraints) > 0 {
			cons = b.Constraints
		}
		wps = append(wps, b.WhenPresent...)
	}
	wps = append(wps, t.WhenPresent...)
	for _, w := range wps {
		if w.Field != present {
			continue
		}
		if w.Set != nil {
			set(w.Set)
		}
		for _, c := range w.Add {
			caps[c] = true
		}
	}
	out := []string{}
	for _, c := range capabilityOrder(spec) { // the spec's order
		if caps[c] {
			out = append(out, c)
		}
	}
	return out, append([]string{}, cons...)
}

// presentFields are the when_present fields a branch may carry.
func presentFields(t *ir.Tool, b *ir.Branch) []string {
	var out []string
	var wps []*ir.WhenPresent
	if b != nil {
		wps = append(wps, b.WhenPresent...)
	}
	wps = append(wps, t.WhenPresent...)
	for _, w := range wps {
		if b == nil || !t.BranchOwned(w.Field) || b.Lists(w.Field) {
			out = append(out, w.Field)
		}
	}
	return out
}

func toolRows(spec *ir.Spec, t *ir.Tool) ([]CapabilityRow, error) {
	ins, bs, err := branchInputs(t)
	if err != nil {
		return nil, err
	}
	g := &fixtureGen{spec: spec, tool: t}
	var rows []CapabilityRow
	for i, in := range ins {
		row := CapabilityRow{Tool: t.Name, Input: mustJSON(in)}
		if bs[i] != nil {
			row.Branch = bs[i].Name
		}
		row.Capabilities, row.Constraints = needs(spec, t, bs[i], "")
		rows = append(rows, row)
		for _, f := range presentFields(t, bs[i]) {
			if in.has(f) {
				continue
			}
			p := clone(in).(*obj)
			p.set(f, g.sample(t.Input(f), 0))
			pr := CapabilityRow{Tool: t.Name, Branch: row.Branch, Present: f, Input: mustJSON(p)}
			pr.Capabilities, pr.Constraints = needs(spec, t, bs[i], f)
			rows = append(rows, pr)
		}
	}
	return rows, nil
}

// stepRows puts every branch of every step tool into the composite: a
// sequence step is the variant's action plus the step tool's fields (one
// field of browser_fill_form for a wrapped step), given twice (a sequence
// has at least two steps); a flow step names the tool with the branch's
// arguments (and each when_present field).
func stepRows(spec *ir.Spec, s *ir.Surface, t *ir.Tool) ([]CapabilityRow, error) {
	steps := t.Input("steps")
	if steps == nil || steps.Items == nil {
		return nil, nil
	}
	var rows []CapabilityRow
	if vs := steps.Items.Variants; vs != nil {
		for _, c := range vs.Cases {
			st := c.Tool
			ins, bs, err := branchInputs(st)
			if err != nil {
				return nil, err
			}
			for i, in := range ins {
				if requires(st, bs[i], "tab") {
					continue
				}
				step := newObj()
				step.set(vs.Key, c.Name)
				src := in
				if c.Wrap != "" { // one item of the wrapped array
					items, _ := in.get(c.Wrap)
					l, _ := items.([]any)
					if len(l) == 0 {
						continue
					}
					src, _ = l[0].(*obj)
				}
				if src == nil {
					continue
				}
				for k, key := range src.keys {
					if key == "tab" || key == "restrict_hosts" || key == "restrict_capabilities" {
						continue // steps take none of their own
					}
					step.set(key, clone(src.vals[k]))
				}
				call := newObj()
				call.set("steps", []any{step, clone(step)})
				row := CapabilityRow{Tool: t.Name, Step: "sequence", StepTool: st.Name, Input: mustJSON(call)}
				if bs[i] != nil {
					row.StepBranch = bs[i].Name
				}
				row.Capabilities, row.Constraints = needs(spec, st, bs[i], "")
				rows = append(rows, row)
			}
		}
		return rows, nil
	}
	// A flow: any non-composite tool of the surface.
	for _, st := range s.Tools {
		if st.Composite {
			continue
		}
		ins, bs, err := branchInputs(st)
		if err != nil {
			return nil, err
		}
		g := &fixtureGen{spec: spec, tool: st}
		for i, in := range ins {
			if requires(st, bs[i], "tab") {
				continue // a step takes no tab of its own: such a call is never a step
			}
			in = clone(in).(*obj).del("tab")
			variants := []string{""}
			variants = append(variants, presentFields(st, bs[i])...)
			for _, f := range variants {
				args := clone(in).(*obj)
				if f != "" {
					if args.has(f) {
						continue
					}
					args.set(f, g.sample(st.Input(f), 0))
				}
				step := newObj()
				step.set("id", "s1")
				step.set("tool", st.Name)
				step.set("arguments", args)
				call := newObj()
				call.set("steps", []any{step})
				row := CapabilityRow{Tool: t.Name, Step: "flow", StepTool: st.Name, Present: f, Input: mustJSON(call)}
				if bs[i] != nil {
					row.StepBranch = bs[i].Name
				}
				row.Capabilities, row.Constraints = needs(spec, st, bs[i], f)
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

// capabilityOrder is the capability enum, in the spec's order.
func capabilityOrder(spec *ir.Spec) []string {
	if e := spec.EnumOf("capability"); e != nil {
		return append([]string{}, e.Strings()...)
	}
	return []string{}
}

// requires reports whether a call of branch b must carry field f.
func requires(t *ir.Tool, b *ir.Branch, f string) bool {
	if in := t.Input(f); in != nil && in.Required {
		return true
	}
	if b != nil {
		for _, r := range b.Required {
			if r == f {
				return true
			}
		}
	}
	return false
}
