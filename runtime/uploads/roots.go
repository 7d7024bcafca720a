// Package uploads reads the local files browser_upload hands to a page: each path held to its roots in resolved form, opened beneath the deepest root that holds it following no link (openat2 on Linux, a check after the open elsewhere), checked (a regular file, within the size bounds, one hard link unless allowed) and read.
//
// The page gets those bytes; the browser never opens a path of its own.
// Which roots and exclusions hold is the caller's (the policy in force, the
// client's roots, the working directory); a refusal names the rule it
// applied, never the path or the file's name.
package uploads

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// The rule a refusal names (its limit fact), one per source of roots.
const (
	RuleReadRoots   = "files.read_roots"
	RuleClientRoots = "mcp_roots"
	RuleWorkDir     = "working_directory"
	RuleSystemFiles = "system_files"
)

// Rule is one list of directories a file must lie within.
type Rule struct {
	Rule  string   // the limit fact
	Where string   // the rule in words, for the refusal message
	Roots []string // resolved (ResolveRoots)
}

// ResolveRoots resolves each root's symlinks; a root that does not resolve
// admits nothing.
func ResolveRoots(roots []string) []string {
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		if r == "" || !filepath.IsAbs(r) {
			continue
		}
		if real, err := filepath.EvalSymlinks(filepath.Clean(r)); err == nil {
			out = append(out, real)
		}
	}
	return out
}

// systemDirs hold pseudo-files (kernel state, devices) that are never
// uploaded, whatever a root says.
var systemDirs = []string{"/proc", "/sys", "/dev"}

// Hold resolves each path and checks it against every rule. A
// missing file is said to be missing only when it would lie within the
// roots, so a refusal never tells whether a file exists elsewhere.
func Hold(paths []string, rules []Rule) ([]string, *surface.Refusal) {
	out := make([]string, 0, len(paths))
	for i, p := range paths {
		ptr := "/paths/" + strconv.Itoa(i)
		denied := func(rule, msg string) *surface.Refusal {
			return &surface.Refusal{Reason: surface.ReasonPathDenied, Pointer: ptr, Limit: rule, Message: msg}
		}
		if !filepath.IsAbs(p) {
			return nil, denied(rules[0].Rule, "uploads read absolute local paths only")
		}
		// EvalSymlinks takes ".." after a symlink as the kernel does.
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			if bad := outside(resolveExisting(p), rules); bad != nil {
				return nil, denied(bad.Rule, "that file lies outside "+bad.Where)
			}
			return nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgMissingFile}
		}
		for _, d := range systemDirs {
			if within(real, d) {
				return nil, denied(RuleSystemFiles, "system pseudo-files (under /proc, /sys or /dev) are never uploaded")
			}
		}
		if bad := outside(real, rules); bad != nil {
			return nil, denied(bad.Rule, "that file lies outside "+bad.Where)
		}
		fi, err := os.Lstat(real)
		switch {
		case err != nil:
			return nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgMissingFile}
		case fi.IsDir():
			return nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgIsDirectory}
		case !fi.Mode().IsRegular():
			// Opening a fifo would block; a device or socket is no file.
			return nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgNotRegular}
		}
		out = append(out, real)
	}
	return out, nil
}

// resolveExisting resolves the longest part of a path that exists and keeps
// the rest as written (it names nothing that exists, so no symlink).
func resolveExisting(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	parent := filepath.Dir(p)
	if parent == p {
		return filepath.Clean(p)
	}
	return filepath.Join(resolveExisting(parent), filepath.Base(p))
}

// outside returns the first rule none of whose roots holds path (nil when
// every rule admits it).
func outside(path string, rules []Rule) *Rule {
	for i := range rules {
		ok := false
		for _, root := range rules[i].Roots {
			if within(path, root) {
				ok = true
				break
			}
		}
		if !ok {
			return &rules[i]
		}
	}
	return nil
}

// within reports whether path (clean, absolute) is root or lies below it.
func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
