package uploads

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestRead: a file beneath the root is read; a dotfile, a link and a file
// outside are refused, each naming its rule.
func TestRead(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("abc"), 0o600)
	os.WriteFile(filepath.Join(root, ".env"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(other, "out.txt"), []byte("y"), 0o600)
	rules := []Rule{{Rule: RuleReadRoots, Where: "the roots", Roots: ResolveRoots([]string{root})}}
	ex := Exclusions{Dotfiles: true}
	files, sizes, r := Read([]string{filepath.Join(root, "a.txt")}, rules, ex)
	if r != nil || len(files) != 1 || string(files[0].Data) != "abc" || files[0].Name != "a.txt" || sizes[0] != 3 {
		t.Fatalf("inside: %+v %v %+v", files, sizes, r)
	}
	for path, rule := range map[string]string{
		filepath.Join(root, ".env"):     RuleDotfiles,
		filepath.Join(other, "out.txt"): RuleReadRoots,
	} {
		if _, _, r := Read([]string{path}, rules, ex); r == nil || r.Reason != surface.ReasonPathDenied || r.Limit != rule {
			t.Errorf("%s: %+v", filepath.Base(path), r)
		}
	}
	// A link swapped in after the check is not followed.
	Checked = func(real []string) {
		os.Remove(real[0])
		os.Symlink(filepath.Join(other, "out.txt"), real[0])
	}
	defer func() { Checked = func([]string) {} }()
	if _, _, r := Read([]string{filepath.Join(root, "a.txt")}, rules, ex); r == nil || r.Limit != RuleNoLinks {
		t.Fatalf("swapped link: %+v", r)
	}
}

// TestInlineAndStage: inline names stay one path element; staged files land
// one per directory.
func TestInlineAndStage(t *testing.T) {
	files, r := Inline([]*surface.InlineFile{{Name: "../x/y.txt", DataBase64: "aGk="}, {Name: "..", DataBase64: ""}})
	if r != nil || files[0].Name != ".._x_y.txt" || string(files[0].Data) != "hi" || files[1].Name != "file" {
		t.Fatalf("inline: %+v %+v", files, r)
	}
	if _, r := Inline([]*surface.InlineFile{{Name: "a", DataBase64: "%%"}}); r == nil || r.Pointer != "/files/0/data_base64" {
		t.Fatalf("bad base64: %+v", r)
	}
	paths, r := Stage(t.TempDir(), append(files, Captured("image/webp", []byte("img"))...))
	if r != nil || len(paths) != 3 || filepath.Base(paths[2]) != "capture.webp" {
		t.Fatalf("stage: %v %+v", paths, r)
	}
	if b, _ := os.ReadFile(paths[0]); string(b) != "hi" {
		t.Fatalf("staged bytes: %q", b)
	}
}
