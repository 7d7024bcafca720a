// Package governance decides what a call may do. An Authority is an immutable
// snapshot taken when a call starts: restrictions narrow it, nothing widens
// it, and the permanent ceilings hold under every authority.
package governance

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance/policyfile"
)

// Layer is one source of authority, in the order they apply.
type Layer struct {
	Name string // surface.PolicyLayer*: ceiling, organization, user, workspace, command-line, restriction
	// Caps allowed by this layer; AllCaps when it says nothing about them.
	Caps surface.Caps
	// Hosts patterns allowed by this layer; nil allows every host.
	Hosts []string
	// DenyHosts are patterns this layer denies whatever any allow list says.
	DenyHosts []string
	// DenyAddresses are the address rules this layer denies after
	// resolution (hosts.addresses.deny: presets, addresses, CIDRs).
	DenyAddresses []string
	// Constraints this layer denies (e.g. "tab_close").
	DenyConstraints []string
	// Preserve is the preserve-tabs interlock (tabs.preserve: true).
	Preserve bool
	// Monitor: the layer is in monitor mode (mode: "monitor"); its
	// refusals are noted, not made (monitor.go).
	Monitor bool
	// sites are the layer's per-site rules (sites.go).
	sites []siteRule
	// confirms are the layer's confirmations, its site entries' included
	// (confirm.go).
	confirms []confirmRule

	// The layer as written, for file layers and the command line (nil for
	// the ceiling and a call's restriction).
	policy *surface.Policy
	// Source is where the layer came from: a file path, or the flags of the
	// command line. Never part of a model's result.
	Source string
	doc    *policyfile.Document
	flags  map[string]string // command line: pointer → flag
	// compiled is the host and address rules parsed (pattern.go); shared
	// by copies of the layer, never changed once set.
	compiled *layerHosts
}

// AllCaps is every capability.
var AllCaps = surface.CapsOf(stringsOf(surface.CapabilityValues))

func stringsOf(cs []surface.Capability) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// Authority is an immutable snapshot of the layers in force.
type Authority struct {
	layers       []Layer
	startup      string
	isolation    string // browser.isolation in force: a layer's, else the posture's
	organization string
	provenance   string
	// note says the policy on disk is not the one in force (a file became
	// invalid; the last good authority stays), "" otherwise.
	note string
	// gen orders the snapshots a Loader hands out (reloadstate.go); inUse
	// is the startup posture of the running browser, shared by them.
	gen   uint64
	inUse *startupInUse
	// watch collects the call's would-deny decisions (monitor.go); nil
	// outside a call.
	watch *watch
}

// Ceilings are permanent: they hold under every authority, all-open included.
var Ceilings = surface.PolicyCeilings

// Words for an authority nobody configured.
const (
	noOrganization = "none (local)"
	noOrgLayer     = "no organization layer"
)

func ceiling() Layer { return Layer{Name: surface.PolicyLayerCeiling, Caps: AllCaps} }

// AllOpen is the default authority: every capability and host, under the
// permanent ceilings.
func AllOpen(startup string) *Authority {
	return &Authority{layers: []Layer{ceiling()}, startup: startup, isolation: IsolationSession, organization: noOrganization, provenance: noOrgLayer}
}

// New builds an authority from configured layers (under the ceiling).
func New(startup, organization string, layers ...Layer) *Authority {
	layers = append([]Layer(nil), layers...)
	for i := range layers {
		layers[i].compiled = compileHosts(&layers[i])
	}
	return &Authority{layers: append([]Layer{ceiling()}, layers...), startup: startup, isolation: IsolationSession, organization: organization, provenance: noOrgLayer}
}

// Narrow returns the authority with a call's own restrictions applied. It
// never widens: a restriction is one more layer every check must pass.
func (a *Authority) Narrow(r surface.Restrictions) *Authority {
	if r.Hosts == nil && r.Capabilities == nil {
		return a
	}
	l := Layer{Name: surface.PolicyLayerRestriction, Caps: AllCaps, Hosts: r.Hosts}
	l.compiled = compileHosts(&l)
	if r.Capabilities != nil {
		l.Caps = surface.CapsOf(r.Capabilities)
	}
	n := *a
	n.layers = append(append([]Layer(nil), a.layers...), l)
	return &n
}

