package governance

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance/policyfile"
)

// Kinds of load problem, for the sentence a model may read (paths and
// layer texts stay with the person).
const (
	problemInvalid   = "is invalid"
	problemWidens    = "widens a higher layer"
	problemSignature = "has a signature problem"
)

// errChanging: a file changed while it was read.
var errChanging = errors.New("a policy file changed while it was read")

// Problem is one reason the layers do not load.
type Problem struct {
	Layer string
	Kind  string
	Msg   string // for a person: names files and lines
}

// LoadError is every problem found; the server refuses to start on one.
type LoadError struct{ Problems []Problem }

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("the policy layers do not load:")
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.Msg)
	}
	return b.String()
}

// modelText says which layers failed and how, without a path.
func (e *LoadError) modelText() string {
	seen := map[string]bool{}
	var parts []string
	for _, p := range e.Problems {
		s := "the " + p.Layer + " layer " + p.Kind
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}

func (l Layer) where(pointer string) string {
	if l.doc != nil {
		return l.doc.Where(pointer)
	}
	if f, ok := l.flags[pointer]; ok {
		return "the command line (" + f + ")"
	}
	return "the " + l.Name + " layer"
}

// load reads every source once: the authority, or every problem found, and
// the stamps of what it read (taken before reading, so a change that races
// the read is seen on the next call).
func load(cfg Config) (*Authority, []stamp, error) {
	paths := []string{}
	for _, f := range cfg.Files {
		paths = append(paths, f.Path)
		if f.Layer == surface.PolicyLayerOrganization {
			paths = append(paths, f.Path+surface.PolicySignatureSuffix)
		}
	}
	if cfg.Key.Path != "" {
		paths = append(paths, cfg.Key.Path)
	}
	stamps := statAll(paths)

	var probs []Problem
	var layers []Layer
	provenance := noOrgLayer
	for _, f := range cfg.Files {
		src, err := os.ReadFile(f.Path)
		if errors.Is(err, fs.ErrNotExist) && !f.Explicit {
			continue
		}
		if err != nil {
			msg := err.Error()
			if errors.Is(err, fs.ErrNotExist) {
				msg = fmt.Sprintf("%s names %s, which does not exist", envOf(f.Layer), f.Path)
			}
			probs = append(probs, Problem{Layer: f.Layer, Kind: problemInvalid, Msg: msg})
			continue
		}
		// The signature covers the bytes, so it is checked before they are
		// read as policy: a tampered file is reported as tampered.
		if f.Layer == surface.PolicyLayerOrganization {
			pv, p := verify(f, src, cfg.Key)
			if p != nil {
				probs = append(probs, *p)
				continue
			}
			provenance = pv
		}
		l, p := parseLayer(f, src)
		if p != nil {
			probs = append(probs, *p)
			continue
		}
		layers = append(layers, l)
	}
	if cl, p := commandLine(cfg.CommandLine); p != nil {
		probs = append(probs, *p)
	} else if cl != nil {
		layers = append(layers, *cl)
	}
	// A file that changed while it was read may be half-written: read it
	// again on the next call rather than judge it.
	if changed(stamps) {
		return nil, stamps, errChanging
	}
	if probs == nil {
		probs = checkNarrowing(layers)
	}
	if probs != nil {
		return nil, stamps, &LoadError{Problems: probs}
	}
	a := &Authority{layers: append([]Layer{ceiling()}, layers...), provenance: provenance, organization: noOrganization}
	a.startup = cfg.DefaultStartup
	if v, _, ok := a.Value("/browser/startup"); ok {
		a.startup = v.(string)
	}
	if a.startup == "" {
		a.startup = DefaultStartup()
	}
	a.isolation = PostureIsolation(a.startup, cfg.Endpoint)
	if v, _, ok := a.Value("/browser/isolation"); ok {
		a.isolation = v.(string)
	}
	for _, l := range layers {
		if l.Name == surface.PolicyLayerOrganization {
			a.organization = orgName(l.policy)
		}
	}
	return a, stamps, nil
}

// DefaultStartup is browser.startup when no layer sets it.
func DefaultStartup() string { return settingAt("/browser/startup").Default }

// Isolation values (spec/policy.cue, browser.isolation).
const (
	IsolationSession = "session"
	IsolationShared  = "shared"
)

// PostureIsolation is browser.isolation when no layer sets it: shared for a
// browser the person opened prepared for Ghostlight (startup connect or
// manual with no endpoint configured: the person's own desktop browser),
// the schema default (session) for every other browser. A layer that sets
// it decides instead, and a lower layer may not widen session to shared.
func PostureIsolation(startup string, endpoint bool) string {
	if !endpoint && (startup == "connect" || startup == "manual") {
		return IsolationShared
	}
	return settingAt("/browser/isolation").Default
}

func envOf(layer string) string {
	for _, l := range surface.PolicyLayers {
		if l.Name == layer {
			return l.Env
		}
	}
	return layer
}

func orgName(p *surface.Policy) string {
	if p.Organization == nil || p.Organization.Name == "" && p.Organization.ID == "" {
		return "unnamed organization"
	}
	switch {
	case p.Organization.Name == "":
		return p.Organization.ID
	case p.Organization.ID == "":
		return p.Organization.Name
	}
	return p.Organization.Name + " (" + p.Organization.ID + ")"
}

// parseLayer reads one file: the data subset, then the generated decoder,
// whose JSON Pointer errors are placed back on the file's lines.
func parseLayer(f File, src []byte) (Layer, *Problem) {
	doc, err := policyfile.Parse(f.Path, src)
	if err != nil {
		return Layer{}, &Problem{Layer: f.Layer, Kind: problemInvalid, Msg: err.Error()}
	}
	p, derr := surface.DecodePolicy(doc.JSON)
	if derr != nil {
		return Layer{}, &Problem{Layer: f.Layer, Kind: problemInvalid, Msg: fmt.Sprintf("%s: %s (%s)", doc.Where(derr.Pointer), derr.Message, dotted(derr.Pointer))}
	}
	if p := checkHostRules(p, doc); p != "" {
		return Layer{}, &Problem{Layer: f.Layer, Kind: problemInvalid, Msg: p}
	}
	l := compile(f.Layer, p)
	l.Source, l.doc = f.Path, doc
	return l, nil
}

// checkHostRules parses every host pattern and address rule of a decoded
// layer (the decoder checked their characters only), naming the file and
// line of the first that does not parse.
func checkHostRules(p *surface.Policy, doc *policyfile.Document) string {
	if v, ok := p.Lookup("/sites"); ok {
		for k := range v.(map[string]*surface.PolicySitesValue) {
			if _, err := parsePattern(k); err != nil {
				ptr := "/sites/" + k
				return fmt.Sprintf("%s: %v (%s)", doc.Where(ptr), err, dotted(ptr))
			}
		}
	}
	for _, at := range []string{"/hosts/allow", "/hosts/deny", "/hosts/addresses/deny", "/data_flow/allow"} {
		v, ok := p.Lookup(at)
		if !ok {
			continue
		}
		for i, s := range v.([]string) {
			var err error
			switch at {
			case "/hosts/addresses/deny":
				_, err = parseAddressRule(s)
			case "/data_flow/allow":
				_, err = parseFlowException(s)
			default:
				_, err = parsePattern(s)
			}
			if err != nil {
				ptr := fmt.Sprintf("%s/%d", at, i)
				return fmt.Sprintf("%s: %v (%s)", doc.Where(ptr), err, dotted(ptr))
			}
		}
	}
	return ""
}

func dotted(pointer string) string {
	s := strings.ReplaceAll(strings.TrimPrefix(pointer, "/"), "/", ".")
	if s == "" {
		return "the layer"
	}
	return s
}

// commandLine builds the command-line layer through the same decoder, so
// a bad --startup is refused as a bad browser.startup would be.
func commandLine(c CommandLine) (*Layer, *Problem) {
	m := map[string]any{}
	flags := map[string]string{}
	if c.WithholdTargetNames {
		m["privacy"] = map[string]any{"preserve_target_names": false}
		flags["/privacy/preserve_target_names"] = "--withhold-target-names"
	}
	if c.Startup != "" {
		m["browser"] = map[string]any{"startup": c.Startup}
		flags["/browser/startup"] = "--startup " + c.Startup
	}
	if c.AllowDownloads {
		m["downloads"] = "allow"
		flags["/downloads"] = "--allow-downloads"
	}
	if len(m) == 0 {
		return nil, nil
	}
	raw, _ := json.Marshal(m)
	p, derr := surface.DecodePolicy(raw)
	if derr != nil {
		return nil, &Problem{Layer: surface.PolicyLayerCommandLine, Kind: problemInvalid, Msg: "the command line: " + derr.Message}
	}
	l := compile(surface.PolicyLayerCommandLine, p)
	l.flags = flags
	l.Source = "command line"
	return &l, nil
}

// compile turns a decoded layer into the checks Admit runs.
func compile(name string, p *surface.Policy) Layer {
	l := Layer{Name: name, Caps: AllCaps, policy: p}
	for _, c := range surface.CapabilityValues {
		if v, ok := p.Lookup("/capabilities/" + string(c)); ok && v == "deny" {
			l.Caps &^= surface.CapsOf([]string{string(c)})
		}
	}
	if v, ok := p.Lookup("/hosts/allow"); ok {
		l.Hosts = canonicalPatterns(v.([]string))
	}
	if v, ok := p.Lookup("/hosts/deny"); ok {
		l.DenyHosts = canonicalPatterns(v.([]string))
	}
	if v, ok := p.Lookup("/hosts/addresses/deny"); ok {
		l.DenyAddresses = v.([]string)
	}
	l.compiled = compileHosts(&l)
	if v, ok := p.Lookup("/tabs/close"); ok && v == "deny" {
		l.DenyConstraints = []string{"tab_close"}
	}
	if v, ok := p.Lookup("/tabs/preserve"); ok {
		l.Preserve = v.(bool)
	}
	if v, ok := p.Lookup("/mode"); ok && v == "monitor" {
		l.Monitor = true
	}
	l.sites = compileSites(p)
	l.confirms = confirmRules(l) // confirm.go
	return l
}

// canonicalPatterns stores a layer's host patterns in canonical form
// ("2130706434" as "127.0.0.2", "[::1]" as written, "::1" as "[::1]"), so
// explanations and digests say one thing for one host. A pattern that does
// not parse stays as written (loading refused it already).
func canonicalPatterns(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p
		if c, err := CanonicalPattern(p); err == nil {
			out[i] = c
		}
	}
	return out
}

