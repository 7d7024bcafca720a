package conformance

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependenciesPointOneWay: the server binary carries no CUE loader and no
// generator; generated/ imports nothing of runtime/; the executor knows
// nothing of MCP; the MCP edge nothing of rod.
func TestDependenciesPointOneWay(t *testing.T) {
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	const mod = "github.com/ghostlight-dev/ghostlight/"
	forbid := map[string][]string{
		"../tools/ghostlight":    {"cuelang.org/", mod + "gen/"},
		"../generated/surface":   {mod + "runtime"},
		"../runtime/browser/...": {"github.com/mark3labs/mcp-go", mod + "runtime/pipeline", mod + "runtime/governance"},
		"../runtime/mcpedge":     {"github.com/go-rod/rod", mod + "runtime/browser"},
		"../runtime/governance":  {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go"},
		"../runtime/pipeline":    {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go", mod + "runtime/browser"},
	}
	for pkg, bad := range forbid {
		for _, d := range deps(pkg) {
			for _, b := range bad {
				if strings.HasPrefix(d, b) {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
}
