package browser

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Every temp directory a Ghostlight server makes sits directly under a temp base, has a
// name starting with OwnedNamePrefix, and carries an owner marker. SweepStale is the one
// place that removes what a dead server left.
const (
	// OwnedNamePrefix starts the name of every owned directory (MakeOwnedDir refuses
	// other prefixes), so that one sweep finds each kind, present and future.
	OwnedNamePrefix = "ghostlight-"

	// ProfilePrefix names a launched browser's profile and XDG config (under TempDir).
	ProfilePrefix = "ghostlight-chromium-"
	// ChromiumTmpPrefix names the private TMPDIR handed to a launched browser: short, so
	// that the Unix sockets Chromium creates in it stay under the kernel's path limit.
	ChromiumTmpPrefix = "ghostlight-t"
	// StagePrefix names a server's upload and drop staging directory.
	StagePrefix = "ghostlight-stage-"

	// ownerFile is the owner marker: a file the owning process holds an exclusive flock
	// on for the directory's whole life. The kernel drops the lock when the process dies,
	// however it dies, so a free lock means exactly "the owner is gone" (no pid reuse to
	// get wrong), and checking it is one open and one flock.
	ownerFile = ".ghostlight-owner"
)

// ownedPrefixes are the kinds this package and its wiring make today.
var ownedPrefixes = []string{ProfilePrefix, ChromiumTmpPrefix, StagePrefix, DownloadPrefix}

// shortTmpBase is where the private browser TMPDIR goes when TempDir is too long for it.
const shortTmpBase = "/tmp"

// OwnedDir is a temp directory this process owns until Remove.
type OwnedDir struct {
	path string
	mu   sync.Mutex
	lock *os.File
}

// MakeOwnedDir creates a fresh directory under base ("" = os.TempDir()) whose name starts
// with prefix (itself starting with OwnedNamePrefix), and takes ownership of it. The
// marker is locked under a temporary name and only then renamed into place, so a sweeper
// never finds an unlocked marker in a live directory (a directory without a marker is
// never swept).
func MakeOwnedDir(base, prefix string) (*OwnedDir, error) {
	if !strings.HasPrefix(prefix, OwnedNamePrefix) || strings.ContainsRune(prefix, filepath.Separator) {
		return nil, errors.New("owned temp dir prefix " + strconv.Quote(prefix) + " must start with " + OwnedNamePrefix)
	}
	if base == "" {
		base = os.TempDir()
	}
	dir, err := os.MkdirTemp(base, prefix)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".owning-")
	if err == nil {
		if err = lockFile(f); err == nil {
			_, _ = f.WriteString(strconv.Itoa(os.Getpid()) + "\n") // for people; the lock decides
			err = os.Rename(f.Name(), filepath.Join(dir, ownerFile))
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &OwnedDir{path: dir, lock: f}, nil
}

// Path is the directory's path.
func (d *OwnedDir) Path() string { return d.path }

// Remove deletes the directory and everything in it, then gives up ownership (in that
// order, so no sweeper sees it unowned while it still exists).
func (d *OwnedDir) Remove() error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock == nil {
		return nil
	}
	err := removeAll(d.path)
	if err != nil && d.exists() {
		return err // keep the lock: the next attempt, or this process's exit, settles it
	}
	d.lock.Close()
	d.lock = nil
	return nil
}

func (d *OwnedDir) exists() bool {
	_, err := os.Lstat(d.path)
	return err == nil
}

// removeAll retries briefly: helpers of a killed browser may still be writing.
func removeAll(dir string) error {
	var err error
	for range limits.DirRemoveTriesMax {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(time.Duration(limits.DirRemoveGapMsMax) * time.Millisecond)
	}
	return err
}

// TempDir is where this executor makes its temp directories (Config.TempDir or
// os.TempDir()); other packages put their owned directories there too, so that one
// sweep finds them.
func (b *Browser) TempDir() string { return tempBase(b.cfg.TempDir) }