// Configured is the authority without a call's own restrictions: the
// configured layers a tab stays governed by between calls.
func (a *Authority) Configured() *Authority {
	if len(a.layers) == 0 || a.layers[len(a.layers)-1].Name != surface.PolicyLayerRestriction {
		return a
	}
	n := *a
	n.layers = append([]Layer(nil), a.layers[:len(a.layers)-1]...)
	return &n
}

// Admit checks what a call needs against every layer. It returns nil when the
// call may proceed, else the refusal naming the first thing denied and the
// layer that denied it.
func (a *Authority) Admit(n surface.Needs) *surface.Refusal {
	for _, c := range n.Caps.List() {
		if r := a.AdmitCapability(c); r != nil {
			return r
		}
	}
	for _, c := range n.Constraints {
		if r := a.AdmitConstraint(c); r != nil {
			return r
		}
	}
	for _, u := range n.URLs {
		if r := a.AdmitURL(u); r != nil {
			return r
		}
	}
	return nil
}

// AdmitConstraint checks one policy constraint (tab_close).
func (a *Authority) AdmitConstraint(c string) *surface.Refusal {
	for _, l := range a.layers {
		for _, d := range l.DenyConstraints {
			if d == c {
				if r := a.refuse(l, &surface.Refusal{Reason: surface.ReasonConstraintDenied, Limit: c, Layer: l.Name, Message: "the " + l.Name + " layer denies " + strings.ReplaceAll(c, "_", " ")}); r != nil {
					return r
				}
			}
		}
		if l.Preserve && c == "tab_close" {
			if r := a.refuse(l, &surface.Refusal{Reason: surface.ReasonConstraintDenied, Limit: c, Layer: l.Name, Message: "the " + l.Name + " layer preserves tabs, so none is closed"}); r != nil {
				return r
			}
		}
	}
	return nil
}

// AdmitCapability checks one capability.
func (a *Authority) AdmitCapability(c surface.Capability) *surface.Refusal {
	bit := surface.CapsOf([]string{string(c)})
	for _, l := range a.layers {
		if !l.Caps.Has(bit) {
			if r := a.refuse(l, &surface.Refusal{Reason: surface.ReasonCapabilityDenied, Capability: c, Layer: l.Name, Message: "the " + l.Name + " layer does not allow " + string(c)}); r != nil {
				return r
			}
		}
	}
	return nil
}

// AdmitURL checks a URL the call will reach (a navigation target, or the page
// an action runs on) against the ceilings and every host layer. The URL is
// read as Chromium reads it (host.go), so what is checked is what the
// browser would connect to.
func (a *Authority) AdmitURL(raw string) *surface.Refusal {
	if r := ceilingURL(raw); r != nil { // Ghostlight's own listeners (selfhosts.go)
		return r
	}
	scheme, authority := urlAuthority(raw)
	if (scheme != "http" && scheme != "https") || authority == "" {
		host := ""
		if scheme != "" {
			host = scheme + ":"
		}
		return &surface.Refusal{Reason: surface.ReasonHostDenied, Host: host, Layer: surface.PolicyLayerCeiling, Message: "only http and https pages are reachable"}
	}
	return a.AdmitHost(authority)
}

