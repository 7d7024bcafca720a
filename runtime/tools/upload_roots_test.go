//go:build unix

package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/uploads"
)

// uploadRefusal is the refusal part of an upload's facts.
type uploadRefusal struct {
	Reason  surface.Reason `json:"reason"`
	Pointer string         `json:"pointer"`
	Limit   string         `json:"limit"`
}

func refusalOf(t *testing.T, r pipeline.Result) uploadRefusal {
	t.Helper()
	var f uploadRefusal
	if err := json.Unmarshal(r.Envelope.Facts, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// noPathIn fails when a result holds any of the words (a path, a file name).
func noPathIn(t *testing.T, r pipeline.Result, words ...string) {
	t.Helper()
	for _, w := range words {
		if w != "" && strings.Contains(string(r.JSON), w) {
			t.Fatalf("the result echoes %q: %s", w, r.JSON)
		}
	}
}

// TestUploadRootsHold: with the working directory as the only root (the
// package's tests run with os.TempDir), /etc/shadow, a symlink out of the
// root, a path climbing out through "..", a fifo and a system pseudo-file
// are refused before the browser is asked anything, naming the rule and
// never the path; a file inside the root is attached and the page reads
// its size.
func TestUploadRootsHold(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": `<title>Upload</title><label>Doc <input type="file" id="doc" onchange="window.size = this.files[0].size; window.fname = this.files[0].name"></label>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	doc := h.actTarget(tab, "Doc")
	dir := t.TempDir()

	link := filepath.Join(dir, "innocent-link.txt")
	if err := os.Symlink("/etc/passwd", link); err != nil {
		t.Fatal(err)
	}
	climb := filepath.Join(dir, "sub") + strings.Repeat("/..", strings.Count(dir, "/")+1) + "/etc/passwd"
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	fifo := filepath.Join(dir, "secret-fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		reason     surface.Reason
		limit      string
	}{
		{"shadow", "/etc/shadow", surface.ReasonPathDenied, uploads.RuleWorkDir},
		{"symlink out", link, surface.ReasonPathDenied, uploads.RuleWorkDir},
		{"dot-dot", climb, surface.ReasonPathDenied, uploads.RuleWorkDir},
		{"missing outside", "/etc/no-such-file-4711", surface.ReasonPathDenied, uploads.RuleWorkDir},
		{"fifo", fifo, surface.ReasonFileRefused, ""},
		{"missing inside", filepath.Join(dir, "missing.txt"), surface.ReasonFileRefused, ""},
	} {
		r := h.call("browser_upload", `{"target":"`+doc+`","paths":[`+quote(c.path)+`]}`)
		f := refusalOf(t, r)
		if f.Reason != c.reason || f.Pointer != "/paths/0" || f.Limit != c.limit || r.Envelope.Effect != surface.EffectNone {
			t.Fatalf("%s: %s", c.name, r.JSON)
		}
		if c.reason == surface.ReasonPathDenied && (r.Envelope.Status != surface.StatusBlocked || !strings.Contains(r.Envelope.Summary, "working directory")) {
			t.Fatalf("%s: %s", c.name, r.JSON)
		}
		noPathIn(t, r, "shadow", "passwd", "innocent", "fifo", "missing", dir, "no-such")
	}
	var size int
	h.actEval(tab, `window.size ?? -1`, &size)
	if size != -1 {
		t.Fatalf("a refused file reached the page (%d bytes)", size)
	}

	// Inside the root: attached, under its own name, and readable.
	ok := filepath.Join(dir, "report.txt")
	os.WriteFile(ok, []byte("twelve bytes"), 0o600)
	r := h.must("browser_upload", `{"target":"`+doc+`","paths":[`+quote(ok)+`]}`)
	noPathIn(t, r, "report", dir)
	h.actEval(tab, `window.size`, &size)
	if size != 12 || h.actEvalString(tab, `window.fname`) != "report.txt" {
		t.Fatalf("page read %d bytes: %s", size, r.JSON)
	}
	// A symlink inside the root to a file inside it attaches the file.
	inner := filepath.Join(dir, "alias.txt")
	os.Symlink(ok, inner)
	h.must("browser_upload", `{"target":"`+doc+`","paths":[`+quote(inner)+`]}`)
}

// TestUploadRootsRules: the check against each source of roots, without a
// browser.
func TestUploadRootsRules(t *testing.T) {
	root := t.TempDir()
	other := t.TempDir()
	in := filepath.Join(root, "in.txt")
	out := filepath.Join(other, "out.txt")
	os.WriteFile(in, []byte("a"), 0o600)
	os.WriteFile(out, []byte("b"), 0o600)
	rules := []uploads.Rule{{Rule: uploads.RuleReadRoots, Where: "x", Roots: uploads.ResolveRoots([]string{root})}}
	if got, r := uploads.Hold([]string{in}, rules); r != nil || got[0] != in {
		t.Fatalf("inside: %v %+v", got, r)
	}
	if _, r := uploads.Hold([]string{in, out}, rules); r == nil || r.Reason != surface.ReasonPathDenied || r.Pointer != "/paths/1" {
		t.Fatalf("outside: %+v", r)
	}
	// Every list must admit the file: a lower layer narrows.
	two := append(rules, uploads.Rule{Rule: uploads.RuleReadRoots, Roots: uploads.ResolveRoots([]string{other})})
	if _, r := uploads.Hold([]string{in}, two); r == nil || r.Reason != surface.ReasonPathDenied {
		t.Fatalf("two lists: %+v", r)
	}
	// A root that is itself a symlink is resolved before the check.
	rootLink := filepath.Join(other, "root-link")
	os.Symlink(root, rootLink)
	if _, r := uploads.Hold([]string{in}, []uploads.Rule{{Rule: uploads.RuleReadRoots, Roots: uploads.ResolveRoots([]string{rootLink})}}); r != nil {
		t.Fatalf("symlinked root: %+v", r)
	}
	// System pseudo-files are refused whatever the root.
	if _, r := uploads.Hold([]string{"/proc/self/environ"}, []uploads.Rule{{Rule: uploads.RuleReadRoots, Roots: []string{"/"}}}); r == nil || r.Limit != uploads.RuleSystemFiles {
		t.Fatalf("/proc: %+v", r)
	}
	if _, r := uploads.Hold([]string{"/dev/null"}, []uploads.Rule{{Rule: uploads.RuleReadRoots, Roots: []string{"/"}}}); r == nil || r.Limit != uploads.RuleSystemFiles {
		t.Fatalf("/dev: %+v", r)
	}
	// A relative path is no local path.
	if _, r := uploads.Hold([]string{"in.txt"}, rules); r == nil || r.Reason != surface.ReasonPathDenied {
		t.Fatalf("relative: %+v", r)
	}
	// A working directory at the filesystem root admits nothing.
	h := &Handler{workDir: "/"}
	if rs := h.uploadRules(context.Background()); len(rs) != 1 || rs[0].Rule != uploads.RuleWorkDir || len(rs[0].Roots) != 0 {
		t.Fatalf("root as working directory: %+v", rs)
	}
}

// TestUploadRootsSources: files.read_roots, when a layer sets it, decides
// alone; else the client's MCP roots; else the working directory. Each
// refusal names its rule.
func TestUploadRootsSources(t *testing.T) {
	srv := actSite(t, map[string]string{"/": `<title>Upload</title><input type="file" id="f" onchange="window.size = this.files[0].size">`}, nil)
	shared, elsewhere := t.TempDir(), t.TempDir()
	a := filepath.Join(shared, "a.txt")
	b := filepath.Join(elsewhere, "b.txt")
	os.WriteFile(a, []byte("aaa"), 0o600)
	os.WriteFile(b, []byte("bbbb"), 0o600)
	client := WithClientRoots(context.Background(), func(context.Context) ([]string, bool) { return []string{shared}, true })

	// The client's roots: a is inside, b (inside the working directory) is not.
	h := newHarness(t)
	tab := h.actOpen(srv.URL + "/")
	call := func(p *pipeline.Pipeline, ctx context.Context, path string) pipeline.Result {
		r := p.Call(ctx, h.session, "browser_upload", []byte(`{"tab":"`+tab+`","paths":[`+quote(path)+`]}`), nil)
		checkEnvelope(t, "browser_upload", r)
		return r
	}
	if r := call(testPipe, client, a); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("client root: %s", r.JSON)
	}
	r := call(testPipe, client, b)
	if f := refusalOf(t, r); f.Reason != surface.ReasonPathDenied || f.Limit != uploads.RuleClientRoots || !strings.Contains(r.Envelope.Summary, "MCP roots") {
		t.Fatalf("outside the client's roots: %s", r.JSON)
	}
	// A client that shares no roots leaves the working directory in force.
	none := WithClientRoots(context.Background(), func(context.Context) ([]string, bool) { return nil, false })
	if r := call(testPipe, none, b); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("no client roots: %s", r.JSON)
	}

	// files.read_roots decides alone: the client's roots do not widen it.
	ws := filepath.Join(t.TempDir(), "policy.cue")
	os.WriteFile(ws, []byte(`files: read_roots: [`+quote(elsewhere)+`]`), 0o600)
	l, err := governance.Load(governance.Config{Files: []governance.File{{Layer: surface.PolicyLayerWorkspace, Path: ws, Explicit: true}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := pipeline.New(pipeline.Options{Handler: testHandler, Authority: l.Current})
	if r := call(p, client, b); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("read_roots: %s", r.JSON)
	}
	r = call(p, client, a)
	if f := refusalOf(t, r); f.Reason != surface.ReasonPathDenied || f.Limit != uploads.RuleReadRoots || !strings.Contains(r.Envelope.Summary, "workspace layer's files.read_roots") {
		t.Fatalf("outside read_roots: %s", r.JSON)
	}
	noPathIn(t, r, shared, elsewhere, "a.txt")
}
