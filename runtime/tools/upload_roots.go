package tools

// Where browser_upload may read local files. Uploads read only from allowed
// directories: every layer's files.read_roots when any layer sets them, else
// the directories the MCP client shares as roots, else the server's working
// directory. Paths and roots are resolved (symlinks, "..") before the check;
// system pseudo-files and anything but a regular file are refused. The file
// is then opened beneath its root without following links (upload_open.go).
// A refusal names the rule it applied, never the path or the file's name.

import (
	"context"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// ClientRoots returns the local directories the MCP client shares as roots
// (file URIs already turned into absolute paths), and whether it shares any.
type ClientRoots func(ctx context.Context) (dirs []string, ok bool)

type clientRootsKey struct{}

// WithClientRoots hands the calls under ctx their client's roots; the server
// sets it for every call from the MCP edge.
func WithClientRoots(ctx context.Context, r ClientRoots) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, clientRootsKey{}, r)
}

// The rule a refusal names (its limit fact), one per source of roots.
const (
	ruleReadRoots   = "files.read_roots"
	ruleClientRoots = "mcp_roots"
	ruleWorkDir     = "working_directory"
	ruleSystemFiles = "system_files"
)

// rootRule is one list of directories a file must lie within.
type rootRule struct {
	rule  string   // the limit fact
	where string   // the rule in words, for the refusal message
	roots []string // resolved
}

// uploadRules are the lists a file must lie within, each one: every layer
// that sets files.read_roots, else the client's roots, else the working
// directory.
func (h *Handler) uploadRules(ctx context.Context) []rootRule {
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
		if lists := inv.Authority.ReadRootLists(); len(lists) > 0 {
			out := make([]rootRule, len(lists))
			for i, l := range lists {
				out[i] = rootRule{rule: ruleReadRoots, where: "the " + l.Layer + " layer's files.read_roots", roots: resolveRoots(l.Roots)}
			}
			return out
		}
	}
	if cr, _ := ctx.Value(clientRootsKey{}).(ClientRoots); cr != nil {
		if dirs, ok := cr(ctx); ok && len(dirs) > 0 {
			return []rootRule{{rule: ruleClientRoots, where: "the directories the client shares as MCP roots", roots: resolveRoots(dirs)}}
		}
	}
	w := rootRule{rule: ruleWorkDir, where: "the server's working directory (neither files.read_roots nor the client's MCP roots name upload directories)"}
	// A server started at the filesystem root would otherwise read every
	// file on the machine: that is no default.
	if roots := resolveRoots([]string{h.workDir}); len(roots) == 1 && roots[0] != string(filepath.Separator) {
		w.roots = roots
	}
	return []rootRule{w}
}

// resolveRoots resolves each root's symlinks; a root that does not resolve
// admits nothing.
func resolveRoots(roots []string) []string {
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

// holdToRoots resolves each path and checks it against every rule. A
// missing file is said to be missing only when it would lie within the
// roots, so a refusal never tells whether a file exists elsewhere.
func holdToRoots(paths []string, rules []rootRule) ([]string, *surface.Refusal) {
	out := make([]string, 0, len(paths))
	for i, p := range paths {
		ptr := "/paths/" + strconv.Itoa(i)
		denied := func(rule, msg string) *surface.Refusal {
			return &surface.Refusal{Reason: surface.ReasonPathDenied, Pointer: ptr, Limit: rule, Message: msg}
		}
		if !filepath.IsAbs(p) {
			return nil, denied(rules[0].rule, "uploads read absolute local paths only")
		}
		// EvalSymlinks takes ".." after a symlink as the kernel does.
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			if bad := outside(resolveExisting(p), rules); bad != nil {
				return nil, denied(bad.rule, "that file lies outside "+bad.where)
			}
			return nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgMissingFile}
		}
		for _, d := range systemDirs {
			if within(real, d) {
				return nil, denied(ruleSystemFiles, "system pseudo-files (under /proc, /sys or /dev) are never uploaded")
			}
		}
		if bad := outside(real, rules); bad != nil {
			return nil, denied(bad.rule, "that file lies outside "+bad.where)
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
func outside(path string, rules []rootRule) *rootRule {
	for i := range rules {
		ok := false
		for _, root := range rules[i].roots {
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
