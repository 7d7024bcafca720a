package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// The audit is a hash chain: every line (records and file headers alike)
// carries seq, its number in the chain, and prev, the hash of the line
// before it, so an edited, removed or inserted line breaks the chain at the
// line after it. Every file the writer starts opens with a header line that
// continues the chain from the last line of the file before (rotation) and
// carries a tombstone for each file rotation removed: `ghostlight audit
// verify` tells "rotated away as configured" from "deleted".

// KindFile marks a file header line (records have no kind).
const KindFile = "file"

// HashPrefix names the hash of a chained line.
const HashPrefix = "sha256:"

// Header is the first line of every audit file the writer starts.
type Header struct {
	V    int       `json:"v"`
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`
	// File numbers the files of the chain (1 is the first).
	File int    `json:"file"`
	Seq  uint64 `json:"seq"`
	// Prev is the hash of the last line of file File-1; absent where a
	// chain starts.
	Prev string `json:"prev,omitempty"`
	// Restart says the writer found no live file to continue although
	// rotated files exist: the file before was deleted or replaced.
	Restart bool `json:"restart,omitempty"`
	// Dropped lists the files this rotation removed (keep was reached).
	Dropped []Tombstone `json:"dropped,omitempty"`
}

// Tombstone is what the chain keeps of a file rotation removed.
type Tombstone struct {
	File     int    `json:"file"`
	Lines    int    `json:"lines"`
	FirstSeq uint64 `json:"first_seq"`
	LastSeq  uint64 `json:"last_seq"`
	// Last is the hash of its last line, the prev of the next file's header.
	Last string `json:"last"`
	Keep int    `json:"keep"`
}

// link is the chain fields every line carries, read without knowing its kind.
type link struct {
	V          int         `json:"v"`
	Kind       string      `json:"kind"`
	File       int         `json:"file"`
	Seq        uint64      `json:"seq"`
	Prev       string      `json:"prev"`
	Restart    bool        `json:"restart"`
	Dropped    []Tombstone `json:"dropped"`
	Invocation string      `json:"invocation"`
}

// hashLine is the chain hash of one line (without its newline).
func hashLine(line []byte) string {
	sum := sha256.Sum256(line)
	return HashPrefix + hex.EncodeToString(sum[:])
}

// tip is where a file's chain ends: the last line's number and hash (zero
// for an empty file).
type tip struct {
	seq  uint64
	hash string
}

// fileSummary is what rotation and verify need of one whole file.
type fileSummary struct {
	file         int // from its header; 0 for a file without one
	lines        int
	first, last  uint64
	lastHash     string
	lastComplete bool // the file ends with a newline
}

// lastLine returns the file's last line (without its newline), reading
// back from the end a scan buffer at a time, at most audit_line_bytes: a
// writer whose cached end is stale (another server appended) reads about
// one line, not the file.
func lastLine(f *os.File, size int64) ([]byte, error) {
	limit := min(size, int64(surface.AuditLineBytesMax)+1)
	for n := min(limit, int64(surface.AuditScanBufferBytesMax)); ; n = min(limit, 2*n) {
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return buf[i+1:], nil
		}
		if n == limit {
			return buf, nil // the file's only line, or one past the bound
		}
	}
}

// tipOf reads the chain's end from the last line of a file.
func tipOf(name string, size int64) (tip, error) {
	f, err := os.Open(name)
	if err != nil {
		return tip{}, err
	}
	defer f.Close()
	line, err := lastLine(f, size)
	if err != nil || len(line) == 0 {
		return tip{}, err
	}
	var l link
	_ = json.Unmarshal(line, &l) // a line that does not parse still chains by its hash
	return tip{seq: l.Seq, hash: hashLine(line)}, nil
}

// summarize streams a whole file for its header's file number, its line
// count and the ends of its chain.
func summarize(name string) (fileSummary, error) {
	var s fileSummary
	if _, err := os.Stat(name); err != nil {
		return s, err
	}
	err := eachLine(name, func(ln readLine, complete bool) bool {
		if s.lines == 0 {
			s.first = ln.l.Seq
			if ln.l.Kind == KindFile {
				s.file = ln.l.File
			}
		}
		s.lines++
		s.last, s.lastHash, s.lastComplete = ln.l.Seq, ln.hash, complete
		return true
	})
	return s, err
}

// startHeader is the header of a file the writer starts without rotating:
// the first file of a chain, or (rotated files exist, no live file) a
// restart, numbered on from the newest rotated file so verify names what is
// missing.
func startHeader(path string) Header {
	h := Header{V: Version, Kind: KindFile, Time: time.Now().UTC(), File: 1, Seq: 1}
	if s, err := summarize(rotated(path, 1)); err == nil {
		h.Restart = true
		h.File, h.Seq = s.file+1, s.last+1
	} else if !errors.Is(err, fs.ErrNotExist) {
		h.Restart = true
	}
	return h
}
