package input

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// objectID resolves a main-world element to a remote object id, as the caller's handle lookup would.
func objectID(t *testing.T, p *rod.Page, expr string) proto.RuntimeRemoteObjectID {
	t.Helper()
	res, err := proto.RuntimeEvaluate{Expression: expr}.Call(p.Context(tctx(t, 5*time.Second)))
	if err != nil || res.Result.ObjectID == "" {
		t.Fatalf("resolve %s: %v", expr, err)
	}
	return res.Result.ObjectID
}

func TestSetFiles(t *testing.T) {
	p := newPage(t, doc(`<input type=file id=f multiple><script>
window.got = [];
f.addEventListener('change', async () => { for (const x of f.files) got.push(x.name + ':' + x.size + ':' + await x.text()); });
</script>`))
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "notes.md")
	if err := os.WriteFile(a, []byte("alpha"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("# title\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SetFiles(tctx(t, 5*time.Second), p, objectID(t, p, "f"), []string{a, b}); err != nil {
		t.Fatal(err)
	}
	if !waitJS(t, p, "got.length === 2", 2*time.Second) {
		t.Fatalf("change listener saw %s", evalStr(t, p, "JSON.stringify(got)"))
	}
	var got []string
	evalInto(t, p, "got", &got)
	if !slices.Equal(got, []string{"a.txt:5:alpha", "notes.md:8:# title\n"}) {
		t.Errorf("page read %q", got)
	}
	if err := SetFiles(tctx(t, 5*time.Second), p, "", []string{a}); KindOf(err) != KindInvalidArgument {
		t.Errorf("empty object id: %v", err)
	}
	if err := SetFiles(tctx(t, 5*time.Second), p, objectID(t, p, "document.body"), []string{a}); KindOf(err) != KindProtocol {
		t.Errorf("non-input object: %v", err)
	}
}

const dropPage = `<div id=zone style="position:absolute;left:20px;top:20px;width:300px;height:200px;background:#eee">drop here</div>
<script>
window.got = [];
zone.addEventListener('dragenter', e => e.preventDefault());
zone.addEventListener('dragover', e => e.preventDefault());
zone.addEventListener('drop', async e => {
  e.preventDefault();
  const files = [...e.dataTransfer.files];
  for (const f of files) got.push({name: f.name, size: f.size, type: f.type, head: await f.slice(0, 8).text()});
});
</script>`

func TestDropFiles(t *testing.T) {
	p := newPage(t, doc(dropPage))
	stageDir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\nrest-of-image")
	files := []File{
		{Name: "capture.png", MIME: "image/png", Data: png},
		{Name: "capture", MIME: "image/png", Data: png},
		{Name: "capture.png", MIME: "image/png", Data: []byte("second")},
	}
	eff, err := DropFiles(tctx(t, 5*time.Second), p, center(t, p, "#zone"), files, stageDir)
	if err != nil || eff != EffectApplied {
		t.Fatalf("DropFiles = %v, %v", eff, err)
	}
	if !waitJS(t, p, "got.length === 3", 2*time.Second) {
		t.Fatalf("drop listener saw %s", evalStr(t, p, "JSON.stringify(got)"))
	}
	var got []struct {
		Name, Type, Head string
		Size             int
	}
	raw := evalStr(t, p, "JSON.stringify(got)")
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if got[0].Name != "capture.png" || got[0].Size != len(png) || got[0].Type != "image/png" || got[0].Head != "\ufffdPNG\r\n\x1a\n" {
		t.Errorf("first file %+v", got[0])
	}
	// Chromium disambiguates equal names in one drop itself.
	if got[1].Name != "capture (1).png" || got[1].Type != "image/png" {
		t.Errorf("extension not derived from MIME: %+v", got[1])
	}
	if got[2].Name != "capture (2).png" || got[2].Size != 6 || got[2].Head != "second" {
		t.Errorf("same-named file %+v", got[2])
	}
	// The staged bytes live under the caller's directory only.
	var staged int
	_ = filepath.WalkDir(stageDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			staged++
		}
		return nil
	})
	if staged != 3 {
		t.Errorf("%d staged files, want 3", staged)
	}

	for name, fs := range map[string][]File{
		"none":      nil,
		"path name": {{Name: "../x.png", Data: png}},
		"empty":     {{Name: "", Data: png}},
	} {
		if eff, err := DropFiles(tctx(t, 5*time.Second), p, Point{50, 50}, fs, stageDir); KindOf(err) != KindInvalidArgument || eff != EffectNone {
			t.Errorf("%s: %v, %v", name, eff, err)
		}
	}
	if _, err := DropFiles(tctx(t, 5*time.Second), p, Point{50, 50}, files, filepath.Join(stageDir, "missing", "dir")); KindOf(err) != KindStaging {
		t.Errorf("unwritable stage dir: %v", err)
	}
	if !strings.HasPrefix(evalStr(t, p, "location.protocol"), "http") {
		t.Error("page navigated away")
	}
}
