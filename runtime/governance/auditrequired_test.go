package governance

import "testing"

// audit.required: off by default; on when the organization sets
// audit.path (and a lower layer may not turn it off); any layer may turn
// it on; the organization may set a path and say false itself.
func TestAuditRequired(t *testing.T) {
	for _, c := range []struct {
		org, user string
		want      bool
		layer     string
	}{
		{"", "", false, LayerDefault},
		{`audit: path: "/var/log/g/audit.jsonl"`, "", true, "organization"},
		{"", `audit: path: "/tmp/a/audit.jsonl"`, false, LayerDefault},
		{"", `audit: required: true`, true, "user"},
		{`audit: {path: "/var/log/g/audit.jsonl", required: false}`, "", false, "organization"},
		{`audit: {path: "/var/log/g/audit.jsonl", required: false}`, `audit: required: true`, true, "user"},
	} {
		cfg, _ := layers(t, c.org, c.user, "")
		got, layer := mustLoad(t, cfg).AuditRequired()
		if got != c.want || layer != c.layer {
			t.Errorf("org %q user %q: required %v by %s, want %v by %s", c.org, c.user, got, layer, c.want, c.layer)
		}
	}
	// policy_explain lists it while in force, implied or written.
	cfg, _ := layers(t, `audit: path: "/var/log/g/audit.jsonl"`, "", "")
	found := false
	for _, l := range mustLoad(t, cfg).Explain().Settings {
		if l.Key == "audit.required" {
			found = l.Value == "true" && l.Layer == "organization"
		}
	}
	if !found {
		t.Errorf("explain does not list audit.required true (organization): %+v", mustLoad(t, cfg).Explain().Settings)
	}
	cfg, p := layers(t, `audit: path: "/var/log/g/audit.jsonl"`, `audit: required: false`, "")
	loadErr(t, cfg, "the user layer widens audit.required", p[1]+":1:")
	cfg, _ = layers(t, `audit: required: true`, "", `audit: required: false`)
	loadErr(t, cfg, "the workspace layer widens audit.required")
}
