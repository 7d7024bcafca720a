package conformance

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updatePkgMap = flag.Bool("update-pkgmap", false, "rewrite docs/ARCHITECTURE.md's package map from go list")

const (
	pkgMapStart = "<!-- package map: `go test ./conformance -run TestPackageMap -update-pkgmap` writes it from go list -->"
	pkgMapEnd   = "<!-- end of package map -->"
)

// generatedDocs describes the generated packages, whose files the generator
// owns (a doc.go there would be removed as stale).
var generatedDocs = map[string]string{
	"generated/surface":  "is the Ghostlight surface in Go, rendered from spec/: the envelope, bounds, enums, one decoder per tool, the catalog and the Handler the runtime implements.",
	"generated/operator": "is the Operator profile's verbs in Go, rendered from spec/, on generated/surface's types.",
}

// packageMap renders one line per package of the module, from go list: its
// path and its package comment's first sentence.
func packageMap(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Name}}\t{{.Doc}}", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/ghostlight-dev/ghostlight/"
	lead := regexp.MustCompile(`^(Package|Command) \S+ `)
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, rest, _ := strings.Cut(l, "\t")
		name, doc, _ := strings.Cut(rest, "\t")
		path = strings.TrimPrefix(path, mod)
		if d, ok := generatedDocs[path]; ok && doc == "" {
			doc = d
		}
		if doc == "" {
			t.Errorf("%s has no package comment: the map says what each package holds", path)
		}
		kind := ""
		if name == "main" {
			kind = " (command)"
		}
		b.WriteString("- `" + path + "`" + kind + " " + lead.ReplaceAllString(doc, "") + "\n")
	}
	return b.String()
}

// TestPackageMap: docs/ARCHITECTURE.md opens with every package of the module,
// and none that is gone, as go list reports them.
func TestPackageMap(t *testing.T) {
	const file = "../docs/ARCHITECTURE.md"
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, pkgMapStart), strings.Index(doc, pkgMapEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/ARCHITECTURE.md has no package map between %q and %q", pkgMapStart, pkgMapEnd)
	}
	want := packageMap(t)
	got := doc[i+len(pkgMapStart)+1 : j]
	if got == want {
		return
	}
	if *updatePkgMap {
		if err := os.WriteFile(file, []byte(doc[:i+len(pkgMapStart)+1]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/ARCHITECTURE.md's package map is stale (rerun with -update-pkgmap); go list says:\n%s", want)
}

// TestDecisionsIndexed: every file of docs/decisions is listed in its
// README.md, every link there names a file, and each decision says its
// context, the decision and its figure.
func TestDecisionsIndexed(t *testing.T) {
	const dir = "../docs/decisions"
	index, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+\.md)\)`).FindAllStringSubmatch(string(index), -1) {
		linked[m[1]] = true
		if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
			t.Errorf("docs/decisions/README.md links %s, which does not exist", m[1])
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	for _, f := range files {
		base := filepath.Base(f)
		if base == "README.md" {
			continue
		}
		if !linked[base] {
			t.Errorf("docs/decisions/%s is not listed in docs/decisions/README.md: add a line `- [its title](%s)`", base, base)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{"**Context.**", "**Decision.**", "**Figure.**"} {
			if !strings.Contains(string(b), part) {
				t.Errorf("docs/decisions/%s says no %s", base, part)
			}
		}
	}
}
