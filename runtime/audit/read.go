package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Entry is one line read back: the record and the line as written (so JSON
// output keeps fields a newer writer added).
type Entry struct {
	Record
	Raw json.RawMessage
}

// Filter selects entries; an empty field matches every value.
type Filter struct {
	Workspace string
	Tool      string
	Status    string
}

func (f Filter) match(r Record) bool {
	return (f.Workspace == "" || f.Workspace == r.Workspace) &&
		(f.Tool == "" || f.Tool == r.Tool) &&
		(f.Status == "" || f.Status == r.Status)
}

// Files lists the audit file and its rotated siblings that exist, newest
// first: Path, Path.1, Path.2, …
func Files(path string) ([]string, error) {
	matches, err := filepath.Glob(globEscape(path) + ".*")
	if err != nil {
		return nil, err
	}
	type rot struct {
		n    int
		name string
	}
	var rots []rot
	for _, m := range matches {
		n, err := strconv.Atoi(strings.TrimPrefix(m, path+"."))
		if err == nil && n > 0 {
			rots = append(rots, rot{n, m})
		}
	}
	sort.Slice(rots, func(i, j int) bool { return rots[i].n < rots[j].n })
	var out []string
	if _, err := os.Stat(path); err == nil {
		out = append(out, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, r := range rots {
		out = append(out, r.name)
	}
	return out, nil
}

func globEscape(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(p)
}

// Tail returns the last n entries (n <= 0: all) that match f, oldest first,
// reading rotated files too. Lines that do not parse (a foreign edit, a
// newer format) are counted in skipped, never fatal.
func Tail(path string, n int, f Filter) (entries []Entry, skipped int, err error) {
	files, err := Files(path)
	if err != nil {
		return nil, 0, err
	}
	// Newest file first; stop once enough entries are found.
	for _, name := range files {
		got, bad, err := readFile(path, name, f)
		if err != nil {
			return nil, skipped, err
		}
		skipped += bad
		entries = append(got, entries...)
		if n > 0 && len(entries) >= n {
			break
		}
	}
	if n > 0 && len(entries) > n {
		entries = entries[len(entries)-n:]
	}
	return entries, skipped, nil
}

func readFile(path, name string, f Filter) ([]Entry, int, error) {
	file, err := os.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, nil // rotated away meanwhile
		}
		return nil, 0, err
	}
	defer file.Close()
	// Read the whole file under the writers' lock, shared (an append is never
	// seen half done), then parse without holding it. No lock file: no
	// writer ever ran there.
	if lk, err := os.Open(lockPath(path)); err == nil {
		defer lk.Close()
		if err := lockShared(lk); err != nil {
			return nil, 0, err
		}
		defer unlockFile(lk)
	}
	data, err := io.ReadAll(file)
	if err != nil {
		return nil, 0, err
	}
	var out []Entry
	bad := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, surface.AuditScanBufferBytesMax), surface.AuditLineBytesMax)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r Record
		err := json.Unmarshal(line, &r)
		if err == nil && (r.Kind == KindFile || r.Kind == KindBegin) && r.V <= Version {
			continue // a file header, or a call's begin line: its outcome is the call's line
		}
		if err != nil || r.V < 1 || r.V > Version || r.Invocation == "" {
			bad++
			continue
		}
		if f.match(r) {
			out = append(out, Entry{Record: r, Raw: append(json.RawMessage(nil), line...)})
		}
	}
	if err := sc.Err(); err != nil {
		return out, bad + 1, nil // an overlong line ends the file's reading
	}
	return out, bad, nil
}