// verify checks the organization layer's signature against the pinned key.
func verify(f File, src []byte, key Key) (string, *Problem) {
	bad := func(format string, a ...any) (string, *Problem) {
		return "", &Problem{Layer: f.Layer, Kind: problemSignature, Msg: fmt.Sprintf(format, a...)}
	}
	sigPath := f.Path + surface.PolicySignatureSuffix
	sigRaw, sigErr := os.ReadFile(sigPath)
	if sigErr != nil && !errors.Is(sigErr, fs.ErrNotExist) {
		return bad("%s: %v", sigPath, sigErr)
	}
	var pub ed25519.PublicKey
	if key.Path != "" {
		kb, err := os.ReadFile(key.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !key.Explicit:
		case errors.Is(err, fs.ErrNotExist):
			return bad("%s names %s, which does not exist", surface.PolicyOrgKeyEnv, key.Path)
		case err != nil:
			return bad("%s: %v", key.Path, err)
		default:
			if pub, err = parseKey(kb); err != nil {
				return bad("%s: %v", key.Path, err)
			}
		}
	}
	switch {
	case sigErr != nil && pub == nil:
		return "unsigned", nil
	case sigErr != nil:
		return bad("the installation pins an organization key (%s), but %s has no signature (%s)", key.Path, f.Path, sigPath)
	case pub == nil:
		return bad("signature invalid: %s is signed, but the installation pins no key to verify it (%s or env %s)", f.Path, surface.PolicyOrgKeyPath, surface.PolicyOrgKeyEnv)
	}
	sig, err := parseSignature(sigRaw)
	if err != nil {
		return bad("signature invalid: %s: %v", sigPath, err)
	}
	if !ed25519.Verify(pub, src, sig) {
		return bad("signature invalid: %s does not verify %s with the pinned key %s", sigPath, f.Path, Fingerprint(pub))
	}
	return "signed and verified (key " + Fingerprint(pub) + ")", nil
}
