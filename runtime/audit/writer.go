package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Writer appends records to the audit file. Each Write is one append of
// whole lines under an exclusive lock, followed by fsync, so a line is on
// disk before the call it records answers, lines of concurrent calls (and
// of other servers sharing the file) never interleave, and a torn write is
// cut back off the file.
//
// A Writer never stops the server: when the file cannot be written it keeps
// the lines in memory (bounded by audit_pending_lines), reports the cause
// from Ready and Write, and writes the held lines first once it can again.
type Writer struct {
	mu     sync.Mutex
	cfg    Config
	own    bool // the default location: Ghostlight's own directory
	cfgErr *Error
	f      *os.File
	lk     *os.File // the lock file beside the audit (lockPath), held open
	failed *Error   // the last failure; nil while healthy

	pending   [][]byte // lines not yet on disk, oldest first
	dropped   int      // lines lost because pending was full
	dirWarned bool
	log       *slog.Logger

	// Following the policy (follow.go): the path while no layer sets one,
	// and the newest snapshot applied.
	follow bool
	base   string
	gen    uint64

	// Seams for tests that route a real kernel error (ENOSPC from
	// /dev/full) or a small free-space figure into a real file's path.
	write func(f *os.File, b []byte) (int, error)
	free  func(f *os.File) (uint64, bool)
}

// Open starts a writer and opens (creating) the file. It never fails: a
// file that cannot be opened is logged and reported by Ready until it can.
func Open(cfg Config, log *slog.Logger) *Writer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w := &Writer{log: log, write: (*os.File).Write, free: freeBytes}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.configure(cfg)
	if w.cfgErr == nil {
		if err := w.open(); err != nil {
			w.setFailed(err)
		}
	}
	return w
}

func (w *Writer) configure(cfg Config) {
	w.own = cfg.Path == ""
	r, err := cfg.Resolve()
	w.cfg, w.cfgErr = r, nil
	if err != nil {
		w.cfgErr = &Error{Cause: CauseConfig, Err: err}
		w.log.Warn("audit configuration invalid; calls that change anything are refused", "err", err)
	}
}

// Reconfigure moves the writer to a new configuration (a policy that
// changed audit.path, max_bytes or keep). Lines held in memory follow.
func (w *Writer) Reconfigure(cfg Config) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if r, err := cfg.Resolve(); err == nil && r == w.cfg && w.cfgErr == nil {
		return
	}
	w.closeFile()
	w.failed = nil
	w.configure(cfg)
	if w.cfgErr == nil {
		if err := w.open(); err != nil {
			w.setFailed(err)
		}
	}
}

// Config is the resolved configuration in force.
func (w *Writer) Config() Config {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cfg
}

// Err is the reason the audit cannot be written now (nil when it can, as
// far as the last attempt showed).
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfgErr != nil {
		return w.cfgErr
	}
	if w.failed != nil {
		return w.failed
	}
	return nil
}

// Ready says whether a line can be written now: a failed writer retries
// (reopening the file and writing the lines it holds), and a file system
// with less than audit_reserve_bytes free counts as full. The pipeline asks
// before every call that would change anything.
func (w *Writer) Ready() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfgErr != nil {
		return w.cfgErr
	}
	if w.f == nil || w.failed != nil || len(w.pending) > 0 {
		if err := w.flush(nil); err != nil {
			return err
		}
	}
	if free, ok := w.free(w.f); ok && free < surface.AuditReserveBytesMax {
		return w.setFailed(&Error{Cause: CauseDiskFull, Err: fmt.Errorf("%s: %d bytes free, fewer than %d", w.cfg.Path, free, surface.AuditReserveBytesMax)})
	}
	return nil
}

// Write appends one record durably (written and fsynced). On failure the
// line is held in memory and written first by the next write that succeeds.
func (w *Writer) Write(r Record) error {
	if r.V == 0 {
		r.V = Version
	}
	line, err := json.Marshal(r)
	if err != nil {
		return &Error{Cause: CauseOther, Err: err}
	}
	line = append(line, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfgErr != nil {
		w.hold(line)
		return w.cfgErr
	}
	return w.flush(line)
}

// Close closes the file; lines still held in memory are lost (and logged).
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := len(w.pending) + w.dropped; n > 0 {
		w.log.Warn("audit lines never written", "lines", n)
	}
	w.closeFile()
	if w.lk != nil {
		_ = w.lk.Close()
		w.lk = nil
	}
	return nil
}

// flush writes the held lines and line (when not nil) as one append.
func (w *Writer) flush(line []byte) error {
	n := len(line)
	for _, l := range w.pending {
		n += len(l)
	}
	if n == 0 {
		if w.f == nil {
			if err := w.open(); err != nil {
				return w.setFailed(err)
			}
		}
		w.recovered()
		return nil
	}
	buf := make([]byte, 0, n)
	for _, l := range w.pending {
		buf = append(buf, l...)
	}
	buf = append(buf, line...)
	if err := w.append(buf); err != nil {
		if line != nil {
			w.hold(line)
		}
		return w.setFailed(err)
	}
	w.pending = nil
	if w.dropped > 0 {
		w.log.Warn("audit lines lost while the file could not be written", "lines", w.dropped)
		w.dropped = 0
	}
	w.recovered()
	return nil
}

