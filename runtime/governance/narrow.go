package governance

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// checkNarrowing holds every configured layer to the rule that a lower
// layer only narrows: it walks the generated settings table, so a new
// setting in spec/policy.cue is checked by the rule its @policy says.
func checkNarrowing(layers []Layer) []Problem {
	var out []Problem
	for i, lo := range layers {
		for _, s := range surface.PolicySettings {
			v, ok := lo.policy.Lookup(s.Pointer)
			if !ok {
				continue
			}
			if s.Layer != "" && lo.Name != s.Layer {
				out = append(out, Problem{Layer: lo.Name, Kind: problemInvalid, Msg: fmt.Sprintf("%s: %s may be set only in the %s layer, not the %s layer", lo.where(s.Pointer), s.Key, s.Layer, lo.Name)})
				continue
			}
			for _, hi := range layers[:i] {
				out = append(out, widening(s, hi, lo, v)...)
			}
		}
	}
	return out
}

func widening(s surface.PolicySetting, hi, lo Layer, v any) []Problem {
	widen := func(format string, a ...any) Problem {
		return Problem{Layer: lo.Name, Kind: problemWidens, Msg: fmt.Sprintf("the %s layer widens %s: %s; a lower layer may only narrow", lo.Name, s.Key, fmt.Sprintf(format, a...))}
	}
	var out []Problem
	hv, hok := hi.policy.Lookup(s.Pointer)
	if s.Pointer == auditRequiredPointer {
		hv, hok = impliedAuditRequired(hi) // auditrequired.go
	}
	switch s.Narrow {
	case surface.PolicyNarrowOrder:
		if hok && rank(&s, v) > rank(&s, hv) {
			out = append(out, widen("%s at %s under %s at %s", lit(v), lo.where(s.Pointer), lit(hv), hi.where(s.Pointer)))
		}
	case surface.PolicyNarrowFixed:
		if hok && fmt.Sprint(v) != fmt.Sprint(hv) {
			out = append(out, widen("%s at %s differs from %s at %s", lit(v), lo.where(s.Pointer), lit(hv), hi.where(s.Pointer)))
		}
	case surface.PolicyNarrowAtLeast:
		if hok && v.(int) < hv.(int) {
			out = append(out, widen("%v at %s is below %v at %s", v, lo.where(s.Pointer), hv, hi.where(s.Pointer)))
		}
	case surface.PolicyNarrowWithin:
		items := v.([]string)
		within := pathWithin
		switch {
		case strings.HasPrefix(s.Pointer, "/hosts/"):
			within = hostWithin
		case s.Pointer == "/data_flow/allow":
			within = flowWithin
		}
		if hok {
			for k, it := range items {
				if !anyWithin(within, it, hv.([]string)) {
					out = append(out, widen("%q at %s lies outside the list at %s", it, lo.where(fmt.Sprintf("%s/%d", s.Pointer, k)), hi.where(s.Pointer)))
				}
			}
		}
		// An allow that a higher layer's denial covers would never hold.
		if s.Pointer == "/hosts/allow" {
			if d, ok := hi.policy.Lookup("/hosts/deny"); ok {
				for k, it := range items {
					for j, p := range d.([]string) {
						if hostWithin(it, p) {
							out = append(out, widen("%q at %s is denied by %q at %s", it, lo.where(fmt.Sprintf("%s/%d", s.Pointer, k)), p, hi.where(fmt.Sprintf("/hosts/deny/%d", j))))
						}
					}
				}
			}
		}
	}
	return out
}

// lit writes a value as the layer file would.
func lit(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func anyWithin(within func(a, b string) bool, item string, list []string) bool {
	for _, b := range list {
		if within(item, b) {
			return true
		}
	}
	return false
}

// pathWithin reports whether directory a lies inside directory b (as
// written: uploads resolve symlinks before their own check).
func pathWithin(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	if a == b || b == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(a, b+string(filepath.Separator))
}
