package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func rec(i int, session string) Record {
	return Record{Time: time.Date(2026, 5, 1, 10, 0, 0, i, time.UTC), Invocation: fmt.Sprintf("inv_%d", i), Workspace: session,
		Tool: "browser_click", Capabilities: []string{"action"}, Decision: DecisionAllow, Hosts: []string{"127.0.0.1:8080"},
		Status: "succeeded", Effect: "applied", DurationMS: 1.5, Policy: "sha256:0"}
}

// lines reads every record of one file (its header skipped), failing on
// any line that does not parse.
func lines(t *testing.T, name string) []Record {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var h Header
		if json.Unmarshal(sc.Bytes(), &h) == nil && h.Kind == KindFile {
			continue // the file's header (chain.go)
		}
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.Invocation == "" {
			t.Fatalf("%s: line does not parse: %q (%v)", name, sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestDefaultPathAndModes(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	w := Open(Config{}, nil)
	defer w.Close()
	want := filepath.Join(state, "ghostlight", FileName)
	if w.Config().Path != want {
		t.Fatalf("default path %s, want %s", w.Config().Path, want)
	}
	if err := w.Write(rec(1, "s")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, want); m != 0o600 {
		t.Fatalf("file mode %v", m)
	}
	if m := mode(t, filepath.Dir(want)); m != 0o700 {
		t.Fatalf("dir mode %v", m)
	}
	if got := lines(t, want); len(got) != 1 || got[0].V != Version || got[0].Invocation != "inv_1" {
		t.Fatalf("lines %+v", got)
	}

	// A relative XDG_STATE_HOME is ignored (the XDG rule): ~/.local/state.
	t.Setenv("XDG_STATE_HOME", "relative/dir")
	t.Setenv("HOME", state)
	if p, _ := DefaultPath(); p != filepath.Join(state, ".local", "state", "ghostlight", FileName) {
		t.Fatalf("fallback path %s", p)
	}
}

// A looser file is tightened to 0600; Ghostlight's own directory to 0700; a
// configured directory open to others is only warned about, and one every
// user may write to is refused.
func TestPermissionsTightenedOrRefused(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	p := filepath.Join(dir, "a.jsonl")
	os.WriteFile(p, nil, 0o644)
	os.Chmod(p, 0o644)
	w := Open(Config{Path: p}, nil)
	if err := w.Write(rec(1, "s")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if m := mode(t, p); m != 0o600 {
		t.Fatalf("file not tightened: %v", m)
	}
	if m := mode(t, dir); m != 0o755 {
		t.Fatalf("a configured directory was changed: %v", m)
	}

	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	os.MkdirAll(filepath.Join(state, "ghostlight"), 0o755)
	os.Chmod(filepath.Join(state, "ghostlight"), 0o755)
	w = Open(Config{}, nil)
	if err := w.Write(rec(1, "s")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if m := mode(t, filepath.Join(state, "ghostlight")); m != 0o700 {
		t.Fatalf("own directory not tightened: %v", m)
	}

	open := t.TempDir()
	os.Chmod(open, 0o777)
	w = Open(Config{Path: filepath.Join(open, "a.jsonl")}, nil)
	defer w.Close()
	if err := w.Ready(); CauseOf(err) != CauseDirOpen {
		t.Fatalf("world-writable dir: %v", err)
	}
}

// Paths that cannot hold the audit are refused with a cause that names no
// path; a line written meanwhile is held and written once the path works.
func TestUnwritablePaths(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "state")
	os.WriteFile(blocker, []byte("x"), 0o600)
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(filepath.Join(dir, "elsewhere"), link)
	for _, c := range []struct {
		path, cause string
	}{
		{filepath.Join(blocker, "ghostlight", "audit.jsonl"), CauseNotDir},
		{"/dev/full", CauseNotRegular},
		{link, CauseSymlink},
		{dir, CauseNotRegular},
	} {
		w := Open(Config{Path: c.path}, nil)
		err := w.Ready()
		if CauseOf(err) != c.cause {
			t.Errorf("%s: %v, want %s", c.path, err, c.cause)
		}
		if strings.Contains(CauseOf(err), dir) || strings.Contains(CauseOf(err), "/") {
			t.Errorf("cause names a path: %s", CauseOf(err))
		}
		if err := w.Write(rec(1, "s")); err == nil {
			t.Errorf("%s: write succeeded", c.path)
		}
		w.Close()
	}

	// Held lines are written first once the path works again.
	p := filepath.Join(blocker, "audit.jsonl")
	w := Open(Config{Path: p}, nil)
	defer w.Close()
	for i := 1; i <= 3; i++ {
		if err := w.Write(rec(i, "s")); CauseOf(err) != CauseNotDir {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	os.Remove(blocker)
	os.Mkdir(blocker, 0o700)
	if err := w.Ready(); err != nil {
		t.Fatalf("ready after the fix: %v", err)
	}
	if err := w.Write(rec(4, "s")); err != nil {
		t.Fatal(err)
	}
	got := lines(t, p)
	if len(got) != 4 || got[0].Invocation != "inv_1" || got[3].Invocation != "inv_4" {
		t.Fatalf("held lines: %+v", got)
	}
}

// A full disk (the kernel's ENOSPC, from /dev/full) fails the write, leaves
// no torn line, holds the line, and the writer recovers once space returns.
// Too little free space makes Ready refuse before anything is written.
func TestDiskFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	p := filepath.Join(t.TempDir(), "a.jsonl")
	w := Open(Config{Path: p}, nil)
	defer w.Close()
	if err := w.Write(rec(1, "s")); err != nil {
		t.Fatal(err)
	}
	// Half the line reaches the file, then the disk is full.
	w.write = func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		_, err := full.Write(b[len(b)/2:])
		return n, err
	}
	if err := w.Write(rec(2, "s")); CauseOf(err) != CauseDiskFull || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("write on a full disk: %v", err)
	}
	if err := w.Ready(); CauseOf(err) != CauseDiskFull {
		t.Fatalf("ready on a full disk: %v", err)
	}
	if got := lines(t, p); len(got) != 1 {
		t.Fatalf("a torn line stayed: %d lines", len(got))
	}
	w.write = (*os.File).Write
	if err := w.Ready(); err != nil {
		t.Fatalf("ready after space returned: %v", err)
	}
	if got := lines(t, p); len(got) != 2 || got[1].Invocation != "inv_2" {
		t.Fatalf("held line not written: %+v", got)
	}

	// Below the reserve, Ready refuses; a write still goes through.
	w.free = func(*os.File) (uint64, bool) { return surface.AuditReserveBytesMax - 1, true }
	if err := w.Ready(); CauseOf(err) != CauseDiskFull {
		t.Fatalf("ready below the reserve: %v", err)
	}
	if err := w.Write(rec(3, "s")); err != nil {
		t.Fatal(err)
	}
	w.free = freeBytes
	if err := w.Ready(); err != nil {
		t.Fatal(err)
	}
}

// The file rotates at max_bytes and keeps `keep` rotated files; what is
// kept is an unbroken run of the newest lines, and Tail reads across files.
func TestRotation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	const keep, total = 3, 200
	w := Open(Config{Path: p, MaxBytes: surface.AuditMaxBytesMin, Keep: keep}, nil)
	defer w.Close()
	for i := 1; i <= total; i++ {
		if err := w.Write(rec(i, "s")); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Files(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != keep+1 || files[0] != p || files[keep] != p+"."+fmt.Sprint(keep) {
		t.Fatalf("files %v", files)
	}
	if _, err := os.Stat(p + "." + fmt.Sprint(keep+1)); err == nil {
		t.Fatal("kept more than keep rotated files")
	}
	var all []Record
	for i := len(files) - 1; i >= 0; i-- {
		st, _ := os.Stat(files[i])
		if st.Size() > surface.AuditMaxBytesMin {
			t.Fatalf("%s has %d bytes, past max_bytes", files[i], st.Size())
		}
		if m := st.Mode().Perm(); m != 0o600 {
			t.Fatalf("%s mode %v", files[i], m)
		}
		all = append(all, lines(t, files[i])...)
	}
	for i, r := range all {
		if want := fmt.Sprintf("inv_%d", total-len(all)+1+i); r.Invocation != want {
			t.Fatalf("line %d is %s, want %s", i, r.Invocation, want)
		}
	}
	if len(all) < 3*keep {
		t.Fatalf("only %d lines kept", len(all))
	}
	t.Logf("%d lines kept over %d files of at most %d bytes", len(all), len(files), surface.AuditMaxBytesMin)

	tail, skipped, err := Tail(p, len(all)-2, Filter{})
	if err != nil || skipped != 0 || len(tail) != len(all)-2 || tail[len(tail)-1].Invocation != fmt.Sprintf("inv_%d", total) ||
		tail[0].Invocation != all[2].Invocation {
		t.Fatalf("tail across files: %d entries, skipped %d, %v", len(tail), skipped, err)
	}
}

// Lines of concurrent calls never interleave, also between two writers
// (two servers) sharing one file while it rotates.
func TestConcurrentWritersNeverInterleave(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	cfg := Config{Path: p, MaxBytes: 64 << 10, Keep: surface.AuditKeepMax}
	a, b := Open(cfg, nil), Open(cfg, nil)
	defer a.Close()
	defer b.Close()
	const goroutines, each = 8, 100
	var wg sync.WaitGroup
	for g := range goroutines {
		w := a
		if g%2 == 1 {
			w = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := w.Write(rec(g*each+i, fmt.Sprintf("s%d", g))); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	files, _ := Files(p)
	seen := map[string]bool{}
	for _, f := range files {
		for _, r := range lines(t, f) {
			if seen[r.Invocation] {
				t.Fatalf("%s written twice", r.Invocation)
			}
			seen[r.Invocation] = true
		}
	}
	if len(seen) != goroutines*each {
		t.Fatalf("%d lines, want %d (files %d)", len(seen), goroutines*each, len(files))
	}
	t.Logf("%d lines from 2 writers × %d goroutines over %d files", len(seen), goroutines, len(files))
	// One chain: each writer read the other's last line under the lock.
	if rep, err := Verify(p); err != nil || !rep.OK() || rep.Records != goroutines*each {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}

func TestConfigBounds(t *testing.T) {
	for _, c := range []Config{
		{Path: "/x", MaxBytes: surface.AuditMaxBytesMin - 1},
		{Path: "/x", MaxBytes: surface.AuditMaxBytesMax + 1},
		{Path: "/x", Keep: surface.AuditKeepMax + 1},
		{Path: "/x", Keep: -1},
	} {
		if _, err := c.Resolve(); err == nil {
			t.Errorf("%+v accepted", c)
		}
		w := Open(c, nil)
		if err := w.Ready(); CauseOf(err) != CauseConfig {
			t.Errorf("%+v: ready %v", c, err)
		}
		w.Close()
	}
	r, err := Config{Path: "/x"}.Resolve()
	if err != nil || r.MaxBytes != surface.AuditMaxBytesDefault || r.Keep != surface.AuditKeepDefault {
		t.Fatalf("defaults %+v %v", r, err)
	}
}

func TestTailFilters(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w := Open(Config{Path: p}, nil)
	for i := 1; i <= 10; i++ {
		r := rec(i, fmt.Sprintf("s%d", i%2))
		if i%3 == 0 {
			r.Tool, r.Status = "browser_read", "failed"
		}
		w.Write(r)
	}
	w.Close()
	// A foreign line is skipped, not fatal.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json\n")
	f.Close()
	got, skipped, err := Tail(p, 0, Filter{Workspace: "s1", Tool: "browser_read"})
	if err != nil || skipped != 1 || len(got) != 2 || got[0].Invocation != "inv_3" || got[1].Invocation != "inv_9" {
		t.Fatalf("filtered tail %+v skipped %d %v", got, skipped, err)
	}
	got, _, _ = Tail(p, 2, Filter{Status: "succeeded"})
	if len(got) != 2 || got[1].Invocation != "inv_10" {
		t.Fatalf("tail -n 2: %+v", got)
	}
}

// Two servers rotating one file take turns: what is kept, read oldest file
// first, is for every writer an unbroken run of its newest lines. Without
// the cross-process lock one server renames files under the other.
func TestSharedFileRotatesInTurn(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	cfg := Config{Path: p, MaxBytes: surface.AuditMaxBytesMin, Keep: 3}
	const writers, each = 4, 300
	ws := make([]*Writer, writers)
	for i := range ws {
		ws[i] = Open(cfg, nil)
		defer ws[i].Close()
	}
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := ws[g].Write(rec(g*each+i, fmt.Sprintf("s%d", g))); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	files, _ := Files(p)
	if len(files) != cfg.Keep+1 {
		t.Fatalf("files %v", files)
	}
	last := map[string]int{}
	for i := len(files) - 1; i >= 0; i-- {
		if st, _ := os.Stat(files[i]); st.Size() > cfg.MaxBytes {
			t.Fatalf("%s has %d bytes", files[i], st.Size())
		}
		for _, r := range lines(t, files[i]) {
			var n int
			fmt.Sscanf(r.Invocation, "inv_%d", &n)
			if prev, ok := last[r.Workspace]; ok && n != prev+1 {
				t.Fatalf("%s: %s follows inv_%d", r.Workspace, r.Invocation, prev)
			}
			last[r.Workspace] = n
		}
	}
	// Four writers rotating in turn keep one chain, the removed files
	// accounted for by tombstones.
	if rep, err := Verify(p); err != nil || !rep.OK() || len(rep.Rotated) != 1 {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	// A writer whose lines were kept at all has its newest line kept.
	if len(last) == 0 {
		t.Fatal("no lines kept")
	}
	for g := range writers {
		if n, ok := last[fmt.Sprintf("s%d", g)]; ok && n != g*each+each-1 {
			t.Fatalf("s%d ends at inv_%d", g, n)
		}
	}
}