func tempBase(dir string) string {
	if dir == "" {
		return os.TempDir()
	}
	return dir
}

// SweepStale removes every Ghostlight temp directory under tempDir ("" = os.TempDir())
// and under the short browser-temp base whose owner is gone, first killing any process
// still naming it (an orphaned browser). It never touches a directory whose owner is
// alive, this process included, and is safe to run from several processes at once.
// It returns how many directories it removed.
func SweepStale(tempDir string) int {
	bases := []string{filepath.Clean(tempBase(tempDir))}
	if short := filepath.Clean(shortTmpBase); !sameDir(short, bases[0]) {
		bases = append(bases, short)
	}
	return sweepIn(bases...)
}

// sweepIn sweeps exactly the given bases.
func sweepIn(bases ...string) int {
	n := 0
	for _, base := range bases {
		entries, err := os.ReadDir(base)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.IsDir() || !strings.HasPrefix(e.Name(), OwnedNamePrefix) { // IsDir is false for a symlink
				continue
			}
			if sweepOne(filepath.Join(base, e.Name())) {
				n++
			}
		}
	}
	return n
}

func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// sweepOne removes dir when its owner is provably gone.
func sweepOne(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		if legacyProfileStale(dir) {
			killByArg(dir)
			return os.RemoveAll(dir) == nil
		}
		return false // being created right now, or not ours to judge
	}
	if err != nil {
		return false
	}
	defer f.Close()
	if !tryLock(f) {
		return false // its owner is alive
	}
	killByArg(dir)
	return removeAll(dir) == nil
}

// legacyProfileStale judges a profile directory made before owner markers: stale when
// Chromium's SingletonLock names this host and a process that no longer exists.
func legacyProfileStale(dir string) bool {
	if !strings.HasPrefix(filepath.Base(dir), ProfilePrefix) {
		return false
	}
	host, err := os.Hostname()
	if err != nil {
		return false
	}
	lock, err := os.Readlink(filepath.Join(dir, "profile", "SingletonLock"))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(lock, '-')
	if i <= 0 || lock[:i] != host {
		return false
	}
	pid, err := strconv.Atoi(lock[i+1:])
	return err == nil && pid > 0 && !pidAlive(pid)
}

// Chromium binds its singleton socket at <TMPDIR>/<app>.XXXXXX/SingletonSocket and aborts
// ("Socket path too long") past the sun_path limit. socketReserve is what it appends to
// TMPDIR, for the longest app name of the Chromium family (Chrome for Testing's
// "com.google.chrome.for.testing.XXXXXX"), with a few bytes to spare.
const socketReserve = len("/com.google.chrome.for.testing.XXXXXX/SingletonSocket") + 4

// maxSocketPath is the longest socket path the kernel accepts (sun_path less its NUL).
func maxSocketPath() int {
	switch runtime.GOOS {
	case "linux", "android":
		return 107
	case "windows": // no singleton socket
		return 1 << 30
	}
	return 103 // macOS and the BSDs
}

// mkdirTempMaxLen is the longest name os.MkdirTemp gives prefix (a decimal uint32 suffix).
func mkdirTempMaxLen(prefix string) int { return len(prefix) + 10 }

// browserTmpBase picks where the private browser TMPDIR goes: under tempDir when the
// socket path fits there, else under the short base, else (nothing fits, or the short
// base is unusable) under tempDir anyway, and the browser's own error says why it failed.
func browserTmpBase(tempDir string) string {
	fits := func(base string) bool {
		abs, err := filepath.Abs(base)
		return err == nil && len(abs)+1+mkdirTempMaxLen(ChromiumTmpPrefix)+socketReserve <= maxSocketPath()
	}
	if fits(tempDir) {
		return tempDir
	}
	if st, err := os.Stat(shortTmpBase); err == nil && st.IsDir() && fits(shortTmpBase) {
		return shortTmpBase
	}
	return tempDir
}
