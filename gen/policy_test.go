package gen

import (
	"os"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/gen/load"
)

// TestPolicySchemaRules: a #Policy field the generator cannot narrow or
// document is a load error, not a silent gap in the reference.
func TestPolicySchemaRules(t *testing.T) {
	src, err := os.ReadFile("../spec/policy.cue")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ old, new, want string }{
		{`@policy(narrow=order, order="all navigation")`, `@policy(narrow=order, order="all")`, "order [all] must list each of"},
		{`@policy(narrow=order, order="true false")`, ``, "@policy(narrow=…) must be order"},
		{`		// Rotated audit files kept. A lower layer may raise it, never lower it.
`, ``, "policy field /audit/keep has no doc comment"},
		{`keep?: int`, `keep: int`, "must be optional"},
		{`bound=audit_keep)`, `bound=audit_kept)`, `unknown bound "audit_kept"`},
	}
	for _, c := range cases {
		if !strings.Contains(string(src), c.old) {
			t.Fatalf("policy.cue no longer holds %q", c.old)
		}
		_, err := load.Dir("../spec", map[string]string{"policy.cue": strings.Replace(string(src), c.old, c.new, 1)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q → %q: got %v, want %q", c.old, c.new, err, c.want)
		}
	}
}

// TestAddressPresetRules: a preset's CIDR must parse and name its network,
// and a name is declared once, or the spec does not load.
func TestAddressPresetRules(t *testing.T) {
	src, err := os.ReadFile("../spec/address_presets.cue")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ old, new, want string }{
		{`"10.0.0.0/8"`, `"10.0.0.1/8"`, `address preset private: "10.0.0.1/8" is not a CIDR naming its network`},
		{`"fe80::/10"`, `"fe80::/129"`, `address preset link-local: "fe80::/129" is not a CIDR`},
		{`{name: "metadata"`, `{name: "private"`, `address preset "private" is declared twice`},
	}
	for _, c := range cases {
		if !strings.Contains(string(src), c.old) {
			t.Fatalf("address_presets.cue no longer holds %q", c.old)
		}
		_, err := load.Dir("../spec", map[string]string{"address_presets.cue": strings.Replace(string(src), c.old, c.new, 1)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q → %q: got %v, want %q", c.old, c.new, err, c.want)
		}
	}
}
