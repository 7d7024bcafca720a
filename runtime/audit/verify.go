package audit

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Problem kinds verify reports.
const (
	ProblemEdited      = "edited"       // a line's content no longer hashes to the next line's link
	ProblemGap         = "gap"          // lines are missing inside a file
	ProblemDamaged     = "damaged"      // a line is not a JSON object (torn or overwritten)
	ProblemUnlinked    = "unlinked"     // a line without a link after chained lines
	ProblemTruncated   = "truncated"    // a file's last lines are missing
	ProblemMissingFile = "missing_file" // a whole file of the chain is gone, and no tombstone says rotation removed it
	ProblemStartCut    = "start_cut"    // a file's first lines (its header) are missing
	ProblemRestart     = "restart"      // the writer found no file to continue: the one before was deleted or replaced
)

// Problem is one break in the chain: where it shows and what it means.
type Problem struct {
	File string // base name
	Line int    // 1-based; 0 when it concerns the file as a whole
	Kind string
	Msg  string
}

// Report is what Verify found.
type Report struct {
	Files     []string // oldest first
	Lines     int      // every line read, headers included
	Records   int      // call records (outcomes)
	Begun     int      // begin lines (a required audit's, before a call runs)
	Unchained int      // lines written before the audit was chained (format 1)
	// Rotated are the tombstones that account for the chain's start: files
	// rotation removed as configured.
	Rotated []Tombstone
	// TipSeq and TipHash are the chain's end: a copy kept elsewhere shows
	// later whether the newest lines were cut.
	TipSeq   uint64
	TipHash  string
	Problems []Problem
}

// OK says the chain is whole.
func (r Report) OK() bool { return len(r.Problems) == 0 }

type readLine struct {
	hash string
	l    link
	ok   bool // parsed as a JSON object
}

// Verify checks the chain across the audit file and its rotated siblings,
// read together under the writers' lock (shared), so a rotation never
// shows as a break. Files are streamed: memory holds one line (at most
// audit_line_bytes; a longer one is hashed, not parsed) and the headers.
func Verify(path string) (Report, error) {
	var rep Report
	if lk, err := os.Open(lockPath(path)); err == nil {
		defer lk.Close()
		if err := lockShared(lk); err != nil {
			return rep, err
		}
		defer unlockFile(lk)
	}
	names, err := Files(path)
	if err != nil {
		return rep, err
	}
	slices.Reverse(names) // oldest first
	// The headers first: the tombstone of the file before the oldest kept
	// one is in a newer file's header.
	tombs := map[int]Tombstone{}
	for _, name := range names {
		err := eachLine(name, func(ln readLine, _ bool) bool {
			for _, t := range ln.l.Dropped {
				tombs[t.File] = t
			}
			return false
		})
		if err != nil {
			return rep, err
		}
	}
	problem := func(file string, line int, kind, format string, a ...any) {
		rep.Problems = append(rep.Problems, Problem{File: file, Line: line, Kind: kind, Msg: fmt.Sprintf(format, a...)})
	}
	var prev *readLine // the chain's last line so far
	prevFile, prevName := 0, ""
	chained := false
	for fi, full := range names {
		name := filepath.Base(full)
		rep.Files = append(rep.Files, name)
		fileNo, li := 0, -1
		err := eachLine(full, func(cur readLine, complete bool) bool {
			li++
			ln := &cur
			rep.Lines++
			at := li + 1
			defer func() { prev = ln }()
			if !complete {
				problem(name, at, ProblemTruncated, "%s ends inside line %d: it was cut", name, at)
				return true
			}
			if !ln.ok {
				problem(name, at, ProblemDamaged, "line %d is not a whole audit line (torn or overwritten)", at)
				return true
			}
			switch {
			case ln.l.Kind == KindFile:
				if li > 0 {
					problem(name, at, ProblemDamaged, "line %d is a file header in the middle of a file", at)
				}
				fileNo = ln.l.File
			case ln.l.Kind == KindBegin:
				rep.Begun++
			case ln.l.Invocation != "":
				rep.Records++
			}
			switch {
			case li == 0 && ln.l.Kind == KindFile:
				checkFileStart(&rep, problem, fi == 0, name, ln, prev, prevFile, prevName, tombs)
				chained = true
			case li == 0 && ln.l.Prev != "":
				problem(name, at, ProblemStartCut, "%s does not begin with its header: its first lines (before seq %d) were removed", name, ln.l.Seq)
				chained = true
			case ln.l.Prev == "":
				if chained {
					problem(name, at, ProblemUnlinked, "line %d carries no link to the line before it, after chained lines: it was inserted or rewritten", at)
				} else {
					rep.Unchained++
				}
			case prev == nil || ln.l.Prev != prev.hash:
				chained = true
				switch {
				case prev == nil || !prev.ok: // reported as damaged already
				case ln.l.Seq == prev.l.Seq+1:
					problem(name, at-1, ProblemEdited, "line %d (seq %d) was changed: the next line's link does not match it", at-1, prev.l.Seq)
				case ln.l.Seq > prev.l.Seq+1:
					problem(name, at, ProblemGap, "lines seq %d…%d are missing before line %d: deleted", prev.l.Seq+1, ln.l.Seq-1, at)
				default:
					problem(name, at, ProblemEdited, "line %d (seq %d) does not follow line %d (seq %d): lines were changed or reordered", at, ln.l.Seq, at-1, prev.l.Seq)
				}
			default:
				chained = true
			}
			return true
		})
		if err != nil {
			return rep, err
		}
		if li >= 0 {
			prevFile, prevName = fileNo, name
		}
	}
	if prev != nil {
		rep.TipSeq, rep.TipHash = prev.l.Seq, prev.hash
	}
	return rep, nil
}

