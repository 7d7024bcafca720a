package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/gen/emit"
	"github.com/ghostlight-dev/ghostlight/gen/write"
)

// TestGeneratedIsFresh renders spec/ in memory exactly as go generate ./...
// does (gen/doc.go: -spec ../spec -out ../generated -readme ../README.md)
// and compares every file with the committed generated/ and README.md's
// generated section. A file gen would write differently, a file it would
// add, and an owned file it would delete are all stale. Git is not the only
// check: this fails in go test before anything is committed.
func TestGeneratedIsFresh(t *testing.T) {
	spec := loadReal(t)
	files, err := emit.Render(spec, "github.com/ghostlight-dev/ghostlight/generated")
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	diffs := map[string]string{}
	for name, want := range files {
		have, err := os.ReadFile(filepath.Join("../generated", filepath.FromSlash(name)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			stale = append(stale, name+" (missing: gen would write it)")
		case err != nil:
			t.Fatal(err)
		case !bytes.Equal(have, want):
			stale = append(stale, name)
			diffs[name] = unifiedDiff("generated/"+name, have, want)
		}
	}
	err = filepath.WalkDir("../generated", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("../generated", p)
		rel = filepath.ToSlash(rel)
		if _, ok := files[rel]; !ok && write.Owned(rel) {
			stale = append(stale, rel+" (extra: gen would delete it)")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	section, err := emit.ReadmeSection(spec)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := write.Spliced(readme, emit.ReadmeBegin, emit.ReadmeEnd, section)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readme, fresh) {
		stale = append(stale, "../README.md")
		diffs["../README.md"] = unifiedDiff("README.md", readme, fresh)
	}

	if len(stale) == 0 {
		return
	}
	sort.Strings(stale)
	var b strings.Builder
	fmt.Fprintf(&b, "%d generated file(s) do not match spec/ (run go generate ./... and commit the result):\n", len(stale))
	for _, s := range stale {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	shown := 0
	for _, s := range stale {
		if d, ok := diffs[s]; ok && shown < 3 {
			b.WriteString(d)
			shown++
		}
	}
	t.Error(b.String())
}

// unifiedDiff is one unified hunk around the first region where committed
// (a) and rendered (b) part: common leading and trailing lines trimmed, three
// lines of context, at most 20 changed lines each side. Enough to read what
// went stale without a diff tool.
func unifiedDiff(name string, a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	const ctx, most = 3, 20
	start := max(pre-ctx, 0)
	aEnd, bEnd := len(al)-suf, len(bl)-suf
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s (committed)\n+++ %s (rendered from spec/)\n", name, name)
	fmt.Fprintf(&out, "@@ -%d +%d @@\n", start+1, start+1)
	for _, l := range al[start:pre] {
		fmt.Fprintf(&out, " %s\n", l)
	}
	side := func(sign string, lines []string) {
		for i, l := range lines {
			if i == most {
				fmt.Fprintf(&out, "%s… %d more lines\n", sign, len(lines)-most)
				return
			}
			fmt.Fprintf(&out, "%s%s\n", sign, l)
		}
	}
	side("-", al[pre:aEnd])
	side("+", bl[pre:bEnd])
	for _, l := range al[aEnd:min(aEnd+ctx, len(al))] {
		fmt.Fprintf(&out, " %s\n", l)
	}
	return out.String()
}