// AdmitHost checks a host (host or host:port, any spelling) against every
// host layer: any layer's denial refuses it, and every allow list must
// admit it. The host is canonicalized first (CanonicalHost), and the
// refusal names the canonical host; one that is not a host at all is
// refused by the ceiling. An IP address is also held to the address rules
// (AdmitAddr), since no resolution will check it later.
func (a *Authority) AdmitHost(hostport string) *surface.Refusal {
	if r := ceilingHost(hostport); r != nil { // Ghostlight's own listeners (selfhosts.go)
		return r
	}
	h, port, err := splitHostPort(hostport)
	var c chost
	if err == nil {
		c, err = canonicalHost(h)
	}
	if err != nil {
		shown := hostport
		if len(shown) > surface.HostPatternCharsMax {
			shown = shown[:surface.HostPatternCharsMax]
		}
		return &surface.Refusal{Reason: surface.ReasonHostDenied, Host: shown, Layer: surface.PolicyLayerCeiling, Message: "that is not a host a URL can name"}
	}
layers:
	for _, l := range a.layers {
		lh := l.hosts()
		for _, d := range lh.deny {
			if d.p.matches(c, port, true) {
				if r := a.refuse(l, &surface.Refusal{Reason: surface.ReasonHostDenied, Host: c.name, Layer: l.Name, Message: "the " + l.Name + " layer denies " + c.name}); r != nil {
					return r
				}
				continue layers
			}
		}
		if lh.allowAll {
			continue
		}
		ok := false
		for _, p := range lh.allow {
			if p.matches(c, port, false) {
				ok = true
				break
			}
		}
		if !ok {
			if r := a.refuse(l, &surface.Refusal{Reason: surface.ReasonHostDenied, Host: c.name, Layer: l.Name, Message: "the " + l.Name + " layer does not allow " + c.name}); r != nil {
				return r
			}
		}
	}
	if c.kind != hostDomain {
		return a.admitAddr(c.addr, port)
	}
	if isLocalhost(c.name) { // loopback without DNS: no resolution will check it later
		r := a.admitAddr(netip.AddrFrom4([4]byte{127, 0, 0, 1}), port)
		if r != nil {
			r.Host = c.name
		}
		return r
	}
	return nil
}

// Layers returns the layers in force, from the top.
func (a *Authority) Layers() []Layer { return append([]Layer(nil), a.layers...) }

// Startup is the browser startup posture.
func (a *Authority) Startup() string { return a.startup }

// Isolation is browser.isolation in force: "session" (each session its own
// browser context) or "shared" (one profile). Read at server start, as the
// startup posture is.
func (a *Authority) Isolation() string { return a.isolation }

// Organization names who configured the authority.
func (a *Authority) Organization() string { return a.organization }

// Provenance is the organization layer's passport: no organization layer,
// unsigned, or signed and verified (with the key's fingerprint).
func (a *Authority) Provenance() string { return a.provenance }

// Note says when the policy on disk is not the one in force ("" otherwise).
func (a *Authority) Note() string { return a.note }

// Value returns the setting in force at a surface.PolicySettings pointer,
// the layer that decided it ("default" when none sets it) and whether any
// layer sets it. Order settings take the narrowest value written; fixed and
// at-least settings the lowest layer's (already checked not to widen).
func (a *Authority) Value(pointer string) (value any, layer string, set bool) {
	s := settingAt(pointer)
	if s == nil {
		return nil, "", false
	}
	best := -1
	for _, l := range a.layers {
		v, ok := l.policy.Lookup(pointer)
		if !ok {
			continue
		}
		switch s.Narrow {
		case surface.PolicyNarrowOrder:
			if r := rank(s, v); best < 0 || r < best {
				best, value, layer, set = r, v, l.Name, true
			}
		case surface.PolicyNarrowFixed:
			if !set {
				value, layer, set = v, l.Name, true
			}
		default:
			value, layer, set = v, l.Name, true
		}
	}
	if !set {
		return defaultOf(s), "default", false
	}
	return value, layer, true
}

func settingAt(pointer string) *surface.PolicySetting {
	for i := range surface.PolicySettings {
		if surface.PolicySettings[i].Pointer == pointer {
			return &surface.PolicySettings[i]
		}
	}
	return nil
}

func defaultOf(s *surface.PolicySetting) any {
	switch s.Type {
	case "boolean":
		return s.Default == "true"
	case "string":
		if s.Default == "" {
			return nil
		}
		return s.Default
	}
	return nil
}

// rank is a value's place in its setting's order, narrowest first.
func rank(s *surface.PolicySetting, v any) int {
	t := fmt.Sprint(v)
	for i, o := range s.Order {
		if o == t {
			return i
		}
	}
	return len(s.Order)
}

// PreserveTargetNames says whether receipts and refusals may name targets.
func (a *Authority) PreserveTargetNames() bool {
	v, _, _ := a.Value("/privacy/preserve_target_names")
	b, _ := v.(bool)
	return b
}

