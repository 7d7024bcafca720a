package gen

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMiniAddATool walks CONTRIBUTING.md's add-a-tool list end to end for
// a tool that exists only in the mini spec (mini_select, the worked
// example; the real surface keeps its 24): its declaration is a
// tool_<name>.cue file, and every place the list says `go generate` writes
// is in the rendered mini output, holding what the list says. A line the
// generator stopped writing for a new tool, or a generated place the list
// names wrongly, fails here; the handwritten places (icons, handler, tests,
// contract catalog) belong to the real surface and TestAddAToolChecklist.
func TestMiniAddATool(t *testing.T) {
	const name, goName = "mini_select", "MiniSelect"
	f, err := os.Open("../CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	span := regexp.MustCompile("^- \\[ \\] `([^`]+)`( (?:tests hold|holds) (``([^`].*?)``|`([^`]+)`))?")
	expand := strings.NewReplacer("<name>", name, "<Name>", goName).Replace
	walked, in := 0, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "## ") {
			in = l == "## Add a tool"
			continue
		}
		m := span.FindStringSubmatch(l)
		if !in || m == nil {
			continue
		}
		path, holds := expand(m[1]), expand(m[4]+m[5])
		var file string
		switch {
		case strings.HasPrefix(path, "spec/tool_"):
			file = filepath.Join("testdata/mini", strings.TrimPrefix(path, "spec/"))
			holds = `name:    "` + name + `"`
		case strings.HasPrefix(path, "generated/"):
			file = filepath.Join("testdata/mini/golden", strings.TrimPrefix(path, "generated/")+".golden")
		default:
			continue // handwritten beside the real surface
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("CONTRIBUTING.md:%d: %s: no %s for %s", n, path, file, name)
			continue
		}
		if holds != "" && !strings.Contains(string(b), holds) {
			t.Errorf("CONTRIBUTING.md:%d: %s holds no %q", n, file, holds)
		}
		walked++
	}
	if walked < 6 {
		t.Fatalf("walked %d places of the add-a-tool list; the list or its format changed", walked)
	}
	t.Logf("%s: %d places of the add-a-tool list", name, walked)
}
