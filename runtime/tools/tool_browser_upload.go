package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
	"github.com/ghostlight-dev/ghostlight/runtime/uploads"
)

// BrowserUpload attaches local files, inline files or a captured image to
// one file input, or drops a captured image at a point of a current view.
// Sizes are checked before the browser is touched; inline bytes are decoded
// only after authorization and the credential preflight. Paths, names and
// contents never enter results beyond uploaded_count and uploaded_bytes.
func (h *Handler) BrowserUpload(ctx context.Context, a *surface.BrowserUploadArgs) (*surface.BrowserUploadFacts, surface.Outcome) {
	s := h.session(ctx)
	pipeline.FromContext(ctx).Stage(language.UploadingFiles) // progress a client sees
	var sizes []int64
	var img *viewEntry
	var local []input.File // the paths' files, read beneath their roots
	switch a.Branch() {
	case surface.BrowserUploadBranchPaths:
		var r *surface.Refusal
		if local, sizes, r = h.readUploads(ctx, a.Paths); r != nil { // upload_open.go
			return nil, outcome.Refused(r)
		}
	case surface.BrowserUploadBranchFiles:
		for _, fl := range a.Files {
			sizes = append(sizes, surface.Base64Size(fl.DataBase64))
		}
		if r := uploads.CheckSizes(sizes, "/files"); r != nil {
			return nil, outcome.Refused(r)
		}
	default:
		// A drop names view, x and y together (the decoder lets them apart).
		if a.View != "" && (a.X == nil || a.Y == nil) || a.View == "" && (a.X != nil || a.Y != nil) {
			ptr := "/view"
			if a.View != "" {
				ptr = "/x"
			}
			return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: ptr, Rule: surface.RuleBranchRequired,
				Message: language.MsgDropNeedsPoint})
		}
		if img = s.views.get(a.SourceImage); img == nil {
			return nil, outcome.Refused(s.views.missing(a.SourceImage, "/source_image"))
		}
		sizes = []int64{int64(len(img.data))}
		if r := uploads.CheckSizes(sizes, "/source_image"); r != nil {
			r.Message = language.MsgCaptureAboveCeiling
			return nil, outcome.Refused(r)
		}
	}
	var total int64
	for _, n := range sizes {
		total += n
	}

	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	t, ref := s.tabFor(ctx, a.Tab, a.Target, a.View)
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	f := &surface.BrowserUploadFacts{Tab: t.Handle(), Target: a.Target}
	noun := language.Plural(len(sizes), "file", "files")
	if img != nil {
		noun = language.CapturedImage
	}
	rec := language.Act{}
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		if img != nil && a.View != "" {
			pt, r := ac.ViewPoint(ctx, a.View, *a.X, *a.Y, "/view")
			if r != nil {
				return r
			}
			f.Target = a.View
			rec.Verb = language.Dropped(noun, total)
			rec.Object = language.At(*a.X, *a.Y, a.View)
			file := input.File{Name: uploads.ImageName(img.mime), MIME: img.mime, Data: img.data}
			shared := h.readsServerFiles(ctx, ac)
			err := ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
				if !shared {
					return input.DropFilesInPage(ctx, ac.Tab().Page(), pt, []input.File{file})
				}
				return input.DropFiles(ctx, ac.Tab().Page(), pt, []input.File{file}, h.stageDir)
			})
			if err == nil {
				f.UploadedCount, f.UploadedBytes = 1, int(total)
			}
			return act.InputRefusal(ctx, err, a.TimeoutMs)
		}
		fi, el, r := s.fileInput(ctx, ac, a, f)
		if r != nil {
			return r
		}
		defer release(ctx, fi)
		rec.Verb = language.Attached(noun, total)
		rec.Object = language.Target(el, h.names)
		var err error
		switch {
		case local != nil:
			// The bytes Ghostlight read: the browser opens no path of the
			// caller's, so no file swapped in since the check reaches it.
			err = ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) { return fi.AttachFiles(ctx, local) })
		case h.readsServerFiles(ctx, ac):
			// Only now, with the destination admitted and classified, do
			// inline bytes decode and reach the disk.
			paths, r := h.stageFiles(a, img)
			if r != nil {
				return r
			}
			err = ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
				if err := fi.SetFiles(ctx, paths); err != nil {
					if ctx.Err() != nil {
						return input.EffectUnknown, err
					}
					return input.EffectNone, err
				}
				return input.EffectApplied, nil
			})
		default:
			// A browser elsewhere gets the bytes, decoded only now.
			files, r := uploadBytes(a, img)
			if r != nil {
				return r
			}
			err = ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) { return fi.AttachFiles(ctx, files) })
		}
		if err == nil {
			f.UploadedCount, f.UploadedBytes = len(sizes), int(total)
		}
		return act.InputRefusal(ctx, err, a.TimeoutMs)
	})
	f.DialogType = ac.DialogType()
	return f, ac.Outcome("browser_upload", ref, rec, false, a.TimeoutMs, language.WhatUpload)
}

