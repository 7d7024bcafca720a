package governance

import (
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Layer names an explanation uses beside the configured layers.
const (
	// LayerDefault decided a value no layer sets: the schema default.
	LayerDefault = "default"
)

// Explain compiles the authority into the one projection policy_explain
// returns and `ghostlight explain` prints: layer texts and file paths are
// never part of it (Render adds locations for a person).
func (a *Authority) Explain() *surface.PolicyExplainFacts {
	f := &surface.PolicyExplainFacts{
		Ceilings:     append([]string(nil), Ceilings...),
		Organization: a.organization,
		Provenance:   a.provenance,
		Digest:       a.Digest(),
		Note:         a.explainNote(),
		Startup:      a.startup,
	}
	for _, l := range a.layers {
		f.Layers = append(f.Layers, l.Name)
	}
	var denied []string
	for _, c := range surface.CapabilityValues {
		line := &surface.CapabilityLine{Capability: c, Allowed: true, Layer: LayerDefault}
		line.Layer, line.Allowed = a.capabilityDecider(c)
		line.DeniedOn = a.deniedOn(c) // sites.go: where it differs
		if !line.Allowed {
			denied = append(denied, string(c))
		}
		f.Capabilities = append(f.Capabilities, line)
	}
	f.Confirm = a.Confirmations() // confirm.go
	if len(f.Confirm) > surface.ExplainConfirmationsMax {
		f.Confirm = f.Confirm[:surface.ExplainConfirmationsMax]
	}
	limited, deniedHosts, deniedAddrs := false, 0, 0
	for _, l := range a.layers {
		if l.Hosts != nil {
			rule := "allow"
			if l.Name == surface.PolicyLayerRestriction {
				rule = "restrict"
			}
			f.Hosts = append(f.Hosts, &surface.PolicyRuleLine{Rule: rule, Value: patterns(l.Hosts), Layer: l.Name})
			limited = true
		}
		if l.DenyHosts != nil {
			f.Hosts = append(f.Hosts, &surface.PolicyRuleLine{Rule: "deny", Value: patterns(l.DenyHosts), Layer: l.Name})
			deniedHosts += len(l.DenyHosts)
		}
		if l.DenyAddresses != nil {
			f.Hosts = append(f.Hosts, &surface.PolicyRuleLine{Rule: "addresses", Value: addressText(l.DenyAddresses), Layer: l.Name})
			deniedAddrs += len(l.DenyAddresses)
		}
	}
	req, reqLayer, _ := a.Value("/hosts/requests")
	f.Hosts = append(f.Hosts, &surface.PolicyRuleLine{Rule: "requests", Value: fmt.Sprint(req), Layer: reqLayer})

	closeLine := &surface.PolicyConstraintLine{Constraint: "tab_close", Value: "allowed", Layer: LayerDefault}
	preserveLine := &surface.PolicyConstraintLine{Constraint: "preserve_tabs", Value: "off", Layer: LayerDefault}
	for _, l := range a.layers {
		if closeLine.Value == "allowed" && contains(l.DenyConstraints, "tab_close") {
			closeLine.Value, closeLine.Layer = "denied", l.Name
		}
		if preserveLine.Value == "off" && l.Preserve {
			preserveLine.Value, preserveLine.Layer = "on", l.Name
		}
	}
	if closeLine.Layer == LayerDefault {
		if _, layer, ok := a.Value("/tabs/close"); ok {
			closeLine.Layer = layer
		}
	}
	if preserveLine.Layer == LayerDefault {
		if _, layer, ok := a.Value("/tabs/preserve"); ok {
			preserveLine.Layer = layer
		}
	}
	f.Constraints = []*surface.PolicyConstraintLine{closeLine, preserveLine}

	// Authored settings: privacy always (it changes every receipt) and
	// isolation always (whether other sessions share this one's cookies; its
	// default depends on the startup posture), downloads always (whether a
	// page's download is refused), what uploads may read always (roots,
	// dotfiles, hard links; each layer's exclusions), then every other
	// setting some layer writes that no line above says.
	for _, s := range surface.PolicySettings {
		switch {
		case strings.HasPrefix(s.Pointer, "/capabilities/"), strings.HasPrefix(s.Pointer, "/hosts/"), strings.HasPrefix(s.Pointer, "/tabs/"),
			s.Pointer == "/browser/startup", strings.HasPrefix(s.Pointer, "/organization/"):
			continue
		}
		v, layer, set := a.Value(s.Pointer)
		if s.Pointer == "/browser/isolation" && !set {
			v = a.isolation
		}
		if s.Pointer == auditRequiredPointer { // listed when in force, implied by audit.path too
			r, l := a.AuditRequired()
			v, layer, set = r, l, set || r
		}
		if s.Pointer == "/files/exclude" {
			// Every layer's globs apply: one line each.
			for _, l := range a.ExcludeLists() {
				f.Settings = append(f.Settings, &surface.PolicySettingLine{Key: s.Key, Value: patterns(l.Globs), Layer: l.Layer})
			}
			continue
		}
		if s.Pointer == "/sites" { // said per capability (denied_on) and in the situation
			continue
		}
		if s.Pointer == "/mode" {
			// Each layer's mode is its own: one line per layer that sets it.
			for _, l := range a.layers {
				if m, ok := l.policy.Lookup("/mode"); ok {
					f.Settings = append(f.Settings, &surface.PolicySettingLine{Key: s.Key, Value: valueText(m), Layer: l.Name})
				}
			}
			continue
		}
		if s.Pointer == "/files/read_roots" && !set {
			// What an upload may read is always said, the roots first.
			f.Settings = append(f.Settings, &surface.PolicySettingLine{Key: s.Key, Value: "(unset: the client's MCP roots, else the server's working directory)", Layer: LayerDefault})
			continue
		}
		if !set && s.Pointer != "/privacy/preserve_target_names" && s.Pointer != "/browser/isolation" && s.Pointer != "/downloads" &&
			s.Pointer != "/files/dotfiles" && s.Pointer != "/files/hard_links" {
			continue
		}
		f.Settings = append(f.Settings, &surface.PolicySettingLine{Key: s.Key, Value: valueText(v), Layer: layer})
	}
	if _, layer, ok := a.Value("/browser/startup"); ok {
		f.StartupLayer = layer
	} else {
		f.StartupLayer = LayerDefault
	}

	var parts []string
	switch len(denied) {
	case 0:
		parts = append(parts, fmt.Sprintf("all %d capabilities are allowed", len(f.Capabilities)))
	case 1:
		parts = append(parts, fmt.Sprintf("1 of %d capabilities is denied (%s)", len(f.Capabilities), denied[0]))
	default:
		parts = append(parts, fmt.Sprintf("%d of %d capabilities are denied (%s)", len(denied), len(f.Capabilities), strings.Join(denied, ", ")))
	}
	switch {
	case limited && deniedHosts > 0:
		parts = append(parts, "only allowed hosts that no layer denies are reachable")
	case limited:
		parts = append(parts, "only allowed hosts are reachable")
	case deniedHosts > 0:
		parts = append(parts, fmt.Sprintf("every http(s) host but %s is reachable", plural(deniedHosts, "denied pattern", "denied patterns")))
	default:
		parts = append(parts, "every http(s) host is reachable")
	}
	if deniedAddrs > 0 {
		parts = append(parts, "no connection reaches an address the address rules deny, whatever name resolves there")
	}
	if closeLine.Value == "denied" || preserveLine.Value == "on" {
		parts = append(parts, "no tab may be closed")
	}
	var siteLines []string
	for _, c := range f.Capabilities {
		if c.Allowed && len(c.DeniedOn) > 0 {
			siteLines = append(siteLines, string(c.Capability)+" is denied on pages of "+strings.Join(c.DeniedOn, ", "))
		}
	}
	if len(siteLines) > 0 {
		parts = append(parts, strings.Join(siteLines, "; "))
	}
	if n := len(a.Confirmations()); n > 0 {
		parts = append(parts, plural(n, "confirmation waits", "confirmations wait")+" for the user (see confirm)")
	}
	if m := a.Monitored(); len(m) > 0 {
		which, they := "layer is", "it"
		if len(m) > 1 {
			which, they = "layers are", "they"
		}
		parts = append(parts, "the "+strings.Join(m, " and ")+" "+which+" in monitor mode (what "+they+" would refuse is audited as would_deny, and the call proceeds)")
	}
	s := parts[0]
	if len(parts) > 1 {
		s = strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	f.Situation = "Under the permanent ceilings, " + s + "."
	return f
}

// capabilityDecider is the layer that decided a capability: the topmost
// layer that denies it, else the topmost that writes allow, else default.
func (a *Authority) capabilityDecider(c surface.Capability) (string, bool) {
	bit := surface.CapsOf([]string{string(c)})
	for _, l := range a.layers {
		if !l.Caps.Has(bit) && !l.Monitor { // a monitor layer's denial is not made
			return l.Name, false
		}
	}
	for _, l := range a.layers {
		if _, ok := l.policy.Lookup("/capabilities/" + string(c)); ok {
			return l.Name, true
		}
	}
	return LayerDefault, true
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func patterns(l []string) string {
	if len(l) == 0 {
		return "(none)"
	}
	return strings.Join(l, ", ")
}

// addressText lists address rules with each preset's ranges, so an
// explanation says which addresses a name stands for.
func addressText(rules []string) string {
	var out []string
	for _, r := range rules {
		s := r
		for _, p := range surface.PolicyAddressPresets {
			if p.Name == r {
				s += " (" + strings.Join(p.CIDRs, ", ") + ")"
			}
		}
		out = append(out, s)
	}
	return "deny " + patterns(out)
}

func valueText(v any) string {
	switch x := v.(type) {
	case []string:
		return patterns(x)
	case nil:
		return "(unset)"
	}
	return fmt.Sprint(v)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Where locates a line of the explanation for a person: the file, line and
// column (or the flag) of the layer that decided it, "" when no file did.
type Where func(layer, pointer string) string

// Locate returns the person's locator for this authority.
func (a *Authority) Locate() Where {
	return func(layer, pointer string) string {
		for _, l := range a.layers {
			if l.Name != layer || (l.doc == nil && l.flags == nil) {
				continue
			}
			if l.flags != nil {
				return l.flags[pointer]
			}
			if _, ok := l.policy.Lookup(pointer); ok {
				return l.doc.Where(pointer)
			}
			return l.Source
		}
		return ""
	}
}

// Files lists the file of each layer in force (for a person only).
func (a *Authority) Files() [][2]string {
	var out [][2]string
	for _, l := range a.layers {
		if l.doc != nil {
			out = append(out, [2]string{l.Name, l.Source})
		}
	}
	return out
}

// Render prints an explanation line by line. With a nil where it is the
// model's text, exactly; with a locator each line that a file decided
// ends in "  [file:line:col]". Every fact appears, so what a person reads
// and what a model is told cannot drift apart.
func Render(f *surface.PolicyExplainFacts, where Where) []string {
	var out []string
	add := func(layer, pointer, format string, a ...any) {
		s := fmt.Sprintf(format, a...)
		if where != nil && pointer != "" {
			if w := where(layer, pointer); w != "" {
				s += "  [" + w + "]"
			}
		}
		out = append(out, s)
	}
	add("", "", "situation: %s", f.Situation)
	for _, c := range f.Capabilities {
		pol := "allowed"
		if !c.Allowed {
			pol = "denied"
		}
		add(c.Layer, "/capabilities/"+string(c.Capability), "capability %s: %s (%s)", c.Capability, pol, c.Layer)
		if len(c.DeniedOn) > 0 {
			add("", "", "capability %s: denied on pages of %s", c.Capability, strings.Join(c.DeniedOn, ", "))
		}
	}
	for _, c := range f.Confirm {
		add("", "", "confirm: %s", c)
	}
	for _, h := range f.Hosts {
		ptr := "/hosts/" + h.Rule
		switch h.Rule {
		case "restrict":
			ptr = ""
		case "addresses":
			ptr = "/hosts/addresses/deny"
		}
		add(h.Layer, ptr, "hosts %s: %s (%s)", h.Rule, h.Value, h.Layer)
	}
	for _, c := range f.Constraints {
		ptr := "/tabs/close"
		if c.Constraint == "preserve_tabs" {
			ptr = "/tabs/preserve"
		}
		add(c.Layer, ptr, "constraint %s: %s (%s)", c.Constraint, c.Value, c.Layer)
	}
	for _, s := range f.Settings {
		add(s.Layer, "/"+strings.ReplaceAll(s.Key, ".", "/"), "setting %s: %s (%s)", s.Key, s.Value, s.Layer)
	}
	for _, c := range f.Ceilings {
		add("", "", "ceiling: %s", c)
	}
	add(f.StartupLayer, "/browser/startup", "startup: %s (%s)", f.Startup, f.StartupLayer)
	add(surface.PolicyLayerOrganization, "/organization/name", "organization: %s", f.Organization)
	add("", "", "provenance: %s", f.Provenance)
	add("", "", "digest: %s", f.Digest)
	add("", "", "layers in force: %s", strings.Join(f.Layers, ", "))
	if f.Note != "" {
		add("", "", "note: %s", f.Note)
	}
	return out
}
