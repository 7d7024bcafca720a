package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	raw  []byte
	hash string
	l    link
	ok   bool // parsed as a JSON object
}

type readFileLines struct {
	name     string
	lines    []readLine
	complete bool // ends with a newline
}

// Verify checks the chain across the audit file and its rotated siblings,
// read together under the writers' lock (shared), so a rotation never
// shows as a break.
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
	var files []readFileLines
	for i := len(names) - 1; i >= 0; i-- {
		f, err := readChainFile(names[i])
		if err != nil {
			return rep, err
		}
		files = append(files, f)
		rep.Files = append(rep.Files, f.name)
	}
	tombs := map[int]Tombstone{}
	for _, f := range files {
		for _, ln := range f.lines {
			if ln.ok && ln.l.Kind == KindFile {
				for _, t := range ln.l.Dropped {
					tombs[t.File] = t
				}
			}
		}
	}
	problem := func(file string, line int, kind, format string, a ...any) {
		rep.Problems = append(rep.Problems, Problem{File: file, Line: line, Kind: kind, Msg: fmt.Sprintf(format, a...)})
	}
	var prev *readLine // the chain's last line so far
	prevFile, prevName := 0, ""
	chained := false
	for fi, f := range files {
		fileNo := 0
		for li := range f.lines {
			ln := &f.lines[li]
			rep.Lines++
			at := li + 1
			if !ln.ok && li == len(f.lines)-1 && !f.complete {
				problem(f.name, at, ProblemTruncated, "%s ends inside line %d: it was cut", f.name, at)
				prev = ln
				continue
			}
			if !ln.ok {
				problem(f.name, at, ProblemDamaged, "line %d is not a whole audit line (torn or overwritten)", at)
				prev = ln
				continue
			}
			if ln.l.Kind == KindFile {
				if li > 0 {
					problem(f.name, at, ProblemDamaged, "line %d is a file header in the middle of a file", at)
				}
				fileNo = ln.l.File
			} else if ln.l.Kind == KindBegin {
				rep.Begun++
			} else if ln.l.Invocation != "" {
				rep.Records++
			}
			switch {
			case li == 0 && ln.l.Kind == KindFile:
				checkFileStart(&rep, problem, fi == 0, f.name, ln, prev, prevFile, prevName, tombs)
				chained = true
			case li == 0 && ln.l.Prev != "":
				problem(f.name, at, ProblemStartCut, "%s does not begin with its header: its first lines (before seq %d) were removed", f.name, ln.l.Seq)
				chained = true
			case ln.l.Prev == "":
				if chained {
					problem(f.name, at, ProblemUnlinked, "line %d carries no link to the line before it, after chained lines: it was inserted or rewritten", at)
				} else {
					rep.Unchained++
				}
			case prev == nil || ln.l.Prev != prev.hash:
				chained = true
				switch {
				case prev == nil || !prev.ok: // reported as damaged already
				case ln.l.Seq == prev.l.Seq+1:
					problem(f.name, at-1, ProblemEdited, "line %d (seq %d) was changed: the next line's link does not match it", at-1, prev.l.Seq)
				case ln.l.Seq > prev.l.Seq+1:
					problem(f.name, at, ProblemGap, "lines seq %d…%d are missing before line %d: deleted", prev.l.Seq+1, ln.l.Seq-1, at)
				default:
					problem(f.name, at, ProblemEdited, "line %d (seq %d) does not follow line %d (seq %d): lines were changed or reordered", at, ln.l.Seq, at-1, prev.l.Seq)
				}
			default:
				chained = true
			}
			prev = ln
		}
		if !f.complete && len(f.lines) > 0 && f.lines[len(f.lines)-1].ok {
			problem(f.name, len(f.lines), ProblemTruncated, "%s ends inside a line: it was cut", f.name)
		}
		if fileNo != 0 || len(f.lines) > 0 {
			prevFile, prevName = fileNo, f.name
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

func readChainFile(name string) (readFileLines, error) {
	f := readFileLines{name: filepath.Base(name), complete: true}
	file, err := os.Open(name)
	if err != nil {
		return f, err
	}
	defer file.Close()
	data, err := io.ReadAll(file)
	if err != nil {
		return f, err
	}
	f.complete = len(data) == 0 || data[len(data)-1] == '\n'
	for _, raw := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if len(data) == 0 {
			break
		}
		ln := readLine{raw: raw, hash: hashLine(raw)}
		ln.ok = json.Unmarshal(raw, &ln.l) == nil && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{"))
		f.lines = append(f.lines, ln)
	}
	return f, nil
}
