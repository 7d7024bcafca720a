// Package write puts rendered files on disk safely: all or nothing per file
// (temp file + rename), untouched when unchanged, and stale files of owned
// directories removed so a deleted tool leaves nothing behind.
package write

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Tree writes files (paths relative to root) and deletes any other file under
// root that the generator owns (owned reports which).
func Tree(root string, files map[string][]byte, owned func(rel string) bool) (changed []string, err error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		did, err := File(filepath.Join(root, filepath.FromSlash(n)), files[n])
		if err != nil {
			return changed, err
		}
		if did {
			changed = append(changed, n)
		}
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if _, keep := files[rel]; keep || !owned(rel) {
			return nil
		}
		changed = append(changed, "-"+rel)
		return os.Remove(p)
	})
	return changed, err
}

// File writes b to path unless it already holds exactly b.
func File(path string, b []byte) (bool, error) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gen-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return false, err
	}
	return true, os.Rename(tmp.Name(), path)
}

// Splice replaces the text between begin and end markers in path with body.
func Splice(path, begin, end string, body []byte) (bool, error) {
	old, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	out, err := Spliced(old, begin, end, body)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return File(path, out)
}

// Spliced is old with the text between the begin and end markers replaced by
// body: what Splice writes, in memory (the freshness test compares it).
func Spliced(old []byte, begin, end string, body []byte) ([]byte, error) {
	s := string(old)
	i := strings.Index(s, begin)
	j := strings.Index(s, end)
	if i < 0 || j < i {
		return nil, fmt.Errorf("markers %q … %q not found", begin, end)
	}
	return []byte(s[:i+len(begin)] + "\n" + string(body) + s[j:]), nil
}

// Owned says which files under the output directory the generator manages:
// all of them but hand-kept notes.
func Owned(rel string) bool { return !strings.HasSuffix(rel, ".keep") }
