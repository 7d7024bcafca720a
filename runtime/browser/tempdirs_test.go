package browser

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ownerHelperEnv makes this test binary act as another server: it takes ownership of one
// dir of each kind under the named base, prints their paths, and waits on stdin.
const ownerHelperEnv = "GHOSTLIGHT_TEST_OWNER_BASE"

// helperPrefixes are today's kinds and one a later feature might add.
var helperPrefixes = append(append([]string(nil), ownedPrefixes...), OwnedNamePrefix+"downloads-")

func TestOwnerHelperProcess(t *testing.T) {
	base := os.Getenv(ownerHelperEnv)
	if base == "" {
		return // only a helper when started by startOwner
	}
	for _, prefix := range helperPrefixes {
		d, err := MakeOwnedDir(base, prefix)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
		fmt.Println(d.Path())
	}
	fmt.Println("ready")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until killed or told to leave
	os.Exit(0)                                        // leaves its dirs behind, as a crash would
}

// owner is a helper process owning dirs.
type owner struct {
	cmd  *exec.Cmd
	dirs []string
}

func startOwner(t *testing.T, base string) *owner {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOwnerHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), ownerHelperEnv+"="+base)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	o := &owner{cmd: cmd}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if line == "ready" {
			return o
		}
		if strings.HasPrefix(line, base) {
			o.dirs = append(o.dirs, line)
		}
	}
	t.Fatalf("owner helper did not get ready (dirs %v)", o.dirs)
	return nil
}

// kill ends the owner the way a crash would.
func (o *owner) kill(t *testing.T) {
	t.Helper()
	if err := o.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = o.cmd.Wait()
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// TestSweepRemovesOnlyDeadOwners: directories of a SIGKILLed owner are removed (and a
// process still naming one is killed); those of a live owner, this process included, are
// kept, as are directories without a marker and symlinks.
func TestSweepRemovesOnlyDeadOwners(t *testing.T) {
	base := t.TempDir()
	alive := startOwner(t, base)
	dead := startOwner(t, base)
	mine, err := MakeOwnedDir(base, StagePrefix)
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Remove()
	unmarked := filepath.Join(base, StagePrefix+"unmarked")
	if err := os.Mkdir(unmarked, 0o700); err != nil {
		t.Fatal(err)
	}
	// A symlink with our prefix to a dir whose marker nobody locks: never followed.
	elsewhere := t.TempDir()
	if err := os.WriteFile(filepath.Join(elsewhere, ownerFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, StagePrefix+"link")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	// An orphan still naming one of the dead owner's dirs (as a browser would).
	orphan := exec.Command("sh", "-c", "sleep 300", dead.dirs[0])
	if err := orphan.Start(); err != nil {
		t.Fatal(err)
	}
	orphanDone := make(chan error, 1)
	go func() { orphanDone <- orphan.Wait() }()
	t.Cleanup(func() { _ = orphan.Process.Kill() })

	if _, err := MakeOwnedDir(base, "elsewhere-"); err == nil {
		t.Fatal("an owned dir must be named ghostlight-*, or the sweep would never find it")
	}
	if len(alive.dirs) != len(helperPrefixes) || len(dead.dirs) != len(helperPrefixes) {
		t.Fatalf("helpers made %v and %v", alive.dirs, dead.dirs)
	}
	if n := sweepIn(base); n != 0 {
		t.Fatalf("swept %d dirs while every owner is alive", n)
	}
	dead.kill(t)
	if n := sweepIn(base); n != len(dead.dirs) {
		t.Fatalf("swept %d dirs, want the dead owner's %d", n, len(dead.dirs))
	}
	for _, d := range dead.dirs {
		if exists(d) {
			t.Fatalf("dead owner's %s is still there", d)
		}
	}
	var ee *exec.ExitError
	if err := <-orphanDone; !errors.As(err, &ee) {
		t.Fatalf("the orphan naming a swept dir should have been killed, got %v", err)
	}
	for _, keep := range append([]string{mine.Path(), unmarked, link, elsewhere}, alive.dirs...) {
		if !exists(keep) {
			t.Fatalf("%s must be kept", keep)
		}
	}
	alive.kill(t)
	SweepStale(base)
	for _, d := range alive.dirs {
		if exists(d) {
			t.Fatalf("%s is still there after its owner died", d)
		}
	}
	if err := mine.Remove(); err != nil || exists(mine.Path()) {
		t.Fatalf("Remove: %v", err)
	}
}

// TestBrowserTmpBaseFits: whatever the temp dir's length, the browser's TMPDIR leaves
// room for Chromium's singleton socket path, or falls back to the short base.
func TestBrowserTmpBaseFits(t *testing.T) {
	for n := 1; n <= 200; n++ {
		base := "/" + strings.Repeat("d", n-1)
		got := browserTmpBase(base)
		if got != base && got != shortTmpBase {
			t.Fatalf("length %d: chose %q", n, got)
		}
		if l := len(got) + 1 + mkdirTempMaxLen(ChromiumTmpPrefix) + socketReserve; l > maxSocketPath() {
			t.Fatalf("length %d: %q leaves a %d-byte socket path", n, got, l)
		}
		if got == base && n > 30 {
			t.Fatalf("length %d kept the long base", n)
		}
	}
}
