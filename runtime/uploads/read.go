package uploads

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// The rules a refusal of an opened file names (its limit fact).
const (
	RuleDotfiles  = "files.dotfiles"
	RuleExclude   = "files.exclude"
	RuleHardLinks = "files.hard_links"
	// A link met while opening beneath the root: the path changed between
	// the check and the open (or a directory of it is a link).
	RuleNoLinks = "no_links_beneath_root"
)

// errLink is openBeneath's answer when the path holds a link (or changed
// to one after it was resolved).
var errLink = errors.New("a link in the path")

// Exclusions are what an upload never reads below a root; the zero value
// holds the policy's defaults but one: set Dotfiles (dotfiles excluded).
type Exclusions struct {
	Dotfiles  bool     // files.dotfiles: exclude
	HardLinks bool     // files.hard_links: allow
	Globs     []string // every layer's files.exclude
}

// excluded returns the rule that keeps rel (slash-separated, below its
// root) from uploads, "" when none does.
func (ex Exclusions) excluded(rel string) (rule, msg string) {
	parts := strings.Split(rel, "/")
	if ex.Dotfiles {
		for _, p := range parts {
			if strings.HasPrefix(p, ".") {
				return RuleDotfiles, "dotfiles and files under dot-directories (.env, .git, .ssh) are not uploaded (files.dotfiles: exclude)"
			}
		}
	}
	for _, g := range ex.Globs {
		for _, s := range append(parts, rel) {
			ok, err := path.Match(g, s)
			if err != nil {
				return RuleExclude, "a files.exclude glob of the policy is malformed, so no file is uploaded"
			}
			if ok {
				return RuleExclude, "that file matches a files.exclude glob of the policy"
			}
		}
	}
	return "", ""
}

// Read holds every path to the roots and the exclusions, opens each
// beneath its root and reads it: the files as the page will get them. No
// byte is read before every file passed its checks and the size bounds.
func Read(paths []string, rules []Rule, ex Exclusions) ([]input.File, []int64, *surface.Refusal) {
	real, r := Hold(paths, rules)
	if r != nil {
		return nil, nil, r
	}
	Checked(real)
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
			return nil, nil, denied(RuleNoLinks, "a link in that path (or one swapped in since it was checked) is not followed")
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
		if n, ok := linkCount(fi); ok && n > 1 && !ex.HardLinks {
			return nil, nil, denied(RuleHardLinks, fmt.Sprintf("that file has %d hard links, and another name of it may lie outside the roots (files.hard_links: deny)", n))
		}
		sizes = append(sizes, fi.Size())
	}
	if r := CheckSizes(sizes, "/paths"); r != nil {
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
	return files, sizes, CheckSizes(sizes, "/paths")
}

// Checked runs between the check of the resolved paths and their
// open: tests swap a file there, the moment a race would.
var Checked = func(real []string) {}

// deepestRoot is the longest root of any rule that holds p (resolved), and
// p relative to it ("" when none does).
func deepestRoot(p string, rules []Rule) (root, rel string) {
	for _, rl := range rules {
		for _, r := range rl.Roots {
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

// CheckSizes applies the per-file and total upload bounds.
func CheckSizes(sizes []int64, pointer string) *surface.Refusal {
	var total int64
	for i, n := range sizes {
		if n > surface.UploadFileBytesMax {
			return &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: pointer + "/" + strconv.Itoa(i), Rule: surface.RuleMaximum,
				Limit: strconv.Itoa(surface.UploadFileBytesMax), Message: language.FileTooLarge(surface.UploadFileBytesMax)}
		}
		total += n
	}
	if total > surface.UploadTotalBytesMax {
		return &surface.Refusal{Reason: surface.ReasonFileRefused, Pointer: pointer, Rule: surface.RuleMaximum,
			Limit: strconv.Itoa(surface.UploadTotalBytesMax), Message: language.FilesTooLarge(surface.UploadTotalBytesMax)}
	}
	return nil
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
