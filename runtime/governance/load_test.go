package governance

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// layers writes org, user and workspace files (empty text: no file) and
// returns the loader config for them.
func layers(t *testing.T, org, user, ws string) (Config, [3]string) {
	t.Helper()
	dir := t.TempDir()
	var paths [3]string
	var cfg Config
	for i, l := range []struct{ name, src string }{{"organization", org}, {"user", user}, {"workspace", ws}} {
		paths[i] = filepath.Join(dir, l.name+".cue")
		if l.src != "" {
			if err := os.WriteFile(paths[i], []byte(l.src), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		cfg.Files = append(cfg.Files, File{Layer: l.name, Path: paths[i]})
	}
	return cfg, paths
}

func mustLoad(t *testing.T, cfg Config) *Authority {
	t.Helper()
	a, _, err := load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func loadErr(t *testing.T, cfg Config, wants ...string) {
	t.Helper()
	_, _, err := load(cfg)
	if err == nil {
		t.Fatalf("loaded; want an error containing %q", wants)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

func TestOneLineLayer(t *testing.T) {
	cfg, _ := layers(t, "", `capabilities: execute: "deny"`, "")
	a := mustLoad(t, cfg)
	if r := a.Admit(surface.Needs{Caps: surface.CapExecute}); r == nil || r.Reason != surface.ReasonCapabilityDenied || !strings.Contains(r.Message, "user layer") {
		t.Fatalf("execute under a user deny: %+v", r)
	}
	if r := a.Admit(surface.Needs{Caps: surface.CapRead | surface.CapAction | surface.CapWrite}); r != nil {
		t.Fatalf("other capabilities refused: %+v", r)
	}
	if got := strings.Join(a.Explain().Layers, ","); got != "ceiling,user" {
		t.Errorf("layers in force %s", got)
	}
}

// TestLayerErrorsNameFileAndLine: syntax, unknown keys, types and enums
// are load errors at file:line:col.
func TestLayerErrorsNameFileAndLine(t *testing.T) {
	cases := []struct{ src, want string }{
		{"package p\n\ncapabilities: {\n\treed: \"deny\"\n}\n", ":4:2: unknown field \"reed\" (capabilities.reed)"},
		{"tabs: preserve: \"yes\"", ":1:7: preserve must be a boolean, not a string (tabs.preserve)"},
		{"capabilities: write: \"maybe\"", ":1:15: write must be one of allow, deny (capabilities.write)"},
		{"hosts: allow: [\"ok.example\", \"bad host\"]", ":1:30: allow[1] must be a host, an IP address or *.domain, each with an optional :port (hosts.allow.1)"},
		{"audit: keep: 0", ":1:8: keep must be at least 1 (audit.keep)"},
		{"capabilities: read: deny", ":1:21: \"deny\" is a reference"},
		{"nonsense: 1", ":1:1: unknown field \"nonsense\""},
	}
	for _, c := range cases {
		cfg, p := layers(t, "", "", c.src)
		loadErr(t, cfg, p[2]+c.want)
	}
}

func TestWideningIsRefusedNamingBothFiles(t *testing.T) {
	type tc struct{ org, user, ws string }
	for _, c := range []tc{
		{org: "capabilities: execute: \"deny\"\n", user: "capabilities: execute: \"allow\"\n"},
		{org: "hosts: allow: [\"*.acme.test\", \"127.0.0.1\"]", user: "hosts: allow: [\"a.acme.test\", \"other.test\"]"},
		{org: "hosts: deny: [\"evil.acme.test\"]", ws: "hosts: allow: [\"evil.acme.test:8080\"]"},
		{org: "tabs: preserve: true", ws: "tabs: preserve: false"},
		{org: "tabs: close: \"deny\"", user: "tabs: close: \"allow\""},
		{org: "privacy: preserve_target_names: false", user: "privacy: preserve_target_names: true"},
		{org: "browser: startup: \"connect\"", ws: "browser: startup: \"auto\""},
		{org: "hosts: requests: \"all\"", user: "hosts: requests: \"navigation\""},
		{org: "audit: path: \"/var/log/gl.jsonl\"", user: "audit: path: \"/tmp/mine.jsonl\""},
		{org: "audit: keep: 10", ws: "audit: keep: 2"},
		{org: "files: read_roots: [\"/srv/share\"]", user: "files: read_roots: [\"/srv\"]"},
		{user: "capabilities: write: \"deny\"", ws: "capabilities: write: \"allow\""},
	} {
		cfg, p := layers(t, c.org, c.user, c.ws)
		lo, hi := p[1], p[0]
		if c.ws != "" {
			lo = p[2]
		}
		if c.org == "" {
			hi = p[1]
		}
		loadErr(t, cfg, "widens", lo+":1:", hi+":1:")
	}
}

func TestNarrowingLoads(t *testing.T) {
	cfg, _ := layers(t,
		"organization: {name: \"Acme\", id: \"acme\"}\ncapabilities: execute: \"deny\"\nhosts: allow: [\"*.acme.test\", \"127.0.0.1\"]\nhosts: deny: [\"admin.acme.test\"]\naudit: keep: 5\n",
		"capabilities: execute: \"deny\"\ncapabilities: write: \"deny\"\nhosts: allow: [\"docs.acme.test\", \"*.dev.acme.test\", \"127.0.0.1:8080\"]\nprivacy: preserve_target_names: false\naudit: keep: 9\n",
		"tabs: preserve: true\nhosts: requests: \"all\"\nbrowser: startup: \"manual\"\n")
	a := mustLoad(t, cfg)
	if a.Organization() != "Acme (acme)" || a.Startup() != "manual" || a.PreserveTargetNames() || !a.PreserveTabs() || a.HostRequests() != "all" {
		t.Fatalf("settings: org %q startup %q names %v preserve %v requests %q", a.Organization(), a.Startup(), a.PreserveTargetNames(), a.PreserveTabs(), a.HostRequests())
	}
	if _, _, keep := a.AuditSettings(); keep != 9 {
		t.Errorf("audit.keep %d, want the lower layer's raise to 9", keep)
	}
	for u, ok := range map[string]bool{
		"http://docs.acme.test/": true, "http://x.dev.acme.test/": true, "http://127.0.0.1:8080/": true,
		"http://127.0.0.1:9090/": false, "http://www.acme.test/": false, "http://admin.acme.test/": false, "http://other.test/": false,
	} {
		if r := a.AdmitURL(u); (r == nil) != ok {
			t.Errorf("%s: admitted %v, want %v (%+v)", u, r == nil, ok, r)
		}
	}
	if r := a.Admit(surface.Needs{Caps: surface.CapAction, Constraints: []string{"tab_close"}}); r == nil || !strings.Contains(r.Message, "workspace layer preserves tabs") {
		t.Errorf("tab close under preserve: %+v", r)
	}
	if r := a.AdmitCapability(surface.CapabilityExecute); r == nil || !strings.Contains(r.Message, "organization layer") {
		t.Errorf("execute decided by %+v, want the organization (the topmost denial)", r)
	}
}

func TestOrganizationOnlyInItsLayer(t *testing.T) {
	cfg, p := layers(t, "", "organization: name: \"Me\"", "")
	loadErr(t, cfg, p[1]+":1:15: organization.name may be set only in the organization layer")
}

func TestCommandLineLayer(t *testing.T) {
	cfg, p := layers(t, "browser: startup: \"connect\"", "", "")
	cfg.CommandLine = CommandLine{Startup: "auto"}
	loadErr(t, cfg, "the command-line layer widens browser.startup", "the command line (--startup auto)", p[0]+":1:10")
	cfg.CommandLine = CommandLine{Startup: "manual", WithholdTargetNames: true}
	a := mustLoad(t, cfg)
	if a.Startup() != "manual" || a.PreserveTargetNames() {
		t.Fatalf("command line not applied: %q %v", a.Startup(), a.PreserveTargetNames())
	}
	cfg.CommandLine = CommandLine{Startup: "sometimes"}
	loadErr(t, cfg, "the command line: startup must be one of auto, connect, manual")
	// Under privacy false, the flag repeats it: fine. No layers at all: the
	// default startup applies.
	cfg, _ = layers(t, "privacy: preserve_target_names: false", "", "")
	cfg.CommandLine, cfg.DefaultStartup = CommandLine{WithholdTargetNames: true}, "connect"
	if a := mustLoad(t, cfg); a.Startup() != "connect" || a.PreserveTargetNames() {
		t.Fatalf("startup %q names %v", a.Startup(), a.PreserveTargetNames())
	}
}

func TestMissingFiles(t *testing.T) {
	cfg, p := layers(t, "", "", "")
	if a := mustLoad(t, cfg); len(a.Layers()) != 1 {
		t.Fatalf("absent default files made layers: %v", a.Explain().Layers)
	}
	cfg.Files[1].Explicit = true
	loadErr(t, cfg, "GHOSTLIGHT_USER_POLICY names "+p[1]+", which does not exist")
}

func TestDiscover(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": "/xdg", "GHOSTLIGHT_WORKSPACE_POLICY": "rel/ws.cue"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	files, key := Discover(lookup, "/work", "/home/u")
	got := []string{}
	for _, f := range files {
		got = append(got, f.Layer+"="+f.Path+map[bool]string{true: "!", false: ""}[f.Explicit])
	}
	if strings.Join(got, " ") != "organization=/etc/ghostlight/policy.cue user=/xdg/ghostlight/policy.cue workspace=/work/rel/ws.cue!" || key.Path != "/etc/ghostlight/org.pub" || key.Explicit {
		t.Fatalf("discover: %v %+v", got, key)
	}
	env = map[string]string{"GHOSTLIGHT_ORG_POLICY": "", "GHOSTLIGHT_ORG_KEY": "/k.pub"}
	files, key = Discover(lookup, "/work", "/home/u")
	if len(files) != 2 || files[0].Path != "/home/u/.config/ghostlight/policy.cue" || files[1].Path != "/work/.ghostlight/policy.cue" || !key.Explicit || key.Path != "/k.pub" {
		t.Fatalf("discover with the org layer off: %+v %+v", files, key)
	}
}

func newKey(t *testing.T, dir string, pemForm bool) (ed25519.PrivateKey, string) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	if pemForm {
		der, _ := x509.MarshalPKIXPublicKey(pub)
		b = pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	} else {
		b = []byte(base64.StdEncoding.EncodeToString(pub) + "\n")
	}
	p := filepath.Join(dir, "org.pub")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return priv, p
}

func sign(t *testing.T, priv ed25519.PrivateKey, file string, b64 bool) {
	t.Helper()
	src, _ := os.ReadFile(file)
	sig := ed25519.Sign(priv, src)
	if b64 {
		sig = []byte(base64.StdEncoding.EncodeToString(sig))
	}
	if err := os.WriteFile(file+surface.PolicySignatureSuffix, sig, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSignedOrganizationLayer(t *testing.T) {
	cfg, p := layers(t, "organization: name: \"Acme\"\ncapabilities: execute: \"deny\"\n", "", "")
	if a := mustLoad(t, cfg); a.Provenance() != "unsigned" {
		t.Fatalf("provenance %q", a.Provenance())
	}
	dir := filepath.Dir(p[0])
	for _, pemForm := range []bool{true, false} {
		os.Remove(p[0] + surface.PolicySignatureSuffix)
		priv, keyPath := newKey(t, dir, pemForm)
		cfg.Key = Key{Path: keyPath, Explicit: true}
		loadErr(t, cfg, "pins an organization key", "has no signature")
		sign(t, priv, p[0], pemForm)
		a := mustLoad(t, cfg)
		pub := priv.Public().(ed25519.PublicKey)
		if a.Provenance() != "signed and verified (key "+Fingerprint(pub)+")" || !strings.HasPrefix(Fingerprint(pub), "SHA256:") {
			t.Fatalf("provenance %q", a.Provenance())
		}
		// Another key's signature, and an edit after signing, are invalid.
		other, _ := newKey(t, t.TempDir(), true)
		sign(t, other, p[0], true)
		loadErr(t, cfg, "signature invalid", "does not verify")
		sign(t, priv, p[0], false)
		os.WriteFile(p[0], []byte("organization: name: \"Acme\"\n"), 0o600)
		loadErr(t, cfg, "signature invalid")
		os.WriteFile(p[0], []byte("organization: name: \"Acme\"\ncapabilities: execute: \"deny\"\n"), 0o600)
		os.WriteFile(p[0]+surface.PolicySignatureSuffix, []byte("not a signature"), 0o600)
		loadErr(t, cfg, "signature invalid", "64 ed25519 signature bytes")
	}
	// A signature with no pinned key cannot be verified: refused.
	cfg.Key = Key{}
	loadErr(t, cfg, "signature invalid", "pins no key")
	// A pinned key that the environment names must exist.
	cfg.Key = Key{Path: filepath.Join(dir, "nope.pub"), Explicit: true}
	loadErr(t, cfg, "GHOSTLIGHT_ORG_KEY names")
}

// TestReloadSnapshots: a call's snapshot never changes; a change is seen by
// the next Current; an invalid file keeps the last good authority and says
// so; fixing it loads again.
func TestReloadSnapshots(t *testing.T) {
	cfg, p := layers(t, "", "", "capabilities: write: \"deny\"\n")
	l, err := Load(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	inFlight := l.Current()
	if inFlight != l.Current() {
		t.Fatal("an unchanged policy made a new authority")
	}
	os.WriteFile(p[2], []byte("capabilities: write: \"deny\"\ncapabilities: read: \"deny\"\n"), 0o600)
	next := l.Current()
	if inFlight.AdmitCapability(surface.CapabilityRead) != nil {
		t.Fatal("the in-flight snapshot changed")
	}
	if next.AdmitCapability(surface.CapabilityRead) == nil {
		t.Fatal("the edit was not read")
	}
	if next.Digest() == inFlight.Digest() {
		t.Fatal("digest did not change with the policy")
	}
	os.WriteFile(p[2], []byte("capabilities: read: \"nope\"\n"), 0o600)
	bad := l.Current()
	if bad.AdmitCapability(surface.CapabilityRead) == nil || bad.Digest() != next.Digest() {
		t.Fatal("an invalid file did not keep the last good authority")
	}
	if n := bad.Note(); !strings.Contains(n, "last good authority stays in force") || !strings.Contains(n, "the workspace layer is invalid") || strings.Contains(n, p[2]) {
		t.Fatalf("note %q", n)
	}
	if !strings.Contains(l.Problem(), p[2]+":1:15") {
		t.Fatalf("person's problem %q", l.Problem())
	}
	os.Remove(p[2])
	fixed := l.Current()
	if fixed.Note() != "" || fixed.AdmitCapability(surface.CapabilityWrite) != nil || l.Problem() != "" {
		t.Fatalf("removing the file did not load the remaining layers: note %q", fixed.Note())
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"a.example", "a.example", true}, {"a.example:80", "a.example", true}, {"a.example", "a.example:80", false},
		{"x.a.example", "*.a.example", true}, {"*.x.a.example", "*.a.example", true}, {"*.a.example", "*.a.example", true},
		{"a.example", "*.a.example", false}, {"*.a.example", "a.example", false}, {"xa.example", "*.a.example", false},
		{"A.Example", "a.example", true}, {"b.a.example:8080", "*.a.example:8080", true}, {"b.a.example:8081", "*.a.example:8080", false},
	} {
		if got := hostWithin(c.a, c.b); got != c.want {
			t.Errorf("hostWithin(%q, %q) = %v", c.a, c.b, got)
		}
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{{"/srv/a", "/srv", true}, {"/srv", "/srv/", true}, {"/srvx", "/srv", false}, {"/srv/a/../b", "/srv", true}, {"/x", "/", true}} {
		if got := pathWithin(c.a, c.b); got != c.want {
			t.Errorf("pathWithin(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// TestReloadConcurrent: calls starting in parallel while the file changes
// each get a whole authority (run with -race).
func TestReloadConcurrent(t *testing.T) {
	cfg, p := layers(t, "", "", "capabilities: write: \"deny\"\n")
	l, err := Load(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 200; i++ {
				if a := l.Current(); a.AdmitCapability(surface.CapabilityWrite) == nil {
					t.Error("an authority without the write denial")
					return
				}
			}
		}()
	}
	// Written as editors and deployment tools should: a whole new file
	// renamed over the old one.
	for i := 0; i < 50; i++ {
		tmp := p[2] + ".tmp"
		os.WriteFile(tmp, []byte(strings.Repeat("capabilities: write: \"deny\"\n", 1+i%3)), 0o600)
		if err := os.Rename(tmp, p[2]); err != nil {
			t.Fatal(err)
		}
	}
	for g := 0; g < 8; g++ {
		<-done
	}
}

// BenchmarkCurrentUnchanged is the per-call cost of the reload check: a
// stat of each layer file, the signature and the key.
func BenchmarkCurrentUnchanged(b *testing.B) {
	dir := b.TempDir()
	var cfg Config
	for _, n := range []string{"organization", "user", "workspace"} {
		p := filepath.Join(dir, n+".cue")
		os.WriteFile(p, []byte("capabilities: execute: \"deny\"\n"), 0o600)
		cfg.Files = append(cfg.Files, File{Layer: n, Path: p})
	}
	l, err := Load(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		l.Current()
	}
}

// BenchmarkLoad is one full read: parse, decode, verify, narrow, compile.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	src := "organization: {name: \"Acme\", id: \"acme\"}\ncapabilities: execute: \"deny\"\nhosts: allow: [\"*.acme.test\", \"127.0.0.1\"]\nhosts: deny: [\"admin.acme.test\"]\naudit: keep: 5\n"
	var cfg Config
	for _, n := range []string{"organization", "user", "workspace"} {
		p := filepath.Join(dir, n+".cue")
		os.WriteFile(p, []byte(strings.Replace(src, "organization: {name: \"Acme\", id: \"acme\"}\n", map[bool]string{true: "organization: {name: \"Acme\", id: \"acme\"}\n", false: ""}[n == "organization"], 1)), 0o600)
		cfg.Files = append(cfg.Files, File{Layer: n, Path: p})
	}
	for b.Loop() {
		if _, _, err := load(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHostRulesLoad: host patterns in any spelling load, stored canonical;
// a pattern or address rule that parses as no host refuses to load,
// naming file, line and column.
func TestHostRulesLoad(t *testing.T) {
	cfg, _ := layers(t, "hosts: deny: [\"::1\", \"[::1]:8080\", \"2130706434\", \"*.Example.COM\", \"0x7f.1:08080\"]\nhosts: addresses: deny: [\"private\", \"metadata\", \"198.51.100.0/24\"]\n", "", "")
	a := mustLoad(t, cfg)
	l := a.Layers()[1]
	if got := strings.Join(l.DenyHosts, " "); got != "[::1] [::1]:8080 127.0.0.2 *.example.com 127.0.0.1:8080" {
		t.Errorf("stored %q", got)
	}
	if got := strings.Join(l.DenyAddresses, " "); got != "private metadata 198.51.100.0/24" {
		t.Errorf("address rules %q", got)
	}
	for _, c := range []struct{ src, want string }{
		{"hosts: deny: [\"ok.example\", \"[zz]\"]", `:1:29: "[zz]" is not a host pattern`},
		{"hosts: allow: [\n\t\"*.127.0.0.1\",\n]", `:2:2: "*.127.0.0.1" is not a host pattern: *. applies to domain names, and 127.0.0.1 is an IP address (hosts.allow.0)`},
		{"hosts: deny: [\"256.1.1.1\"]", `:1:15: "256.1.1.1" is not a host pattern`},
		{"hosts: deny: [\"[::1]:99999\"]", `:1:15: "[::1]:99999" is not a host pattern: port "99999" is above 65535 (hosts.deny.0)`},
		{"hosts: addresses: deny: [\"10.0.0.0/8\", \"privat\"]", `:1:40: "privat" is not a preset (private, link-local, metadata, loopback), an IP address or a CIDR (hosts.addresses.deny.1)`},
		{"hosts: addresses: deny: [\"10.0.0.1/8\"]", `:1:26: "10.0.0.1/8" has bits set past its prefix; the network is 10.0.0.0/8`},
		{"hosts: addresses: deny: [\"10.0.0.0/8 \"]", `:1:26: deny[0] must be a preset's name, an IP address or a CIDR`},
	} {
		cfg, p := layers(t, "", "", c.src)
		loadErr(t, cfg, p[2]+c.want)
	}
	// A lower layer's allow list is held within a higher one's in any spelling.
	cfg, _ = layers(t, "hosts: allow: [\"127.0.0.1\", \"::1\"]", "hosts: allow: [\"2130706433:8080\", \"[0::1]:3000\"]", "")
	mustLoad(t, cfg)
	cfg, p := layers(t, "hosts: deny: [\"127.0.0.1\"]", "", "hosts: allow: [\"0x7f.1\"]")
	loadErr(t, cfg, "\"0x7f.1\" at "+p[2]+":1:16 is denied by \"127.0.0.1\"")
}
