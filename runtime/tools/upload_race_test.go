//go:build unix

package tools

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/uploads"
)

// postedBytes is a test site whose page posts the content of every file
// attached to its input back to the site: what the page received.
func postedBytes(t *testing.T) (url string, got <-chan string) {
	t.Helper()
	ch := make(chan string, 512)
	srv := actSite(t, map[string]string{"/": `<title>Upload</title><label>Doc <input type="file" id="doc" onchange="
		for (const f of this.files) f.text().then(t => fetch('/got', {method: 'POST', body: t}))"></label>`},
		map[string]http.HandlerFunc{"/got": func(w http.ResponseWriter, r *http.Request) {
			b := make([]byte, 4096)
			n, _ := r.Body.Read(b)
			ch <- string(b[:n])
		}})
	return srv.URL + "/", ch
}

// received waits for the page's post of one attached file (bounded, not
// timed: a post that never comes fails the test).
func received(t *testing.T, got <-chan string) string {
	t.Helper()
	select {
	case s := <-got:
		return s
	case <-time.After(20 * time.Second):
		t.Fatal("the page posted nothing for an attached file")
	}
	return ""
}

// uploadPipe is a pipeline whose workspace layer says src (files.read_roots
// among it).
func uploadPipe(t *testing.T, src string) *pipeline.Pipeline {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "policy.cue")
	if err := os.WriteFile(ws, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := governance.Load(governance.Config{Files: []governance.File{{Layer: surface.PolicyLayerWorkspace, Path: ws, Explicit: true}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pipeline.New(pipeline.Options{Handler: testHandler, Authority: l.Current})
}

// uploadOne uploads one path through p and returns the result and its refusal.
func uploadOne(t *testing.T, p *pipeline.Pipeline, h *harness, tab, path string) (pipeline.Result, uploadRefusal) {
	t.Helper()
	r := p.Call(context.Background(), h.session, "browser_upload", []byte(`{"tab":"`+tab+`","paths":[`+quote(path)+`]}`), nil)
	checkEnvelope(t, "browser_upload", r)
	if r.Envelope.Status == surface.StatusSucceeded {
		return r, uploadRefusal{}
	}
	return r, refusalOf(t, r)
}

// TestUploadReadsOnlyTheRoot: what the page received, for a normal file
// (the control), dotfiles, a symlink out, a hard link to an outside file,
// a policy's exclusion glob, and a symlink swapped in between the check and
// the open. Every refusal names the path's field and the rule.
func TestUploadReadsOnlyTheRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("OUTSIDE-SECRET-5d1e"), 0o600)
	write := func(rel, content string) string {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	report := write("report.txt", "INSIDE-REPORT")
	env := write(".env", "OUTSIDE-SECRET-env")
	gitcfg := write(".git/config", "OUTSIDE-SECRET-git")
	pem := write("keys/server.pem", "OUTSIDE-SECRET-pem")
	link := filepath.Join(root, "notes.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(root, "hard.txt")
	if err := os.Link(secret, hard); err != nil {
		t.Fatal(err)
	}
	url, got := postedBytes(t)
	h := newHarness(t)
	tab := h.actOpen(url)
	p := uploadPipe(t, `files: read_roots: [`+quote(root)+`]
files: exclude: ["*.pem"]
`)

	r, _ := uploadOne(t, p, h, tab, report)
	if r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("control: %s", r.JSON)
	}
	if s := received(t, got); s != "INSIDE-REPORT" {
		t.Fatalf("control: the page received %q", s)
	}
	for _, c := range []struct {
		name, path, limit, says string
	}{
		{".env", env, uploads.RuleDotfiles, "dotfiles"},
		{".git/config", gitcfg, uploads.RuleDotfiles, "dot-directories"},
		{"symlink out", link, uploads.RuleReadRoots, "files.read_roots"},
		{"hard link out", hard, uploads.RuleHardLinks, "2 hard links"},
		{"exclusion glob", pem, uploads.RuleExclude, "files.exclude"},
	} {
		r, f := uploadOne(t, p, h, tab, c.path)
		if f.Reason != surface.ReasonPathDenied || f.Pointer != "/paths/0" || f.Limit != c.limit || r.Envelope.Effect != surface.EffectNone ||
			!strings.Contains(r.Envelope.Summary, c.says) {
			t.Errorf("%s: %s", c.name, r.JSON)
		}
		noPathIn(t, r, root, "secret", "notes", "hard.txt", "server.pem")
	}

	// The swap a race makes, made at the moment it would matter: the path
	// is checked as a regular file inside the root, then becomes a symlink
	// out before the open.
	swap := write("swap.txt", "INSIDE-SWAP")
	uploads.Checked = func([]string) {
		tmp := swap + ".new"
		os.Symlink(secret, tmp)
		os.Rename(tmp, swap)
	}
	r, f := uploadOne(t, p, h, tab, swap)
	uploads.Checked = func([]string) {}
	if f.Reason != surface.ReasonPathDenied || f.Limit != uploads.RuleNoLinks || f.Pointer != "/paths/0" {
		t.Errorf("swapped after the check: %s", r.JSON)
	}

	// Nothing refused reached the page: one more control posts next.
	r, _ = uploadOne(t, p, h, tab, report)
	if s := received(t, got); r.Envelope.Status != surface.StatusSucceeded || s != "INSIDE-REPORT" {
		t.Fatalf("after the refusals the page received %q: %s", s, r.JSON)
	}

	// files.dotfiles: include and files.hard_links: allow open both again.
	open := uploadPipe(t, `files: read_roots: [`+quote(root)+`]
files: dotfiles: "include"
files: hard_links: "allow"
`)
	if r, _ := uploadOne(t, open, h, tab, gitcfg); r.Envelope.Status != surface.StatusSucceeded || received(t, got) != "OUTSIDE-SECRET-git" {
		t.Fatalf("dotfiles included: %s", r.JSON)
	}
	if r, _ := uploadOne(t, open, h, tab, hard); r.Envelope.Status != surface.StatusSucceeded || received(t, got) != "OUTSIDE-SECRET-5d1e" {
		t.Fatalf("hard links allowed: %s", r.JSON)
	}
}

// TestUploadSwapRace: a symlink out of the root swapped in and out of a
// file's place as fast as the machine goes, while 200 uploads read it.
// The page never receives the outside file's content.
func TestUploadSwapRace(t *testing.T) {
	const uploads = 200
	root, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("OUTSIDE-SECRET-race"), 0o600)
	target := filepath.Join(root, "doc.txt")
	os.WriteFile(target, []byte("INSIDE-RACE"), 0o600)
	url, got := postedBytes(t)
	h := newHarness(t)
	tab := h.actOpen(url)
	p := uploadPipe(t, `files: read_roots: [`+quote(root)+`]`)

	scratch := filepath.Join(t.TempDir(), "scratch")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var swaps atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		link, reg := filepath.Join(root, "l.tmp"), filepath.Join(root, "r.tmp")
		for {
			select {
			case <-stop:
				return
			default:
			}
			// Each state lasts one file write: the symlink while the next
			// regular file is written, the regular file while a scratch
			// file is.
			os.Symlink(secret, link)
			os.Rename(link, target)
			os.WriteFile(reg, []byte("INSIDE-RACE"), 0o600)
			os.Rename(reg, target)
			os.WriteFile(scratch, []byte("INSIDE-RACE"), 0o600)
			swaps.Add(1)
		}
	}()
	sent, refused := 0, map[string]int{}
	for range uploads {
		r, f := uploadOne(t, p, h, tab, target)
		if r.Envelope.Status == surface.StatusSucceeded {
			sent++
			if s := received(t, got); s != "INSIDE-RACE" {
				close(stop)
				wg.Wait()
				t.Fatalf("upload %d: the page received %q", sent, s)
			}
			continue
		}
		refused[f.Limit+"/"+string(f.Reason)]++
	}
	close(stop)
	wg.Wait()
	select {
	case s := <-got:
		t.Fatalf("a refused upload reached the page: %q", s)
	default:
	}
	t.Logf("%d uploads during %d swaps: %d attached the inside file, 0 the outside one; refused %v", uploads, swaps.Load(), sent, refused)
}
