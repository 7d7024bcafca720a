package governance

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestExplainAllOpen(t *testing.T) {
	f := AllOpen("auto").Explain()
	if f.Situation != "Under the permanent ceilings, all 4 capabilities are allowed and every http(s) host is reachable." {
		t.Errorf("situation %q", f.Situation)
	}
	for _, c := range f.Capabilities {
		if !c.Allowed || c.Layer != LayerDefault {
			t.Errorf("all-open %s: %+v", c.Capability, c)
		}
	}
	if f.Provenance != "no organization layer" || f.Organization != "none (local)" || f.Startup != "auto" || f.StartupLayer != LayerDefault || !strings.HasPrefix(f.Digest, "sha256:") {
		t.Errorf("facts %+v", f)
	}
	if len(f.Settings) != 6 || f.Settings[0].Key != "privacy.preserve_target_names" || f.Settings[0].Value != "true" || f.Settings[0].Layer != LayerDefault {
		t.Errorf("privacy is not said: %+v", f.Settings)
	}
	if s := f.Settings[1]; s.Key != "browser.isolation" || s.Value != "session" || s.Layer != LayerDefault {
		t.Errorf("isolation is not said: %+v", s)
	}
	if s := f.Settings[2]; s.Key != "downloads" || s.Value != "deny" || s.Layer != LayerDefault {
		t.Errorf("downloads are not said: %+v", s)
	}
	// What uploads may read: the roots, dotfiles and hard links, always.
	for i, want := range []string{"files.read_roots=(unset: the client's MCP roots, else the server's working directory)", "files.dotfiles=exclude", "files.hard_links=deny"} {
		if s := f.Settings[3+i]; s.Key+"="+s.Value != want || s.Layer != LayerDefault {
			t.Errorf("uploads are not said: %+v, want %s", s, want)
		}
	}
}

// TestExplainUploadExclusions: every layer's files.exclude is a line of its
// own, and a layer that sets dotfiles or hard links is named.
func TestExplainUploadExclusions(t *testing.T) {
	cfg, _ := layers(t,
		"files: exclude: [\"*.pem\"]\n",
		"files: exclude: [\"secrets/*\", \"id_*\"]\nfiles: hard_links: \"deny\"\n",
		"")
	a := mustLoad(t, cfg)
	got := map[string]string{}
	var excl []string
	for _, s := range a.Explain().Settings {
		if s.Key == "files.exclude" {
			excl = append(excl, s.Value+" ("+s.Layer+")")
			continue
		}
		got[s.Key] = s.Value + " (" + s.Layer + ")"
	}
	if strings.Join(excl, "; ") != "*.pem (organization); secrets/*, id_* (user)" {
		t.Errorf("exclusions %q", excl)
	}
	if got["files.hard_links"] != "deny (user)" || got["files.dotfiles"] != "exclude (default)" {
		t.Errorf("settings %v", got)
	}
	if l := a.ExcludeLists(); len(l) != 2 || l[1].Globs[1] != "id_*" {
		t.Errorf("ExcludeLists %+v", l)
	}
}

// TestExplainDecidingLayers: each line names the layer that actually
// decided, the sentence is grammatical, and Render carries every fact.
func TestExplainDecidingLayers(t *testing.T) {
	cfg, p := layers(t,
		"organization: {name: \"Acme\", id: \"acme\"}\ncapabilities: execute: \"deny\"\ncapabilities: read: \"allow\"\nhosts: allow: [\"*.acme.test\"]\n",
		"capabilities: execute: \"deny\"\ncapabilities: write: \"deny\"\nprivacy: preserve_target_names: false\n",
		"tabs: close: \"deny\"\naudit: keep: 7\n")
	a := mustLoad(t, cfg).Narrow(surface.Restrictions{Capabilities: []string{"read", "write"}, Hosts: []string{"docs.acme.test"}})
	f := a.Explain()
	want := map[string]string{"read": "allowed organization", "action": "denied restriction", "write": "denied user", "execute": "denied organization"}
	for _, c := range f.Capabilities {
		pol := map[bool]string{true: "allowed", false: "denied"}[c.Allowed]
		if got := pol + " " + c.Layer; got != want[string(c.Capability)] {
			t.Errorf("%s: %s, want %s", c.Capability, got, want[string(c.Capability)])
		}
	}
	if f.Situation != "Under the permanent ceilings, 3 of 4 capabilities are denied (action, write, execute), only allowed hosts are reachable and no tab may be closed." {
		t.Errorf("situation %q", f.Situation)
	}
	lines := Render(f, nil)
	joined := strings.Join(lines, "\n")
	for _, w := range []string{
		"hosts allow: *.acme.test (organization)", "hosts restrict: docs.acme.test (restriction)", "hosts requests: navigation (default)",
		"constraint tab_close: denied (workspace)", "constraint preserve_tabs: off (default)",
		"setting privacy.preserve_target_names: false (user)", "setting audit.keep: 7 (workspace)",
		"organization: Acme (acme)", "provenance: unsigned", "layers in force: ceiling, organization, user, workspace, restriction",
		"digest: " + a.Digest(), "startup: auto (default)",
	} {
		if !strings.Contains(joined, w) {
			t.Errorf("explanation lacks %q:\n%s", w, joined)
		}
	}
	if strings.Contains(joined, p[0]) || strings.Contains(joined, "/tmp") {
		t.Error("the model's explanation holds a path")
	}
	located := Render(f, a.Locate())
	if len(located) != len(lines) {
		t.Fatalf("%d located lines for %d", len(located), len(lines))
	}
	for i := range lines {
		if !strings.HasPrefix(located[i], lines[i]) {
			t.Errorf("line %d: %q is not %q plus a location", i, located[i], lines[i])
		}
	}
	if !strings.Contains(strings.Join(located, "\n"), "capability write: denied (user)  ["+p[1]+":2:15]") {
		t.Errorf("person's lines lack the user file's line:\n%s", strings.Join(located, "\n"))
	}
	one := New("auto", "x", Layer{Name: "user", Caps: AllCaps &^ surface.CapExecute}).Explain()
	if !strings.Contains(one.Situation, "1 of 4 capabilities is denied (execute)") {
		t.Errorf("singular: %q", one.Situation)
	}
}

// TestExplainAddressRules: policy_explain shows each layer's address rules,
// presets with their ranges, and host patterns in canonical form, located
// at their file and line for the person.
func TestExplainAddressRules(t *testing.T) {
	cfg, p := layers(t, "hosts: addresses: deny: [\"metadata\", \"198.51.100.0/24\"]\n", "hosts: deny: [\"2130706434\", \"::1\"]\n", "")
	a := mustLoad(t, cfg)
	f := a.Explain()
	joined := strings.Join(Render(f, a.Locate()), "\n")
	for _, w := range []string{
		"hosts addresses: deny metadata (169.254.169.254/32, fd00:ec2::254/128), 198.51.100.0/24 (organization)  [" + p[0] + ":1:",
		"hosts deny: 127.0.0.2, [::1] (user)  [" + p[1] + ":1:",
	} {
		if !strings.Contains(joined, w) {
			t.Errorf("explanation lacks %q:\n%s", w, joined)
		}
	}
	if !strings.Contains(f.Situation, "no connection reaches an address the address rules deny") {
		t.Errorf("situation %q", f.Situation)
	}
}