// checkFileStart judges a file's header: the chain's start, a file rotation
// removed before it (a tombstone says so), or a break with what came before.
func checkFileStart(rep *Report, problem func(string, int, string, string, ...any), oldest bool, name string, h, prev *readLine, prevFile int, prevName string, tombs map[int]Tombstone) {
	l := h.l
	switch {
	case l.Restart || (l.Prev == "" && (!oldest || l.File > 1)):
		problem(name, 1, ProblemRestart, "%s starts the chain again at file %d: the file before it (file %d) was deleted or replaced", name, l.File, l.File-1)
	case l.Prev == "":
		// The chain's first file.
	case oldest:
		t, ok := tombs[l.File-1]
		if ok && t.Last == l.Prev && t.LastSeq+1 == l.Seq {
			rep.Rotated = append(rep.Rotated, t)
			return
		}
		problem(name, 1, ProblemMissingFile, "file %d, before %s, is missing and no tombstone records its removal: it was deleted", l.File-1, name)
	case prev == nil || !prev.ok: // reported already
	case l.Prev == prev.hash:
		if l.File != prevFile+1 && prevFile != 0 {
			problem(name, 1, ProblemMissingFile, "%s (file %d) follows %s (file %d): the file numbers jump", name, l.File, prevName, prevFile)
		}
	case l.File > prevFile+1 && prevFile != 0:
		problem(name, 1, ProblemMissingFile, "files %d…%d, between %s and %s, are missing: deleted", prevFile+1, l.File-1, prevName, name)
	case prev.ok && l.Seq > prev.l.Seq+1:
		problem(prevName, 0, ProblemTruncated, "%s ends at seq %d but %s continues from seq %d: its last lines were cut", prevName, prev.l.Seq, name, l.Seq-1)
	default:
		problem(prevName, 0, ProblemEdited, "the last line of %s was changed: %s's header does not link to it", prevName, name)
	}
}

// eachLine streams a file's lines to fn (each hashed whole, parsed when
// at most audit_line_bytes long; complete false for a last line without
// its newline) until fn returns false.
func eachLine(name string, fn func(ln readLine, complete bool) bool) error {
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // rotated away meanwhile (another reader without the lock)
		}
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, surface.AuditScanBufferBytesMax)
	for {
		h := sha256.New()
		var buf []byte
		over, got := false, false
		for {
			chunk, err := r.ReadSlice('\n')
			got = got || len(chunk) > 0
			body := bytes.TrimSuffix(chunk, []byte("\n"))
			h.Write(body)
			if !over && len(buf)+len(body) <= surface.AuditLineBytesMax {
				buf = append(buf, body...)
			} else {
				over, buf = true, nil
			}
			if err == nil || (errors.Is(err, io.EOF) && got) {
				ln := readLine{hash: HashPrefix + hex.EncodeToString(h.Sum(nil))}
				ln.ok = !over && bytes.HasPrefix(bytes.TrimSpace(buf), []byte("{")) && json.Unmarshal(buf, &ln.l) == nil
				if !fn(ln, err == nil) || err != nil {
					return nil
				}
				break
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
