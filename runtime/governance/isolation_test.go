package governance

import (
	"strings"
	"testing"
)

func isolationLine(t *testing.T, a *Authority) string {
	t.Helper()
	for _, s := range a.Explain().Settings {
		if s.Key == "browser.isolation" {
			return s.Value + " (" + s.Layer + ")"
		}
	}
	t.Fatal("policy_explain has no browser.isolation line")
	return ""
}

// TestIsolationDefaultByPosture: with no layer setting browser.isolation,
// a browser the person opened prepared (connect or manual, no endpoint) is
// shared; a launched browser and any configured endpoint (a pool, a
// container, another host) are per session. policy_explain always says it.
func TestIsolationDefaultByPosture(t *testing.T) {
	for _, c := range []struct {
		startup  string
		endpoint bool
		want     string
	}{
		{"auto", false, "session"},
		{"auto", true, "session"},
		{"connect", true, "session"},
		{"manual", true, "session"},
		{"connect", false, "shared"},
		{"manual", false, "shared"},
	} {
		cfg, _ := layers(t, "", "", "")
		cfg.DefaultStartup, cfg.Endpoint = c.startup, c.endpoint
		a := mustLoad(t, cfg)
		if a.Isolation() != c.want || isolationLine(t, a) != c.want+" (default)" {
			t.Errorf("%s endpoint=%v: %s, explain %q; want %s", c.startup, c.endpoint, a.Isolation(), isolationLine(t, a), c.want)
		}
	}
	// --startup connect on the command line decides the posture too.
	cfg, _ := layers(t, "", "", "")
	cfg.DefaultStartup, cfg.CommandLine.Startup = "auto", "connect"
	if a := mustLoad(t, cfg); a.Isolation() != "shared" {
		t.Fatalf("--startup connect without an endpoint: %s", a.Isolation())
	}
	if AllOpen("connect").Isolation() != "session" {
		t.Fatal("the unconfigured authority must isolate sessions")
	}
}

// TestIsolationLayers: a layer that sets it decides (over the posture's
// default, either way); session is narrower, so a lower layer may narrow
// shared to session but never widen session to shared.
func TestIsolationLayers(t *testing.T) {
	cfg, _ := layers(t, "", `browser: isolation: "session"`, "")
	cfg.DefaultStartup = "connect"
	if a := mustLoad(t, cfg); a.Isolation() != "session" || isolationLine(t, a) != "session (user)" {
		t.Fatalf("a user layer's session over the connect posture: %s %q", a.Isolation(), isolationLine(t, a))
	}
	cfg, _ = layers(t, "", "", `browser: isolation: "shared"`)
	cfg.DefaultStartup, cfg.Endpoint = "connect", true
	if a := mustLoad(t, cfg); a.Isolation() != "shared" || isolationLine(t, a) != "shared (workspace)" {
		t.Fatalf("a workspace layer's shared: %s %q", a.Isolation(), isolationLine(t, a))
	}
	cfg, _ = layers(t, `browser: isolation: "shared"`, "", `browser: isolation: "session"`)
	if a := mustLoad(t, cfg); a.Isolation() != "session" || isolationLine(t, a) != "session (workspace)" {
		t.Fatalf("narrowed to session: %s %q", a.Isolation(), isolationLine(t, a))
	}
	cfg, paths := layers(t, `browser: isolation: "session"`, "", `browser: isolation: "shared"`)
	loadErr(t, cfg, "the workspace layer widens browser.isolation", paths[0], paths[2])
	cfg, _ = layers(t, "", `browser: isolation: "private"`, "")
	loadErr(t, cfg, "browser.isolation")
}

// TestIsolationInDigest: the posture's isolation is part of the digest, so
// two servers that isolate differently never carry one digest.
func TestIsolationInDigest(t *testing.T) {
	cfg, _ := layers(t, "", "", "")
	cfg.DefaultStartup = "connect"
	shared := mustLoad(t, cfg).Digest()
	cfg.Endpoint = true
	session := mustLoad(t, cfg).Digest()
	if shared == session || !strings.HasPrefix(shared, "sha256:") {
		t.Fatalf("digests %s %s", shared, session)
	}
}