// AllowsDownloads says whether pages may download files (downloads: allow);
// the default denies them.
func (a *Authority) AllowsDownloads() bool {
	v, _, _ := a.Value("/downloads")
	s, _ := v.(string)
	return s == "allow"
}

// HostRequests is which requests the host rules govern: navigation or all.
func (a *Authority) HostRequests() string {
	v, _, _ := a.Value("/hosts/requests")
	s, _ := v.(string)
	return s
}

// AllRequests reports whether hosts.requests governs every request a page
// makes (its narrow value, "all"), not only navigations.
func (a *Authority) AllRequests() bool { return a.HostRequests() == hostsAll }

// RequestSocketRules are the WebSocket rules a page's requests meet (the
// one host matcher, SocketRules): the layers' when every request is
// governed, none otherwise.
func (a *Authority) RequestSocketRules() []SocketRule {
	if !a.AllRequests() {
		return nil
	}
	return SocketRules(a.Layers())
}

// hostsAll is hosts.requests' narrow value ("all"): the front of its order.
var hostsAll = func() string {
	for _, st := range surface.PolicySettings {
		if st.Pointer == "/hosts/requests" && len(st.Order) > 0 {
			return st.Order[0]
		}
	}
	return ""
}()

// PreserveTabs reports the preserve-tabs interlock.
func (a *Authority) PreserveTabs() bool {
	for _, l := range a.layers {
		if l.Preserve && !l.Monitor {
			return true
		}
	}
	return false
}

// AuditSettings returns the audit path, rotation size and files kept that
// the layers set (zero values where none does: the audit's defaults apply).
func (a *Authority) AuditSettings() (path string, maxBytes, keep int) {
	if v, _, ok := a.Value("/audit/path"); ok {
		path, _ = v.(string)
	}
	if v, _, ok := a.Value("/audit/max_bytes"); ok {
		maxBytes, _ = v.(int)
	}
	if v, _, ok := a.Value("/audit/keep"); ok {
		keep, _ = v.(int)
	}
	return path, maxBytes, keep
}

// ReadRoots returns the upload roots every layer allows: nil when no layer
// sets files.read_roots, else the lowest layer's list (each of its roots
// lies within every higher layer's, as loading checked).
func (a *Authority) ReadRoots() []string {
	v, _, ok := a.Value("/files/read_roots")
	if !ok {
		return nil
	}
	r, _ := v.([]string)
	return append([]string{}, r...)
}

// Digest identifies the configured authority: a stable hash of its layers
// (a call's own restriction layer excluded, so every call under one policy
// carries one digest), startup posture, isolation and organization. The audit records
// it and policy_explain reports it, so a line can be matched to the policy
// in force. Lists are hashed sorted: their order means nothing.
func (a *Authority) Digest() string {
	h := sha256.New()
	fmt.Fprintf(h, "startup=%q\nisolation=%q\norganization=%q\n", a.startup, a.isolation, a.organization)
	for _, l := range a.layers {
		if l.Name == surface.PolicyLayerRestriction {
			continue
		}
		fmt.Fprintf(h, "layer=%q caps=%d hosts=%q deny_hosts=%q deny=%q preserve=%v\n", l.Name, l.Caps, sortedOr(l.Hosts, "*"), sortedOr(l.DenyHosts, ""), sortedOr(l.DenyConstraints, ""), l.Preserve)
		if l.Monitor {
			fmt.Fprintf(h, "  monitor\n")
		}
		for _, s := range surface.PolicySettings {
			v, ok := l.policy.Lookup(s.Pointer)
			if !ok {
				continue
			}
			if list, isList := v.([]string); isList {
				v = sortedOr(list, "")
			}
			b, _ := json.Marshal(v)
			fmt.Fprintf(h, "  %s=%s\n", s.Pointer, b)
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:32]
}

func sortedOr(l []string, none string) string {
	if l == nil {
		return none
	}
	s := append([]string(nil), l...)
	sort.Strings(s)
	return "[" + strings.Join(s, ",") + "]"
}
