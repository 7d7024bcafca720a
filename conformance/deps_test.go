package conformance

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
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
// the executor knows nothing of MCP; the MCP edge nothing of rod; the
// boundary's wiring (runtime/boundary) nothing of the handlers or MCP; a
// session's recordings (runtime/recordings) nothing of a call or MCP; the
// handlers' acting code (runtime/tools/act), outcomes
// (runtime/tools/outcome) and how they ask the person (runtime/tools/person)
// nothing of the handlers above them, the server, MCP, gen/ or CUE; act and
// person, which the session implements an interface of, not each other.
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
		// What waits on the person is plain state: no browser, no MCP, no call.
		"../runtime/handoff":  {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go", mod + "runtime/browser", mod + "runtime/pipeline", mod + "runtime/mcpedge", mod + "runtime/tools"},
		"../runtime/pipeline": {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go", mod + "runtime/browser"},
		// A session's recordings are plain state below the handlers: the handler
		// and the workbench read them; no call, no MCP, no spec.
		"../runtime/recordings": {"cuelang.org/", mod + "gen/", "github.com/mark3labs/mcp-go", mod + "runtime/pipeline", mod + "runtime/governance", mod + "runtime/mcpedge", mod + "runtime/tools", mod + "runtime/server", mod + "runtime/workbench"},
		// The boundary's wiring joins governance to the executor, below the handlers.
		"../runtime/boundary": {"cuelang.org/", mod + "gen/", "github.com/mark3labs/mcp-go", mod + "runtime/mcpedge", mod + "runtime/tools", mod + "runtime/server"},
		// Errors become refusals below the handlers, above the executor.
		"../runtime/refusal": {"github.com/mark3labs/mcp-go", mod + "runtime/pipeline", mod + "runtime/governance", mod + "runtime/mcpedge", mod + "runtime/tools", mod + "runtime/server"},
		// The typed-secret mask is pure: it sees text, never a page, a call or a person.
		"../runtime/echomask": {mod + "runtime/browser", mod + "runtime/pipeline", mod + "runtime/handoff", mod + "runtime/tools", mod + "generated/", "github.com/go-rod", "github.com/mark3labs"},
		// The handlers' acting code and outcomes sit below the handlers: the
		// session reaches act through act.Session, never the other way.
		// (A rule ending in "$" names one package exactly.)
		"../runtime/tools/act":     {"cuelang.org/", mod + "gen/", "github.com/mark3labs/mcp-go", mod + "runtime/tools$", mod + "runtime/tools/person", mod + "runtime/mcpedge", mod + "runtime/server"},
		"../runtime/tools/outcome": {"cuelang.org/", mod + "gen/", "github.com/mark3labs/mcp-go", mod + "runtime/tools$", mod + "runtime/tools/act", mod + "runtime/tools/person", mod + "runtime/mcpedge", mod + "runtime/server"},
		// Asking the person sits below the handlers too, reached through
		// person.Session: it asks runtime/handoff's store, reads a page
		// through pagejs and judges text through echomask; it knows no
		// handler, no act, no outcome, no workbench, no MCP.
		"../runtime/tools/person": {"cuelang.org/", mod + "gen/", "github.com/mark3labs/mcp-go", mod + "runtime/tools$", mod + "runtime/tools/act", mod + "runtime/tools/outcome", mod + "runtime/mcpedge", mod + "runtime/server", mod + "runtime/workbench"},
		"../runtime/workbench":    {"github.com/go-rod/rod", "github.com/mark3labs/mcp-go", mod + "runtime/browser", mod + "runtime/tools"},
	}
	for pkg, bad := range forbid {
		for _, d := range deps(pkg) {
			for _, b := range bad {
				if exact, ok := strings.CutSuffix(b, "$"); ok && d == exact || !ok && strings.HasPrefix(d, b) {
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
// only through the executor's API. No non-test file of runtime/tools (or of
// its act, outcome and person packages) imports
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
	shared, _ := filepath.Glob("../runtime/tools/*/*.go") // act, outcome, person
	fset := token.NewFileSet()
	read := 0
	for _, path := range append(files, shared...) {
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

// TestHandlersSayNoSentences: what a handler in runtime/tools says is a
// runtime/language value, never typed in the handler: no string literal
// that reads as prose (a sentence or a fragment of one; see prose), no
// fmt.Sprintf or fmt.Errorf with such a format, and no refusal Message that
// is a literal or a fmt call at all. Key names, JSON pointers, enum values,
// handle prefixes and one-word labels stay where they are used. The code
// the handlers share (runtime/tools/act, runtime/tools/outcome,
// runtime/tools/person) is held to the same rules; the state they keep below
// them (runtime/recordings) to the Message rule only.
func TestHandlersSayNoSentences(t *testing.T) {
	for dir, least := range map[string]int{"../runtime/tools": 20, "../runtime/tools/act": 5, "../runtime/tools/outcome": 2, "../runtime/tools/person": 6, "../runtime/recordings": 2} {
		sayNoSentences(t, dir, least, strings.HasPrefix(dir, "../runtime/tools"))
	}
}

// sayNoSentences holds the non-test files of dir (at least least of them)
// to TestHandlersSayNoSentences; literals: to its prose rule too.
func sayNoSentences(t *testing.T, dir string, least int, literals bool) {
	t.Helper()
	files, _ := filepath.Glob(dir + "/*.go")
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
		skip := !literals
		said := map[token.Pos]bool{} // literals already reported as a format
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.Field:
				if x.Tag != nil {
					said[x.Tag.Pos()] = true // a struct tag is no sentence
				}
			case *ast.CallExpr:
				if lit, name := fmtFormat(x); lit != nil && !skip && prose(unquote(lit)) {
					said[lit.Pos()] = true
					t.Errorf("%s: fmt.%s(%q) types a sentence in the handler: name it in runtime/language", fset.Position(x.Pos()), name, unquote(lit))
				}
			case *ast.BasicLit:
				if x.Kind == token.STRING && !skip && !said[x.Pos()] && prose(unquote(x)) {
					t.Errorf("%s: %q is a sentence typed in the handler: name it in runtime/language", fset.Position(x.Pos()), unquote(x))
				}
			}
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
	if read < least {
		t.Fatalf("read %d files of %s; the glob is wrong", read, dir)
	}
}

// proseEnd: a letter followed by ". " or by a "." that ends the text.
var proseEnd = regexp.MustCompile(`\pL\.( |$)`)

// prose: what a sentence or a fragment of one looks like and a key name,
// JSON pointer, enum value, handle prefix or one-word label does not: two or
// more spaces, or a letter that ends a sentence.
func prose(v string) bool { return strings.Count(v, " ") >= 2 || proseEnd.MatchString(v) }

func unquote(lit *ast.BasicLit) string {
	v, err := strconv.Unquote(lit.Value)
	if err != nil {
		return lit.Value
	}
	return v
}

// fmtFormat is the literal format of a fmt.Sprintf or fmt.Errorf call, and
// the function's name; nil when the call is neither or its format is no literal.
func fmtFormat(c *ast.CallExpr) (*ast.BasicLit, string) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || len(c.Args) == 0 {
		return nil, ""
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "fmt" || sel.Sel.Name != "Sprintf" && sel.Sel.Name != "Errorf" {
		return nil, ""
	}
	lit, ok := c.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return nil, ""
	}
	return lit, sel.Sel.Name
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

// TestExecutorImportsOnlyGenerated: the executor (runtime/browser/...) may
// import, of this module, only itself, the generated bounds
// (generated/limits) and the generated surface's enums, tables and types
// (generated/surface); never the handlers, the pipeline, governance, the
// language context, the MCP edge or the server (docs/ARCHITECTURE.md,
// Dependency rules).
func TestExecutorImportsOnlyGenerated(t *testing.T) {
	const mod = "github.com/ghostlight-dev/ghostlight/"
	for pkg, imps := range pkgImports(t, "../runtime/browser/...", true) {
		for _, imp := range imps {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			if imp != mod+"generated/limits" && imp != mod+"generated/surface" && imp != mod+"runtime/browser" && !strings.HasPrefix(imp, mod+"runtime/browser/") {
				t.Errorf("%s imports %s: the executor takes only generated/limits and generated/surface of the rest of the module", pkg, imp)
			}
		}
	}
}

// executorSurfaceUsers are the executor files (under runtime/browser) that
// still import generated/surface, each for a type, an enum or a table the
// spec owns (CONTRIBUTING.md: no enum is typed in Go outside generated/),
// never for a bound. A file that stops importing it must leave this list.
var executorSurfaceUsers = map[string]string{
	// Typed refusals: each Kind maps to a surface.Refusal and its Reason
	// (docs/decisions/typed-refusals.md); the tests walk surface.ReasonValues.
	"refusal.go":               "surface.Refusal, surface.Reason*, surface.DialogType",
	"refusal_test.go":          "surface.ReasonValues",
	"capture/refusal.go":       "surface.Refusal, surface.Reason*",
	"capture/refusal_test.go":  "surface.ReasonValues",
	"input/refusal.go":         "surface.Refusal, surface.Reason*",
	"input/refusal_test.go":    "surface.ReasonValues",
	"pagejs/refusal.go":        "surface.Refusal, surface.Reason*",
	"pagejs/refusal_test.go":   "surface.ReasonValues",
	"config.go":                "enums: browser_navigate reuse, browser_history action, Readiness",
	"workspace.go":             "enum: Readiness (unknown)",
	"dialog.go":                "enum: DialogType",
	"downloads.go":             "enum type: DownloadState (a download fact the handlers return as is)",
	"downloads_test.go":        "enum: DownloadState",
	"downloads_person_test.go": "enum: DownloadState",
	"tabhandle.go":             "handle prefix: HandlePrefixTab",
	"input/mouse.go":           "enum: browser_click button",
	"live/live.go":             "table: NamedKeys",
	"pagejs/find.go":           "enum: browser_find scope",
	"pagejs/inspect.go":        "enum: browser_inspect scope",
	"pagejs/read.go":           "enum: browser_read mode",
	"pagejs/js.go":             "table: CredentialClasses",
	"action/action.go":         "enum: Effect (how far an action's input got, a fact the handlers return as is)",
	"action/action_test.go":    "enum: Effect (what Run reports)",
}

// TestExecutorReadsBoundsFromLimits: no executor file reads a bound through
// generated/surface (it reads generated/limits, the one declaration of each
// number), and only the files of executorSurfaceUsers import
// generated/surface at all, for its types, enums and tables.
func TestExecutorReadsBoundsFromLimits(t *testing.T) {
	const surfacePath = "github.com/ghostlight-dev/ghostlight/generated/surface"
	fset := token.NewFileSet()
	// Every constant generated/limits declares is a bound.
	bounds := map[string]bool{}
	limitFiles, _ := filepath.Glob("../generated/limits/*.go")
	for _, path := range limitFiles {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, sp := range g.Specs {
					for _, n := range sp.(*ast.ValueSpec).Names {
						bounds[n.Name] = true
					}
				}
			}
		}
	}
	if len(bounds) < 100 {
		t.Fatalf("read %d bound constants from generated/limits; the glob is wrong", len(bounds))
	}
	root := "../runtime/browser"
	importers, files := map[string]bool{}, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		local := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == surfacePath {
				local = "surface"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			return nil
		}
		importers[rel] = true
		if _, ok := executorSurfaceUsers[rel]; !ok {
			t.Errorf("runtime/browser/%s imports generated/surface: the executor reads bounds from generated/limits; a type, enum or table it truly needs is listed in executorSurfaceUsers with why", rel)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && bounds[sel.Sel.Name] {
					t.Errorf("%s: reads the bound %s.%s: read generated/limits", fset.Position(sel.Pos()), local, sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d executor files; the walk is wrong", files)
	}
	for rel := range executorSurfaceUsers {
		if !importers[rel] {
			t.Errorf("runtime/browser/%s no longer imports generated/surface: remove it from executorSurfaceUsers", rel)
		}
	}
	t.Logf("%d executor files, %d import generated/surface (types, enums, tables; no bound)", files, len(importers))
}
