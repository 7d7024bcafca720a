package gen

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/gen/emit"
	"github.com/ghostlight-dev/ghostlight/gen/ir"
	"github.com/ghostlight-dev/ghostlight/gen/load"
)

// TestBoundKindRules: every bound says what its number is, and a field's
// bound (which its decoder enforces) is a contract limit; otherwise the spec
// does not load.
func TestBoundKindRules(t *testing.T) {
	src, err := os.ReadFile("../spec/bounds.cue")
	if err != nil {
		t.Fatal(err)
	}
	const line = `timeout_ms: {doc: "Call timeout.", min: 100, max: 30000, default: 8000, unit: "ms", kind: "limit"}`
	cases := []struct{ new, want string }{
		{strings.Replace(line, `, kind: "limit"`, ``, 1), "bounds.timeout_ms.kind"},
		{strings.Replace(line, `"limit"`, `"knob"`, 1), "bounds.timeout_ms.kind"},
		{strings.Replace(line, `"limit"`, `"tuning"`, 1), `bound "timeout_ms" is a tuning, but a field's bound is a contract limit`},
	}
	if !strings.Contains(string(src), line) {
		t.Fatalf("bounds.cue no longer holds %q", line)
	}
	for _, c := range cases {
		_, err := load.Dir("../spec", map[string]string{"bounds.cue": strings.Replace(string(src), line, c.new, 1)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.new, err, c.want)
		}
	}
	spec, err := load.Dir("../spec", nil)
	if err != nil {
		t.Fatal(err)
	}
	n := map[ir.BoundKind]int{}
	for _, b := range spec.Bounds {
		n[b.Kind]++
	}
	t.Logf("%d bounds: %d contract limits, %d budgets, %d tuning values", len(spec.Bounds), n[ir.BoundLimit], n[ir.BoundBudget], n[ir.BoundTuning])
}

// TestBoundsDeclaredOnce: a bound's number is written in Go once, in the
// limits package; every other rendered Go file names it (generated/surface's
// bounds.go aliases each constant for its decoders) and never restates it.
func TestBoundsDeclaredOnce(t *testing.T) {
	files := renderReal(t, nil)
	spec := loadReal(t)
	names := map[string]bool{}
	for _, b := range spec.Bounds {
		for _, w := range []string{"", "Min", "Max", "Default"} {
			names[b.GoName+w] = true
		}
	}
	decl := regexp.MustCompile(`(?m)^\s*(?:const\s+)?([A-Z][A-Za-z0-9]*)\s*=\s*-?[0-9]`)
	declared := map[string]int{}
	for name, b := range files {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		for _, m := range decl.FindAllSubmatch(b, -1) {
			if !names[string(m[1])] {
				continue
			}
			if !strings.HasPrefix(name, emit.LimitsPackage+"/") {
				t.Errorf("%s declares %s with a number: bounds are declared in %s/ only", name, m[1], emit.LimitsPackage)
			}
			declared[string(m[1])]++
		}
	}
	for n, c := range declared {
		if c != 1 {
			t.Errorf("%s is declared %d times in %s/", n, c, emit.LimitsPackage)
		}
	}
	if len(declared) == 0 {
		t.Fatalf("no bound declared in %s/", emit.LimitsPackage)
	}
	t.Logf("%d bound constants declared with a number, all in %s/", len(declared), emit.LimitsPackage)
}