// fileInput resolves the destination file input: the target or selector
// named, or else the page's only file input. Credential-class inputs are
// handed to the user before anything is attached. Release the input when
// done.
func (s *session) fileInput(ctx context.Context, ac *act.Act, a *surface.BrowserUploadArgs, f *surface.BrowserUploadFacts) (*input.FileInput, *language.Acted, *surface.Refusal) {
	if a.Target == "" && a.Selector == nil {
		return s.soleFileInput(ctx, ac, a, f)
	}
	pointer := "/target"
	if a.Selector != nil {
		pointer = "/selector"
	}
	id, r := ac.Resolve(ctx, a.Target, a.Selector, pointer)
	if r != nil {
		return nil, nil, r
	}
	return s.fileInputByID(ctx, ac, id, pointer, a, f)
}

// fileInputByID checks and holds the file input with element id.
func (s *session) fileInputByID(ctx context.Context, ac *act.Act, id int, pointer string, a *surface.BrowserUploadArgs, f *surface.BrowserUploadFacts) (*input.FileInput, *language.Acted, *surface.Refusal) {
	it, err := pagejs.Describe(ctx, ac.World(), id)
	if err != nil {
		return nil, nil, refusal.For(err, a.TimeoutMs)
	}
	if it.Credential {
		return nil, nil, s.credential(ac, it, pointer)
	}
	isFile, err := pagejs.IsFileInput(ctx, ac.World(), id)
	if err != nil {
		return nil, nil, refusal.For(err, a.TimeoutMs)
	}
	if !isFile {
		return nil, nil, &surface.Refusal{Reason: surface.ReasonNotFileInput, Pointer: pointer}
	}
	if f.Target == "" {
		f.Target = s.targetHandle(ac.Tab(), ac.Tab().Generation(), id)
	}
	// The input may be in a cross-origin frame: its object lives on that
	// frame's session, and the files are set there.
	page, obj, rel, err := ac.World().ElementObjectOn(ctx, id)
	if err != nil {
		return nil, nil, refusal.For(err, a.TimeoutMs)
	}
	el := &language.Acted{Role: surface.RoleFileInput}
	if ac.Names() {
		el.Name = language.Name(it.Name)
	}
	return input.FileInputOf(page, obj, rel), el, nil
}

// soleFileInput finds the only <input type=file> of the page and of the
// cross-origin frames the call may reach. One in the page itself is read
// through the DOM domain, which page scripts cannot tamper with; one in a
// frame is held on that frame's session like a named target.
func (s *session) soleFileInput(ctx context.Context, ac *act.Act, a *surface.BrowserUploadArgs, f *surface.BrowserUploadFacts) (*input.FileInput, *language.Acted, *surface.Refusal) {
	all, err := pagejs.FindFileInputs(ctx, ac.World())
	if r := notSole(err, all.Count); r != nil {
		return nil, nil, r
	}
	if len(all.IDs) == 1 && !ac.World().Local(all.IDs[0]) {
		return s.fileInputByID(ctx, ac, all.IDs[0], "/target", a, f)
	}
	sole, err := input.SoleFileInput(ctx, ac.Tab().Page(), surface.CredentialAutocomplete)
	if r := notSole(err, sole.Count); r != nil { // the page changed in between
		return nil, nil, r
	}
	if sole.Credential {
		return nil, nil, &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Message: language.MsgPageFileInput}
	}
	return sole.Input, &language.Acted{Role: surface.RoleFileInput}, nil
}

// notSole refuses a count of file inputs other than one.
func notSole(err error, count int) *surface.Refusal {
	switch {
	case err != nil:
		return refusal.For(err, 0)
	case count == 0:
		return &surface.Refusal{Reason: surface.ReasonNotFileInput, Message: language.MsgNoFileInput}
	case count > 1:
		return &surface.Refusal{Reason: surface.ReasonTargetAmbiguous, Candidates: count, Pointer: "/target"}
	}
	return nil
}

// release frees a held file input within the observe budget, even after the
// call's own context ended.
func release(ctx context.Context, fi *input.FileInput) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), action.ObserveBudget)
	defer cancel()
	fi.Release(rctx)
}

// stageFiles returns the local paths to attach: inline and captured bytes
// written under the handler's staging directory (uploads.Stage).
func (h *Handler) stageFiles(a *surface.BrowserUploadArgs, img *viewEntry) ([]string, *surface.Refusal) {
	files, r := uploadBytes(a, img)
	if r != nil {
		return nil, r
	}
	return uploads.Stage(h.stageDir, files)
}

// readsServerFiles reports whether the tab's browser opens this server's
// paths (browser.Tab.ReadsServerFiles). A probe that could not run decides
// nothing: the path-based dispatch then meets the same failure and says it.
func (h *Handler) readsServerFiles(ctx context.Context, ac *act.Act) bool {
	ok, err := ac.Tab().ReadsServerFiles(ctx, h.stageDir)
	return ok || err != nil
}

// uploadBytes are the inline or captured files as the page will get them,
// decoded only now (uploads.Inline).
func uploadBytes(a *surface.BrowserUploadArgs, img *viewEntry) ([]input.File, *surface.Refusal) {
	if img != nil {
		return uploads.Captured(img.mime, img.data), nil
	}
	return uploads.Inline(a.Files)
}
