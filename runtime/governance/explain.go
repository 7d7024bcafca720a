package governance

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Line is one capability's polarity and the layer that decided it.
type Line struct {
	Capability surface.Capability
	Allowed    bool
	Layer      string
}

// Explain compiles the authority into one line per capability and the rules
// behind them. Layer documents and file paths are never part of it.
func (a *Authority) Explain() (lines []Line, rules []string) {
	for _, c := range surface.CapabilityValues {
		bit := surface.CapsOf([]string{string(c)})
		l := Line{Capability: c, Allowed: true, Layer: "configuration"}
		for _, layer := range a.layers {
			if !layer.Caps.Has(bit) {
				l.Allowed, l.Layer = false, layer.Name
				break
			}
		}
		lines = append(lines, l)
	}
	for _, layer := range a.layers {
		if layer.Hosts != nil {
			rules = append(rules, layer.Name+": hosts limited to "+joinHosts(layer.Hosts))
		}
		for _, c := range layer.DenyConstraints {
			rules = append(rules, layer.Name+": denies "+c)
		}
	}
	return lines, rules
}

func joinHosts(h []string) string {
	out := ""
	for i, x := range h {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
