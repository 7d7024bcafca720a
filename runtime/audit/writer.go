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
	"time"

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

	// The chain's end as this writer left it (chain.go): the file it wrote
	// last, that file's size after the write, and its last line.
	tipFile os.FileInfo
	tipSize int64
	tip     tip

	pending   []Record // records not yet on disk, oldest first
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
	if w.f != nil && !w.sameFile() {
		w.closeFile() // moved, removed or replaced: open the path again
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

// Write appends one record durably (written and fsynced), chained to the
// line before it. On failure the record is held in memory and written
// first by the next write that succeeds.
func (w *Writer) Write(r Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfgErr != nil {
		w.hold(r)
		return w.cfgErr
	}
	return w.flush(&r)
}

// Begin writes the line that a call is about to run (KindBegin), durably,
// with the held lines before it. Unlike Write it holds nothing on failure:
// the call it announces is refused and never runs.
func (w *Writer) Begin(r Record) error {
	r.Kind = KindBegin
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfgErr != nil {
		return w.cfgErr
	}
	recs := append(w.pending[:len(w.pending):len(w.pending)], r)
	if err := w.append(recs); err != nil {
		return w.setFailed(err)
	}
	w.pending = nil
	w.recovered()
	return nil
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

// flush writes the held records and rec (when not nil) as one append.
func (w *Writer) flush(rec *Record) error {
	recs := w.pending
	if rec != nil {
		recs = append(recs[:len(recs):len(recs)], *rec)
	}
	if len(recs) == 0 {
		if w.f == nil {
			if err := w.open(); err != nil {
				return w.setFailed(err)
			}
		}
		w.recovered()
		return nil
	}
	if err := w.append(recs); err != nil {
		if rec != nil {
			w.hold(*rec)
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

// append writes recs at the end of the file under the lock, each chained
// to the line before it, rotating first when they would carry the file past
// max_bytes. A file the writer starts opens with a header (chain.go).
func (w *Writer) append(recs []Record) error {
	if err := w.lockCurrent(); err != nil {
		return err
	}
	st, err := w.f.Stat()
	if err != nil {
		w.unlockClose()
		return fail(err, "")
	}
	size := st.Size()
	t, err := w.chainTip(st)
	if err != nil {
		w.unlockClose()
		return fail(err, "")
	}
	var head *Header
	if size == 0 {
		h := startHeader(w.cfg.Path)
		head = &h
	}
	buf, end := chainLines(head, t, recs)
	if size > 0 && size+int64(len(buf)) > w.cfg.MaxBytes {
		h, err := w.rotate(t)
		if err != nil {
			w.unlockClose()
			return err
		}
		size = 0
		buf, end = chainLines(&h, tip{}, recs)
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
	if st, err := w.f.Stat(); err == nil {
		w.tipFile, w.tipSize, w.tip = st, st.Size(), end
	} else {
		w.tipFile = nil
	}
	unlockFile(w.lk)
	return nil
}

// chainTip is where the current file's chain ends: what this writer left
// when the file is as it left it, else read from the file (another server
// appended). A file shorter than this writer left it lost lines: the chain
// goes on from the line it remembers, so verify shows the cut.
func (w *Writer) chainTip(st os.FileInfo) (tip, error) {
	if st.Size() == 0 {
		return tip{}, nil
	}
	if w.tipFile != nil && os.SameFile(w.tipFile, st) && st.Size() <= w.tipSize {
		if st.Size() < w.tipSize {
			w.log.Warn("audit file is shorter than this server left it: lines were removed; the chain keeps its link to the last line written, so audit verify shows the cut", "path", w.cfg.Path, "bytes", st.Size(), "written", w.tipSize)
		}
		return w.tip, nil
	}
	return tipOf(w.cfg.Path, st.Size())
}

// chainLines renders the header (when not nil) and the records as lines,
// each carrying its number in the chain and the hash of the line before.
func chainLines(head *Header, t tip, recs []Record) ([]byte, tip) {
	var buf []byte
	emit := func(seq uint64, line []byte) {
		buf = append(append(buf, line...), '\n')
		t = tip{seq: seq, hash: hashLine(line)}
	}
	if head != nil {
		line, _ := json.Marshal(head)
		emit(head.Seq, line)
	}
	for _, r := range recs {
		r.V, r.Seq, r.Prev = Version, t.seq+1, t.hash
		line, _ := json.Marshal(r) // a Record holds only strings, numbers and a time
		emit(r.Seq, line)
	}
	return buf, t
}

// sameFile says whether the path still names the open file.
func (w *Writer) sameFile() bool {
	cur, err := os.Lstat(w.cfg.Path)
	mine, err2 := w.f.Stat()
	return err == nil && err2 == nil && os.SameFile(cur, mine)
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
	if w.f != nil && !w.sameFile() {
		w.closeFile()
	}
	if w.f == nil {
		if err := w.open(); err != nil {
			unlockFile(w.lk)
			return err
		}
	}
	return nil
}

// rotate shifts Path.i to Path.i+1, Path to Path.1, and opens a fresh
// Path; the files at Path.keep and beyond are removed, each leaving a
// tombstone in the header it returns for the new file, which continues the
// chain from t, the end of the file rotated. It runs holding the lock.
func (w *Writer) rotate(t tip) (Header, error) {
	p := w.cfg.Path
	var cur link // the rotated file's header: its number
	if err := eachLine(p, func(ln readLine, _ bool) bool { cur = ln.l; return false }); err != nil {
		return Header{}, fail(err, "")
	}
	h := Header{V: Version, Kind: KindFile, Time: time.Now().UTC(), File: cur.File + 1, Seq: t.seq + 1, Prev: t.hash}
	files, err := Files(p)
	if err != nil {
		return Header{}, fail(err, "")
	}
	for i := len(files) - 1; i >= 1; i-- { // oldest first
		if rotatedIndex(p, files[i]) < w.cfg.Keep {
			continue
		}
		s, err := summarize(files[i])
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Header{}, fail(err, "")
		}
		if err == nil {
			h.Dropped = append(h.Dropped, Tombstone{File: s.file, Lines: s.lines, FirstSeq: s.first, LastSeq: s.last, Last: s.lastHash, Keep: w.cfg.Keep})
		}
		if err := os.Remove(files[i]); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Header{}, fail(err, "")
		}
	}
	for i := w.cfg.Keep - 1; i >= 1; i-- {
		if err := os.Rename(rotated(p, i), rotated(p, i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Header{}, fail(err, "")
		}
	}
	if err := os.Rename(p, rotated(p, 1)); err != nil {
		return Header{}, fail(err, "")
	}
	old := w.f
	w.f = nil
	err = w.open()
	_ = old.Close()
	return h, err
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

func (w *Writer) hold(r Record) {
	if len(w.pending) >= surface.AuditPendingLinesMax {
		w.pending = w.pending[1:]
		w.dropped++
	}
	w.pending = append(w.pending, r)
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
