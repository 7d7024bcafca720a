package governance

import "github.com/ghostlight-dev/ghostlight/generated/surface"

// Advertises reports whether a tools list should name the tool under this
// authority: some way of calling it (surface.Tool.MinCaps) needs only
// capabilities every layer allows. Hosts and constraints are left to the
// call, which is checked in full whatever the list says.
func (a *Authority) Advertises(t *surface.Tool) bool {
	for _, need := range t.MinCaps {
		ok := true
		for _, l := range a.layers {
			if !l.Caps.Has(need) && !l.Monitor { // a monitor layer hides nothing
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return len(t.MinCaps) == 0
}

// Advertised names the catalog's tools this authority advertises, in
// catalog order.
func (a *Authority) Advertised() []string {
	var out []string
	for _, t := range surface.Catalog {
		if a.Advertises(t) {
			out = append(out, t.Name)
		}
	}
	return out
}
