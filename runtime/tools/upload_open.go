package tools

// How browser_upload reads a local file. The path is held to the roots
// (upload_roots.go) in its resolved form; then Ghostlight opens the file
// itself beneath the deepest root that holds it, following no link
// (openBeneath: openat2 on Linux, a check after the open elsewhere),
// checks the open file (regular, within the size bound, one hard link
// unless files.hard_links allows more) and reads it. The page gets those
// bytes (input.FileInput.AttachFiles); the browser never opens a path of
// its own, so nothing swapped in after the check can reach it.

import (
	"context"
	"errors"
	"fmt"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"io"
	"mime"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// The rules a refusal of an opened file names (its limit fact).
const (
	ruleDotfiles  = "files.dotfiles"
	ruleExclude   = "files.exclude"
	ruleHardLinks = "files.hard_links"
	// A link met while opening beneath the root: the path changed between
	// the check and the open (or a directory of it is a link).
	ruleNoLinks = "no_links_beneath_root"
)

// errLink is openBeneath's answer when the path holds a link (or changed
// to one after it was resolved).
var errLink = errors.New("a link in the path")

// uploadExclusions are what an upload never reads below a root.
type uploadExclusions struct {
	dotfiles  bool     // files.dotfiles: exclude
	hardLinks bool     // files.hard_links: allow
	globs     []string // every layer's files.exclude
}

// exclusions reads the policy in force; without one, the defaults hold
// (dotfiles excluded, hard links refused).
func exclusions(ctx context.Context) uploadExclusions {
	ex := uploadExclusions{dotfiles: true}
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
		d, _ := inv.Authority.UploadDotfiles()
		hl, _ := inv.Authority.UploadHardLinks()
		ex.dotfiles, ex.hardLinks = d != "include", hl == "allow"
		for _, l := range inv.Authority.ExcludeLists() {
			ex.globs = append(ex.globs, l.Globs...)
		}
	}
	return ex
}

// excluded returns the rule that keeps rel (slash-separated, below its
// root) from uploads, "" when none does.
func (ex uploadExclusions) excluded(rel string) (rule, msg string) {
	parts := strings.Split(rel, "/")
	if ex.dotfiles {
		for _, p := range parts {
			if strings.HasPrefix(p, ".") {
				return ruleDotfiles, "dotfiles and files under dot-directories (.env, .git, .ssh) are not uploaded (files.dotfiles: exclude)"
			}
		}
	}
	for _, g := range ex.globs {
		for _, s := range append(parts, rel) {
			ok, err := path.Match(g, s)
			if err != nil {
				return ruleExclude, "a files.exclude glob of the policy is malformed, so no file is uploaded"
			}
			if ok {
				return ruleExclude, "that file matches a files.exclude glob of the policy"
			}
		}
	}
	return "", ""
}

// readUploads holds every path to the roots and the exclusions, opens each
// beneath its root and reads it: the files as the page will get them. No
// byte is read before every file passed its checks and the size bounds.
func (h *Handler) readUploads(ctx context.Context, paths []string) ([]input.File, []int64, *surface.Refusal) {
	rules := h.uploadRules(ctx)
	real, r := holdToRoots(paths, rules)
	if r != nil {
		return nil, nil, r
	}
	ex := exclusions(ctx)
	uploadChecked(real)
	opened := make([]*os.File, 0, len(real))
	defer func() {
		for _, f := range opened {
			f.Close()
		}
	}()
	sizes := make([]int64, 0, len(real))
	for i, p := range real {
		ptr := "/paths/" + strconv.Itoa(i)
		denied := func(rule, msg string) *surface.Refusal {
			return &surface.Refusal{Reason: surface.ReasonPathDenied, Pointer: ptr, Limit: rule, Message: msg}
		}
		root, rel := deepestRoot(p, rules)
		if root == "" || rel == "." {
			return nil, nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgIsDirectory}
		}
		if rule, msg := ex.excluded(filepath.ToSlash(rel)); rule != "" {
			return nil, nil, denied(rule, msg)
		}
		f, err := openBeneath(root, rel)
		switch {
		case errors.Is(err, errLink):
			return nil, nil, denied(ruleNoLinks, "a link in that path (or one swapped in since it was checked) is not followed")
		case err != nil:
			return nil, nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgUnreadable}
		}
		opened = append(opened, f)
		fi, err := f.Stat()
		switch {
		case err != nil:
			return nil, nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgUnreadable}
		case fi.IsDir():
			return nil, nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgIsDirectory}
		case !fi.Mode().IsRegular():
			return nil, nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgNotRegular}
		}
		if n, ok := linkCount(fi); ok && n > 1 && !ex.hardLinks {
			return nil, nil, denied(ruleHardLinks, fmt.Sprintf("that file has %d hard links, and another name of it may lie outside the roots (files.hard_links: deny)", n))
		}
		sizes = append(sizes, fi.Size())
	}
	if r := checkSizes(sizes, "/paths"); r != nil {
		return nil, nil, r
	}
	files := make([]input.File, 0, len(opened))
	sizes = sizes[:0]
	for i, f := range opened {
		data, err := io.ReadAll(io.LimitReader(f, surface.UploadFileBytesMax+1))
		ptr := "/paths/" + strconv.Itoa(i)
		switch {
		case err != nil:
			return nil, nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Message: language.MsgUnreadable}
		case len(data) > surface.UploadFileBytesMax: // it grew since the check
			return nil, nil, &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: ptr, Rule: surface.RuleMaximum,
				Limit: strconv.Itoa(surface.UploadFileBytesMax), Message: language.FileTooLarge(surface.UploadFileBytesMax)}
		}
		name := filepath.Base(paths[i])
		files = append(files, input.File{Name: name, MIME: mime.TypeByExtension(filepath.Ext(name)), Data: data})
		sizes = append(sizes, int64(len(data)))
	}
	return files, sizes, checkSizes(sizes, "/paths")
}

// uploadChecked runs between the check of the resolved paths and their
// open: tests swap a file there, the moment a race would.
var uploadChecked = func(real []string) {}

// deepestRoot is the longest root of any rule that holds p (resolved), and
// p relative to it ("" when none does).
func deepestRoot(p string, rules []rootRule) (root, rel string) {
	for _, rl := range rules {
		for _, r := range rl.roots {
			if within(p, r) && len(r) > len(root) {
				root = r
			}
		}
	}
	if root == "" {
		return "", ""
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", ""
	}
	return root, rel
}

// openCheckAfter is the portable open beneath root: os.Root keeps the open
// within root, and the file opened must be the one rel names without
// following a final link (compared by device and inode), so a link swapped
// in at the end is refused.
func openCheckAfter(root, rel string) (*os.File, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.Open(rel)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return nil, errLink
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	li, err := r.Lstat(rel)
	if err != nil || li.Mode()&os.ModeSymlink != 0 || !os.SameFile(fi, li) {
		f.Close()
		return nil, errLink
	}
	return f, nil
}
