package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// chainOf writes total records through a writer that rotates at the
// smallest size and keeps keep files, and returns the live path.
func chainOf(t *testing.T, keep, total int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w := Open(Config{Path: p, MaxBytes: surface.AuditMaxBytesMin, Keep: keep}, nil)
	defer w.Close()
	for i := 1; i <= total; i++ {
		if err := w.Write(rec(i, "s")); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func verify(t *testing.T, p string) Report {
	t.Helper()
	rep, err := Verify(p)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// wantProblem fails unless the report's first problem is of kind in file.
func wantProblem(t *testing.T, rep Report, kind, file string) {
	t.Helper()
	if rep.OK() {
		t.Fatalf("verify passed; want %s in %s", kind, file)
	}
	if p := rep.Problems[0]; p.Kind != kind || p.File != file {
		t.Fatalf("first problem %+v; want %s in %s (all: %+v)", p, kind, file, rep.Problems)
	}
	t.Logf("found: %s line %d: %s", rep.Problems[0].File, rep.Problems[0].Line, rep.Problems[0].Msg)
}

func readLines(t *testing.T, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	ls := bytes.SplitAfter(data, []byte("\n"))
	return ls[:len(ls)-1] // each line with its newline
}

func writeLines(t *testing.T, name string, lines [][]byte) {
	t.Helper()
	if err := os.WriteFile(name, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A clean chain across many rotations verifies: every kept line links to
// the one before, and the files rotation removed are accounted for by the
// tombstone in a kept header.
func TestVerifyCleanChainAcrossRotations(t *testing.T) {
	p := chainOf(t, 3, 300)
	rep := verify(t, p)
	if !rep.OK() {
		t.Fatalf("clean chain: %+v", rep.Problems)
	}
	h := lines(t, p)
	if len(rep.Files) != 4 || rep.TipSeq == 0 || len(rep.Rotated) != 1 || h[len(h)-1].Invocation != "inv_300" {
		t.Fatalf("report %+v", rep)
	}
	var headers, rotations int
	for _, f := range rep.Files {
		for _, l := range readLines(t, filepath.Join(filepath.Dir(p), f)) {
			if bytes.Contains(l, []byte(`"kind":"file"`)) {
				headers++
				if bytes.Contains(l, []byte(`"dropped"`)) {
					rotations++
				}
			}
		}
	}
	first := rep.Rotated[0]
	t.Logf("%d records, %d lines over %d files; oldest kept follows file %d (%d lines, seq %d…%d) rotated away; tip seq %d", rep.Records, rep.Lines, len(rep.Files), first.File, first.Lines, first.FirstSeq, first.LastSeq, rep.TipSeq)
	if headers != 4 || rotations < 3 || first.File < 3 {
		t.Fatalf("headers %d, rotations with tombstones %d, first dropped file %d: want more than 3 rotations", headers, rotations, first.File)
	}
}

func TestVerifyFindsAnEditedLine(t *testing.T) {
	p := chainOf(t, 3, 200)
	name := p + ".2"
	ls := readLines(t, name)
	ls[4] = bytes.Replace(ls[4], []byte(`"status":"succeeded"`), []byte(`"status":"failed"`), 1)
	writeLines(t, name, ls)
	rep := verify(t, p)
	wantProblem(t, rep, ProblemEdited, "audit.jsonl.2")
	if rep.Problems[0].Line != 5 {
		t.Fatalf("edited line reported at %d, want 5", rep.Problems[0].Line)
	}
}

func TestVerifyFindsADeletedLine(t *testing.T) {
	p := chainOf(t, 3, 200)
	name := p + ".1"
	ls := readLines(t, name)
	writeLines(t, name, append(ls[:3:3], ls[4:]...))
	rep := verify(t, p)
	wantProblem(t, rep, ProblemGap, "audit.jsonl.1")

	// The live file's line too.
	ls = readLines(t, p)
	writeLines(t, p, append(ls[:2:2], ls[3:]...))
	rep = verify(t, p)
	if len(rep.Problems) != 2 || rep.Problems[1].Kind != ProblemGap || rep.Problems[1].File != "audit.jsonl" {
		t.Fatalf("problems %+v", rep.Problems)
	}
}

func TestVerifyFindsADeletedMiddleFile(t *testing.T) {
	p := chainOf(t, 3, 200)
	os.Remove(p + ".2")
	wantProblem(t, verify(t, p), ProblemMissingFile, "audit.jsonl.1")
}

// The oldest file deleted by hand (not by rotation) leaves no tombstone.
func TestVerifyFindsADeletedOldestFile(t *testing.T) {
	p := chainOf(t, 3, 200)
	os.Remove(p + ".3")
	wantProblem(t, verify(t, p), ProblemMissingFile, "audit.jsonl.2")
}

func TestVerifyFindsATruncatedFile(t *testing.T) {
	p := chainOf(t, 3, 200)
	// At a line boundary: the next file's header shows the cut.
	ls := readLines(t, p+".2")
	writeLines(t, p+".2", ls[:len(ls)-2])
	wantProblem(t, verify(t, p), ProblemTruncated, "audit.jsonl.2")

	// Inside a line.
	p = chainOf(t, 3, 200)
	st, _ := os.Stat(p + ".1")
	os.Truncate(p+".1", st.Size()-20)
	rep := verify(t, p)
	if len(rep.Problems) != 1 || rep.Problems[0].File != "audit.jsonl.1" || rep.Problems[0].Kind != ProblemTruncated {
		t.Fatalf("cut inside a line: %+v", rep.Problems)
	}
	t.Logf("cut inside a line: %+v", rep.Problems)
}

// A live file cut at a line boundary shows once the writer appends again:
// it chains on from the line it remembers writing.
func TestVerifyFindsALiveFileCutBeforeTheNextWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w := Open(Config{Path: p}, nil)
	defer w.Close()
	for i := 1; i <= 10; i++ {
		w.Write(rec(i, "s"))
	}
	ls := readLines(t, p)
	writeLines(t, p, ls[:len(ls)-3])
	if err := w.Write(rec(11, "s")); err != nil {
		t.Fatal(err)
	}
	wantProblem(t, verify(t, p), ProblemGap, "audit.jsonl")
}

// A live file deleted while the server runs: the writer starts a new file
// that says it restarted, and verify reports the loss.
func TestVerifyFindsADeletedLiveFile(t *testing.T) {
	p := chainOf(t, 3, 100)
	w := Open(Config{Path: p, MaxBytes: surface.AuditMaxBytesMin, Keep: 3}, nil)
	defer w.Close()
	os.Remove(p)
	if err := w.Write(rec(101, "s")); err != nil {
		t.Fatal(err)
	}
	// The live file held the tombstone of the file rotation removed last,
	// so the oldest kept file is unaccounted for too.
	rep := verify(t, p)
	wantProblem(t, rep, ProblemMissingFile, "audit.jsonl.3")
	if len(rep.Problems) != 2 || rep.Problems[1].Kind != ProblemRestart || rep.Problems[1].File != "audit.jsonl" {
		t.Fatalf("problems %+v", rep.Problems)
	}
}

// Lines of the unchained format (1) before the chain began verify as
// unchained; the first chained line links to the last of them.
func TestVerifyAcceptsUnchainedLinesBeforeTheChain(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	var old strings.Builder
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&old, `{"v":1,"time":"2026-05-01T10:00:00Z","invocation":"inv_old%d","workspace":"s","tool":"browser_read","capabilities":["read"],"decision":"allow","hosts":[],"status":"succeeded","effect":"none","duration_ms":1,"policy":"sha256:0"}`+"\n", i)
	}
	os.WriteFile(p, []byte(old.String()), 0o600)
	w := Open(Config{Path: p}, nil)
	w.Write(rec(1, "s"))
	w.Write(rec(2, "s"))
	w.Close()
	rep := verify(t, p)
	if !rep.OK() || rep.Unchained != 3 || rep.Records != 5 {
		t.Fatalf("report %+v", rep)
	}
	// A format-1 line slipped in after the chain began is not accepted.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(strings.SplitAfter(old.String(), "\n")[0])
	f.Close()
	wantProblem(t, verify(t, p), ProblemUnlinked, "audit.jsonl")
}

// lastLine finds the last line however it sits against the scan buffer:
// short lines, a line longer than the buffer, a file of one line.
func TestLastLine(t *testing.T) {
	long := strings.Repeat("x", surface.AuditScanBufferBytesMax*3)
	for _, c := range []struct{ content, want string }{
		{"a\nb\n", "b"},
		{"a\n" + long + "\n", long},
		{long + "\n", long},
		{"only", "only"},
		{"a\nno newline", "no newline"},
	} {
		p := filepath.Join(t.TempDir(), "f")
		os.WriteFile(p, []byte(c.content), 0o600)
		f, _ := os.Open(p)
		got, err := lastLine(f, int64(len(c.content)))
		f.Close()
		if err != nil || string(got) != c.want {
			t.Errorf("%d bytes: last line of %d bytes, want %d (%v)", len(c.content), len(got), len(c.want), err)
		}
	}
}
