package governance

import (
	"strings"
	"testing"
)

// TestInterceptionOnly: hosts.requests "all" where no policy proxy can
// route the browser refuses to start unless the organization layer accepts
// interception only; explain says so wherever the boundary is interception
// only; no other layer may accept it.
func TestInterceptionOnly(t *testing.T) {
	all := `hosts: requests: "all"`
	for _, c := range []struct {
		name             string
		org, user        string
		startup          string
		endpoint, remote bool
		only, refused    bool
	}{
		{"launched", "", all, "auto", false, false, false, false},
		{"launched despite a remote endpoint", "", all, "auto", true, true, false, false},
		{"attached shared", "", all, "connect", false, false, true, true},
		{"attached session on this machine", "", all, "connect", true, false, false, false},
		{"remote endpoint", "", all, "connect", true, true, true, true},
		{"remote, documents only", "", "", "connect", true, true, true, false},
		{"remote, accepted", "browser: accept_interception_only: true", all, "connect", true, true, true, false},
		{"shared, accepted", "browser: accept_interception_only: true\n" + all, "", "manual", false, false, true, false},
	} {
		cfg, _ := layers(t, c.org, c.user, "")
		cfg.DefaultStartup, cfg.Endpoint = c.startup, c.endpoint
		a := mustLoad(t, cfg)
		if got := a.InterceptionOnly(c.remote); got != c.only {
			t.Errorf("%s: interception only %v, want %v", c.name, got, c.only)
		}
		err := a.InterceptionOnlyRefusal(c.remote)
		if (err != nil) != c.refused {
			t.Errorf("%s: refusal %v, want refused=%v", c.name, err, c.refused)
		}
		if err != nil && !strings.Contains(err.Error(), "browser.accept_interception_only") {
			t.Errorf("%s: the refusal does not name the setting: %v", c.name, err)
		}
		if note := a.InterceptionOnlyNote(c.remote); (note != "") != c.only || c.only && !strings.Contains(note, "interception only") {
			t.Errorf("%s: note %q", c.name, note)
		}
	}
	cfg, _ := layers(t, "", "browser: accept_interception_only: true", "")
	loadErr(t, cfg, "accept_interception_only")
}
