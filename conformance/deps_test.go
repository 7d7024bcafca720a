package conformance

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDependenciesPointOneWay: the server binary carries no CUE loader and no
// generator; generated/ imports nothing of runtime/ or gen/; the support
// package both gen/ and generated/ import depends on nothing of the module;
// the executor knows nothing of MCP; the MCP edge nothing of rod.
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
		"../generated/...":       {mod + "runtime", mod + "gen/"},
		"../support":             {mod + "runtime", mod + "gen", mod + "tools", mod + "conformance"},
		"../runtime/browser/...": {"github.com/mark3labs/mcp-go", mod + "runtime/pipeline", mod + "runtime/governance", "github.com/prometheus/"},
		// The action lifecycle reports facts; governance decides and language words them.
		"../runtime/browser/action": {"github.com/mark3labs/mcp-go", mod + "runtime/pipeline", mod + "runtime/governance", mod + "runtime/language", mod + "runtime/mcpedge", mod + "runtime/tools"},
		"../runtime/mcpedge":        {"github.com/go-rod/rod", mod + "runtime/browser", "github.com/prometheus/"},
		// /metrics is fed plain values by the wiring (runtime/server/ops.go).
		"../runtime/metrics":    {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go", mod + "runtime/browser", mod + "runtime/pipeline", mod + "runtime/mcpedge"},
		"../runtime/governance": {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go"},
		"../runtime/pipeline":   {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go", mod + "runtime/browser"},
		"../runtime/workbench":  {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go", mod + "runtime/browser", mod + "runtime/tools"},
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

// pkgImports lists each package matched by pattern with its direct imports;
// withTests adds its tests' imports.
func pkgImports(t *testing.T, pattern string, withTests bool) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", pattern).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	pkgs := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list %s: %v", pattern, err)
		}
		pkgs[p.ImportPath] = p.Imports
		if withTests {
			pkgs[p.ImportPath] = append(append(p.Imports, p.TestImports...), p.XTestImports...)
		}
	}
	return pkgs
}

// TestHandlersHoldNoBrowserBehaviour: the tool handlers drive the browser
// only through the executor's API. No non-test file of runtime/tools imports
// rod or its protocol package: settling, page JS and DOM queries live under
// runtime/browser. (Tests may reach the browser directly, as a harness.)
// Nor does one hold a page program in a string literal: page JS lives in
// runtime/browser/pagejs.
func TestHandlersHoldNoBrowserBehaviour(t *testing.T) {
	for pkg, imps := range pkgImports(t, "../runtime/tools/...", false) {
		for _, imp := range imps {
			if strings.HasPrefix(imp, "github.com/go-rod/") {
				t.Errorf("%s imports %s: browser behaviour belongs under runtime/browser", pkg, imp)
			}
		}
	}
	files, _ := filepath.Glob("../runtime/tools/*.go")
	fset := token.NewFileSet()
	read := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		read++
		// The action lifecycle (arm, dispatch, settle, observe) is the
		// executor's: runtime/browser/action.Run.
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/ghostlight-dev/ghostlight/runtime/browser/settle" {
				t.Errorf("%s imports %s: an action settles inside runtime/browser/action", fset.Position(imp.Pos()), p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if v, err := strconv.Unquote(lit.Value); err == nil && pageJS.MatchString(v) {
				t.Errorf("%s: page JS in a string literal (%.60q): it belongs in runtime/browser/pagejs", fset.Position(lit.Pos()), v)
			}
			return true
		})
	}
	if read < 20 {
		t.Fatalf("read %d handler files; the glob is wrong", read)
	}
}

// sentencesPending are the handler files whose refusal sentences have not
// moved into runtime/language yet: the action lifecycle and the handlers
// another change (the pre-dispatch confirmation) was reworking beside this.
var sentencesPending = map[string]bool{
	"act.go": true, "tool_browser_click.go": true, "tool_browser_press_key.go": true,
	"tool_browser_fill_form.go": true, "handoff.go": true,
}

// TestHandlersSayNoSentences: a refusal's Message in runtime/tools is a
// runtime/language value, never a string literal or a fmt.Sprintf typed in
// the handler.
func TestHandlersSayNoSentences(t *testing.T) {
	files, _ := filepath.Glob("../runtime/tools/*.go")
	fset := token.NewFileSet()
	read := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || sentencesPending[filepath.Base(path)] {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		read++
		ast.Inspect(f, func(n ast.Node) bool {
			var key, val ast.Expr
			switch x := n.(type) {
			case *ast.KeyValueExpr:
				key, val = x.Key, x.Value
			case *ast.AssignStmt:
				if len(x.Lhs) == 1 && len(x.Rhs) == 1 {
					if sel, ok := x.Lhs[0].(*ast.SelectorExpr); ok {
						key, val = sel.Sel, x.Rhs[0]
					}
				}
			}
			if id, ok := key.(*ast.Ident); !ok || id.Name != "Message" {
				return true
			}
			if typedSentence(val) {
				t.Errorf("%s: a refusal's Message typed in the handler: name it in runtime/language", fset.Position(val.Pos()))
			}
			return true
		})
	}
	if read < 20 {
		t.Fatalf("read %d handler files; the glob is wrong", read)
	}
}

// typedSentence: a string literal, a concatenation holding one, or a
// fmt.Sprintf.
func typedSentence(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Kind == token.STRING
	case *ast.BinaryExpr:
		return typedSentence(x.X) || typedSentence(x.Y)
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" {
				return true
			}
		}
	}
	return false
}

// pageJS is what page code looks like and no sentence of a handler does: a
// function expression, an arrow, or a reach into the page's globals.
var pageJS = regexp.MustCompile(`function\s*\(|\)\s*=>|\b(document|window)\.[a-zA-Z]|getComputedStyle|querySelector|elementFromPoint|\bscroll[XY]\b`)

// TestExecutorImportsOnlyGeneratedSurface: the executor (runtime/browser/...)
// may import, of this module, only itself and the generated surface's
// constants and types (generated/surface); never the handlers, the
// pipeline, governance, the language context, the MCP edge or the server
// (docs/ARCHITECTURE.md, Dependency rules).
func TestExecutorImportsOnlyGeneratedSurface(t *testing.T) {
	const mod = "github.com/ghostlight-dev/ghostlight/"
	for pkg, imps := range pkgImports(t, "../runtime/browser/...", true) {
		for _, imp := range imps {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			if imp != mod+"generated/surface" && imp != mod+"runtime/browser" && !strings.HasPrefix(imp, mod+"runtime/browser/") {
				t.Errorf("%s imports %s: the executor takes only generated/surface of the rest of the module", pkg, imp)
			}
		}
	}
}
