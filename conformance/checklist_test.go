package conformance

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// checkItem is one line of CONTRIBUTING.md's add-a-tool list: a path, and
// what the file (or, for a directory, one of its tests) holds, each with
// <name> and <Name> standing for the tool's MCP and Go names.
type checkItem struct {
	line        int
	path, holds string
}

// addAToolChecklist reads the "- [ ]" lines of CONTRIBUTING.md's "Add a tool"
// section: the first code span is the path, and a code span after "holds"
// (or, for a directory, "tests hold") is what it must contain.
func addAToolChecklist(t *testing.T) []checkItem {
	t.Helper()
	f, err := os.Open("../CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	span := regexp.MustCompile("^- \\[ \\] `([^`]+)`( (?:tests hold|holds) (``([^`].*?)``|`([^`]+)`))?")
	var items []checkItem
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "## ") {
			in = l == "## Add a tool"
			continue
		}
		if !in || !strings.HasPrefix(l, "- [ ]") {
			continue
		}
		m := span.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("CONTRIBUTING.md:%d: a checklist line must start with a path in backticks: %q", n, l)
		}
		items = append(items, checkItem{line: n, path: m[1], holds: m[4] + m[5]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return items
}

// goName is the Go name the generator gives a tool (browser_fill_form →
// BrowserFillForm); the catalog.go line of the checklist holds it to the
// generated Handler.
func goName(tool string) string {
	var b strings.Builder
	for _, p := range strings.Split(tool, "_") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

// notATool lists the files of a per-tool shape that belong to no one tool.
var notATool = map[string]bool{
	"generated/fixtures/capabilities.json": true, // the capability cases of every tool
}

// TestAddAToolChecklist: CONTRIBUTING.md's add-a-tool list and the code agree.
// Every tool of the catalog has every place the list names (a tool without a
// handler, a spec file, a definition, docs or a test fails here), every file of
// a per-tool shape belongs to a tool of the catalog, and no path is stale.
func TestAddAToolChecklist(t *testing.T) {
	items := addAToolChecklist(t)
	if len(items) < 8 {
		t.Fatalf("the add-a-tool list has %d places; the section or its format changed", len(items))
	}
	catalog := map[string]bool{}
	for _, tool := range surface.Catalog {
		catalog[tool.Name] = true
	}
	expand := func(s, tool string) string {
		return strings.NewReplacer("<name>", tool, "<Name>", goName(tool)).Replace(s)
	}
	for _, it := range items {
		if !strings.Contains(it.path, "<name>") {
			if _, err := os.Stat(filepath.Join("..", it.path)); err != nil {
				t.Errorf("CONTRIBUTING.md:%d: %s does not exist", it.line, it.path)
				continue
			}
		}
		for _, tool := range surface.Catalog {
			path := filepath.Join("..", expand(it.path, tool.Name))
			if it.holds == "" {
				if _, err := os.Stat(path); err != nil {
					t.Errorf("CONTRIBUTING.md:%d: %s has no %s", it.line, tool.Name, expand(it.path, tool.Name))
				}
				continue
			}
			if want := expand(it.holds, tool.Name); !holds(t, path, want) {
				t.Errorf("CONTRIBUTING.md:%d: %s: %s holds no %q", it.line, tool.Name, expand(it.path, tool.Name), want)
			}
		}
		// The other way: a per-tool file names a tool of the catalog.
		if strings.Contains(it.path, "<name>") {
			glob := filepath.Join("..", strings.ReplaceAll(it.path, "<name>", "*"))
			files, _ := filepath.Glob(glob)
			pre, post, _ := strings.Cut(filepath.Base(it.path), "<name>")
			for _, f := range files {
				base := filepath.Base(f)
				if notATool[filepath.ToSlash(strings.TrimPrefix(f, "../"))] {
					continue
				}
				if strings.HasSuffix(base, "_test.go") && !strings.HasSuffix(post, "_test.go") {
					continue
				}
				if name := strings.TrimSuffix(strings.TrimPrefix(base, pre), post); !catalog[name] {
					t.Errorf("CONTRIBUTING.md:%d: %s is of the shape %s but %q is no tool of the catalog", it.line, f, it.path, name)
				}
			}
		}
	}
}

// holds reports whether the file at path contains want; for a directory,
// whether one of its test files does.
func holds(t *testing.T, path, want string) bool {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	files := []string{path}
	if fi.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*_test.go"))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), want) {
			return true
		}
	}
	return false
}

// argsSwitches are the type switches over tools' Args that stay, each with
// why: they say what a tool means, not how a composite prepares it.
var argsSwitches = map[string]string{
	// The values a call writes (the origin guard): a tool's own semantics.
	// A candidate for a generated accessor from spec/ (a field's "writes" fact).
	"writeValues": "runtime/pipeline/origin.go",
}

// TestNoArgsSwitch: no handwritten code chooses by a tool's Args type, so a
// new tool cannot be forgotten by a switch; what composites need of a step
// is generated on every Args (SetTab, Timeout/SetTimeout, TargetHint).
func TestNoArgsSwitch(t *testing.T) {
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir("../runtime", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		n++
		fn := ""
		ast.Inspect(f, func(x ast.Node) bool {
			if d, ok := x.(*ast.FuncDecl); ok {
				fn = d.Name.Name
			}
			sw, ok := x.(*ast.TypeSwitchStmt)
			if !ok {
				return true
			}
			args := 0
			for _, cl := range sw.Body.List {
				for _, e := range cl.(*ast.CaseClause).List {
					if sel, ok := unstar(e).(*ast.SelectorExpr); ok && strings.HasSuffix(sel.Sel.Name, "Args") {
						args++
					}
				}
			}
			if args > 1 && argsSwitches[fn] != filepath.ToSlash(strings.TrimPrefix(path, "../")) {
				t.Errorf("%s: a type switch over %d tools' Args; generate what it needs on every Args (gen/emit/golang_tool.go compositeAccessors)", fset.Position(sw.Pos()), args)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d runtime files; the walk is wrong", n)
	}
}

func unstar(e ast.Expr) ast.Expr {
	if s, ok := e.(*ast.StarExpr); ok {
		return s.X
	}
	return e
}