// append writes buf at the end of the file under the lock, rotating first
// when buf would carry the file past max_bytes.
func (w *Writer) append(buf []byte) error {
	if err := w.lockCurrent(); err != nil {
		return err
	}
	st, err := w.f.Stat()
	if err != nil {
		w.unlockClose()
		return fail(err, "")
	}
	size := st.Size()
	if size > 0 && size+int64(len(buf)) > w.cfg.MaxBytes {
		if err := w.rotate(); err != nil {
			w.unlockClose()
			return err
		}
		size = 0
	}
	if _, err := w.write(w.f, buf); err != nil {
		_ = w.f.Truncate(size) // a torn line never stays to corrupt the next one
		w.unlockClose()
		return fail(err, "")
	}
	if err := w.f.Sync(); err != nil {
		_ = w.f.Truncate(size)
		w.unlockClose()
		return fail(err, "")
	}
	unlockFile(w.lk)
	return nil
}

// lockCurrent takes the lock shared by every server writing this audit, and
// opens the file again when another server rotated or removed it meanwhile.
// The lock lives in a file of its own that is never rotated: a lock on the
// audit file itself could be granted on a file just renamed away, and under
// heavy rotation a writer could chase the path indefinitely (4 writers of a
// small file gave up after 8 tries on a loaded machine, measured).
func (w *Writer) lockCurrent() error {
	if w.lk == nil {
		lk, err := os.OpenFile(lockPath(w.cfg.Path), os.O_RDWR|os.O_CREATE|noFollow, 0o600)
		if err != nil {
			return fail(err, "")
		}
		w.lk = lk
	}
	if err := lockFile(w.lk); err != nil {
		return fail(err, "")
	}
	if w.f != nil {
		cur, err := os.Lstat(w.cfg.Path)
		mine, err2 := w.f.Stat()
		if err != nil || err2 != nil || !os.SameFile(cur, mine) {
			w.closeFile()
		}
	}
	if w.f == nil {
		if err := w.open(); err != nil {
			unlockFile(w.lk)
			return err
		}
	}
	return nil
}

// rotate shifts Path.i to Path.i+1 (dropping Path.keep), Path to Path.1, and
// opens a fresh Path. It runs holding the lock of the file it rotates.
func (w *Writer) rotate() error {
	p := w.cfg.Path
	if err := os.Remove(rotated(p, w.cfg.Keep)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail(err, "")
	}
	for i := w.cfg.Keep - 1; i >= 1; i-- {
		if err := os.Rename(rotated(p, i), rotated(p, i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fail(err, "")
		}
	}
	if err := os.Rename(p, rotated(p, 1)); err != nil {
		return fail(err, "")
	}
	old := w.f
	w.f = nil
	err := w.open()
	_ = old.Close()
	return err
}

// open creates the directory (0700) and opens the file (0600) for append.
// A symbolic link or special file in the file's place, or a directory every
// user may write to, is refused: the audit must be the file it claims.
func (w *Writer) open() error {
	p := w.cfg.Path
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err, "")
	}
	dst, err := os.Stat(dir)
	if err != nil {
		return fail(err, "")
	}
	if !dst.IsDir() {
		return &Error{Cause: CauseNotDir, Err: fmt.Errorf("%s is not a directory", dir)}
	}
	if perm := dst.Mode().Perm(); perm&0o077 != 0 {
		if w.own && perm&0o002 == 0 {
			// Ghostlight's own directory: tighten it to what it creates.
			if err := os.Chmod(dir, 0o700); err != nil {
				return fail(err, "")
			}
		} else if perm&0o002 != 0 {
			return &Error{Cause: CauseDirOpen, Err: fmt.Errorf("%s has mode %v", dir, perm)}
		} else if !w.dirWarned {
			w.dirWarned = true
			w.log.Warn("audit directory is open to other users; 0700 is advised", "dir", dir, "mode", perm.String())
		}
	}
	if st, err := os.Lstat(p); err == nil {
		if st.Mode()&fs.ModeSymlink != 0 {
			return &Error{Cause: CauseSymlink, Err: fmt.Errorf("%s is a symbolic link", p)}
		}
		if !st.Mode().IsRegular() {
			return &Error{Cause: CauseNotRegular, Err: fmt.Errorf("%s is not a regular file", p)}
		}
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return fail(err, "")
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		_ = f.Close()
		return &Error{Cause: CauseNotRegular, Err: fmt.Errorf("%s is not a regular file", p)}
	}
	if st.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil {
			_ = f.Close()
			return fail(err, "")
		}
	}
	if st.Size() == 0 {
		syncDir(dir) // a new file's name survives a crash too
	}
	w.f = f
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

func (w *Writer) closeFile() {
	if w.f != nil {
		_ = w.f.Close()
		w.f = nil
	}
}

func (w *Writer) unlockClose() {
	if w.lk != nil {
		unlockFile(w.lk)
	}
	w.closeFile()
}

func (w *Writer) hold(line []byte) {
	if len(w.pending) >= surface.AuditPendingLinesMax {
		w.pending = w.pending[1:]
		w.dropped++
	}
	w.pending = append(w.pending, line)
}

// setFailed records err as the writer's state, logging a new cause once.
func (w *Writer) setFailed(err error) error {
	ae := fail(err, "")
	if w.failed == nil || w.failed.Cause != ae.Cause {
		w.log.Warn("audit cannot be written; calls that change anything are refused until it can", "err", ae.Error())
	}
	w.failed = ae
	return ae
}

func (w *Writer) recovered() {
	if w.failed != nil {
		w.log.Warn("audit writable again", "path", w.cfg.Path)
		w.failed = nil
	}
}
