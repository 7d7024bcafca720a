package tools

// Where browser_upload may read local files: every layer's files.read_roots
// when any layer sets them, else the directories the MCP client shares as
// roots, else the server's working directory; and what it never reads
// below them (files.dotfiles, files.exclude, files.hard_links). Reading
// the files under those rules is runtime/uploads'.

import (
	"context"
	"path/filepath"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/uploads"
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

// uploadRules are the lists a file must lie within, each one: every layer
// that sets files.read_roots, else the client's roots, else the working
// directory.
func (h *Handler) uploadRules(ctx context.Context) []uploads.Rule {
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
		if lists := inv.Authority.ReadRootLists(); len(lists) > 0 {
			out := make([]uploads.Rule, len(lists))
			for i, l := range lists {
				out[i] = uploads.Rule{Rule: uploads.RuleReadRoots, Where: language.ReadRootsWhere(l.Layer), Roots: uploads.ResolveRoots(l.Roots)}
			}
			return out
		}
	}
	if cr, _ := ctx.Value(clientRootsKey{}).(ClientRoots); cr != nil {
		if dirs, ok := cr(ctx); ok && len(dirs) > 0 {
			return []uploads.Rule{{Rule: uploads.RuleClientRoots, Where: language.ClientRootsWhere, Roots: uploads.ResolveRoots(dirs)}}
		}
	}
	w := uploads.Rule{Rule: uploads.RuleWorkDir, Where: language.WorkDirWhere}
	// A server started at the filesystem root would otherwise read every
	// file on the machine: that is no default.
	if roots := uploads.ResolveRoots([]string{h.workDir}); len(roots) == 1 && roots[0] != string(filepath.Separator) {
		w.Roots = roots
	}
	return []uploads.Rule{w}
}

// exclusions reads the policy in force; without one, the defaults hold
// (dotfiles excluded, hard links refused).
func exclusions(ctx context.Context) uploads.Exclusions {
	ex := uploads.Exclusions{Dotfiles: true}
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
		d, _ := inv.Authority.UploadDotfiles()
		hl, _ := inv.Authority.UploadHardLinks()
		ex.Dotfiles, ex.HardLinks = d != "include", hl == "allow"
		for _, l := range inv.Authority.ExcludeLists() {
			ex.Globs = append(ex.Globs, l.Globs...)
		}
	}
	return ex
}

// readUploads reads the files at paths under the roots and exclusions in
// force (runtime/uploads).
func (h *Handler) readUploads(ctx context.Context, paths []string) ([]input.File, []int64, *surface.Refusal) {
	return uploads.Read(paths, h.uploadRules(ctx), exclusions(ctx))
}
