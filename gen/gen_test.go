package gen

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/gen/emit"
	"github.com/ghostlight-dev/ghostlight/gen/ir"
	"github.com/ghostlight-dev/ghostlight/gen/load"
)

var update = flag.Bool("update", false, "rewrite golden files")

// miniSpec assembles the mini spec with the real schema.cue beside it.
func miniSpec(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("../spec/schema.cue", filepath.Join(dir, "schema.cue"))
	cues, err := filepath.Glob("testdata/mini/*.cue")
	if err != nil || len(cues) < 2 {
		t.Fatalf("mini spec files: %v %v", cues, err)
	}
	for _, f := range cues {
		copyFile(f, filepath.Join(dir, filepath.Base(f)))
	}
	copyFile("testdata/mini/cue.mod/module.cue", filepath.Join(dir, "cue.mod/module.cue"))
	copyFile("testdata/mini/profile.json", filepath.Join(dir, "profile.json"))
	return dir
}

// TestGolden renders the mini spec and compares every file with its golden copy.
func TestGolden(t *testing.T) {
	spec, err := load.Dir(miniSpec(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	files, err := emit.Render(spec, "mini")
	if err != nil {
		t.Fatal(err)
	}
	golden := "testdata/mini/golden"
	if *update {
		os.RemoveAll(golden)
		for name, b := range files {
			p := filepath.Join(golden, name+".golden")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var names []string
	filepath.Walk(golden, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(golden, p)
			names = append(names, strings.TrimSuffix(filepath.ToSlash(rel), ".golden"))
		}
		return nil
	})
	if len(names) != len(files) {
		t.Errorf("rendered %d files, golden has %d", len(files), len(names))
	}
	for _, n := range names {
		want, _ := os.ReadFile(filepath.Join(golden, n+".golden"))
		if !bytes.Equal(files[n], want) {
			t.Errorf("%s differs from its golden copy (run go test ./gen/ -run Golden -update and read the diff):\n%s", n, lineDiff(want, files[n]))
		}
	}
	for n := range files {
		if _, err := os.Stat(filepath.Join(golden, n+".golden")); err != nil {
			t.Errorf("%s has no golden copy", n)
		}
	}
}

// lineDiff names the first lines where two renders part, with a little
// context: enough to read what changed without a diff tool.
func lineDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		if i < len(w) && i < len(g) && w[i] == g[i] {
			continue
		}
		var b strings.Builder
		for j := i; j < i+4; j++ {
			if j < len(w) {
				fmt.Fprintf(&b, "  line %d want: %s\n", j+1, w[j])
			}
			if j < len(g) {
				fmt.Fprintf(&b, "  line %d got:  %s\n", j+1, g[j])
			}
		}
		return b.String()
	}
	return ""
}

// TestDeterministic renders the real spec twice: identical bytes.
func TestDeterministic(t *testing.T) {
	a := renderReal(t, nil)
	b := renderReal(t, nil)
	for n := range a {
		if !bytes.Equal(a[n], b[n]) {
			t.Errorf("%s differs between two renders", n)
		}
	}
}

// loadReal loads spec/ as go generate ./... does.
func loadReal(t *testing.T) *ir.Spec {
	t.Helper()
	spec, err := load.Dir("../spec", nil)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

func renderReal(t *testing.T, overlay map[string]string) map[string][]byte {
	t.Helper()
	spec, err := load.Dir("../spec", overlay)
	if err != nil {
		t.Fatal(err)
	}
	files, err := emit.Render(spec, "github.com/ghostlight-dev/ghostlight/generated")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestOneBoundChangesTogether changes one bound in CUE and checks that the
// schema, decoder constants, docs and fixtures change together and nothing
// else does.
func TestOneBoundChangesTogether(t *testing.T) {
	src, err := os.ReadFile("../spec/bounds.cue")
	if err != nil {
		t.Fatal(err)
	}
	old := `click_count: {doc: "Clicks in one click action.", min: 1, max: 3,`
	if !bytes.Contains(src, []byte(old)) {
		t.Fatal("bounds.cue no longer holds the click_count line this test edits")
	}
	changed := strings.Replace(string(src), old, `click_count: {doc: "Clicks in one click action.", min: 1, max: 4,`, 1)
	before := renderReal(t, nil)
	after := renderReal(t, map[string]string{"bounds.cue": changed})
	var diff []string
	for n := range after {
		if !bytes.Equal(before[n], after[n]) {
			diff = append(diff, n)
		}
	}
	sort.Strings(diff)
	// The number is written once, in limits: surface/bounds.go only names it.
	want := []string{"docs/tools.md", "fixtures/browser_click.json", "limits/bounds.go", "surface/tools/browser_click.json"}
	if strings.Join(diff, " ") != strings.Join(want, " ") {
		t.Fatalf("changing click_count max changed %v, want exactly %v", diff, want)
	}
	if !regexp.MustCompile(`ClickCountMax\s+= 4\b`).Match(after["limits/bounds.go"]) {
		t.Error("limits/bounds.go does not carry the new maximum the decoder reads")
	}
}

// TestGoldenCompiles builds the mini spec's generated Go in a module of its
// own: the generator's output (both surfaces' packages, importing the real
// support package) is valid Go.
func TestGoldenCompiles(t *testing.T) {
	spec, err := load.Dir(miniSpec(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	files, err := emit.Render(spec, "mini")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, b := range files {
		if strings.HasPrefix(name, "docs/") || strings.Contains(name, "/fixtures/") || strings.HasPrefix(name, "fixtures/") {
			continue
		}
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The mini packages import the real support package: require this
	// module and point it at the working tree.
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mod := "module mini\n\ngo 1.26\n\nrequire github.com/ghostlight-dev/ghostlight v0.0.0\n\nreplace github.com/ghostlight-dev/ghostlight => " + root + "\n"
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644)
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generated mini packages do not build: %v\n%s", err, out)
	}
}

// TestGeneratedImportsSupport: the generator writes no copy of the support
// package; every rendered Go file that uses it imports the one handwritten
// package, and no other path named support.
func TestGeneratedImportsSupport(t *testing.T) {
	files := renderReal(t, nil)
	users := 0
	for name, b := range files {
		if strings.HasPrefix(name, "support/") {
			t.Errorf("%s: the generator renders a copy of the support package", name)
		}
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		for _, m := range regexp.MustCompile(`"([^"\s]*/support)"`).FindAllSubmatch(b, -1) {
			if string(m[1]) != emit.SupportImport {
				t.Errorf("%s imports %s, want %s", name, m[1], emit.SupportImport)
			}
		}
		if bytes.Contains(b, []byte(`"`+emit.SupportImport+`"`)) {
			users++
		}
	}
	if users == 0 {
		t.Fatalf("no rendered Go file imports %s", emit.SupportImport)
	}
	t.Logf("%d rendered Go files import %s", users, emit.SupportImport)
}
