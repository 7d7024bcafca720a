package pagejs

// Whole-document perception across cross-origin frames (frames.go): read,
// the document tree and text presence see the main document and then every
// frame the caller admits, in the order the frames are listed (outermost
// first). A request naming an element (a read target, a tree root) goes to
// the world that issued it instead.

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// docMethods spread over frames when they name no element.
var docMethods = map[string]bool{"read": true, "tree": true, "textPresent": true}

// mergeDocument merges the main world's answer (raws[0]) with the frames'.
func mergeDocument(method string, b []byte, raws []json.RawMessage, srcs []string, out any) error {
	if len(raws) == 0 {
		return &Error{Kind: KindInternal, Op: method, Detail: "no answer"}
	}
	switch method {
	case "read":
		var req ReadRequest
		_ = json.Unmarshal(b, &req)
		var all ReadResult
		if err := json.Unmarshal(raws[0], &all); err != nil {
			return &Error{Kind: KindInternal, Op: method, Detail: "undecodable page result", Err: err}
		}
		parts := []string{all.Text}
		for _, r := range raws[1:] {
			var one ReadResult
			if json.Unmarshal(r, &one) != nil || strings.TrimSpace(one.Text) == "" {
				continue
			}
			// The article of the page keeps to articles: a frame adds its text
			// when it holds an article of its own, or when the page had none.
			if all.ModeUsed == ReadArticle && one.ModeUsed != ReadArticle {
				continue
			}
			parts = append(parts, one.Text)
			all.Truncated = all.Truncated || one.Truncated
		}
		all.Text = strings.TrimSpace(strings.Join(parts, "\n\n"))
		return remarshal(all, out) // Read cuts the whole at MaxChars
	case "tree":
		var req TreeRequest
		_ = json.Unmarshal(b, &req)
		var all Tree
		if err := json.Unmarshal(raws[0], &all); err != nil {
			return &Error{Kind: KindInternal, Op: method, Detail: "undecodable page result", Err: err}
		}
		// A frame's structure follows the page's, each node at its depth
		// within its own document.
		for i, r := range raws[1:] {
			var one Tree
			if json.Unmarshal(r, &one) != nil {
				continue
			}
			for _, n := range one.Nodes {
				n.Frame = srcs[i+1]
				if req.MaxItems > 0 && len(all.Nodes) >= req.MaxItems {
					all.Truncated = true
					break
				}
				all.Nodes = append(all.Nodes, n)
			}
			all.Truncated = all.Truncated || one.Truncated
			all.DepthCut = all.DepthCut || one.DepthCut
		}
		if all.Nodes == nil {
			all.Nodes = []TreeNode{}
		}
		return remarshal(all, out)
	case "textPresent":
		var res struct {
			Present bool       `json:"present"`
			Hays    []Haystack `json:"hays,omitempty"` // each present document's, when asked (TextShown)
		}
		for _, r := range raws {
			var one struct {
				Present bool `json:"present"`
				Haystack
			}
			if json.Unmarshal(r, &one) == nil && one.Present {
				res.Present = true
				if one.given() {
					res.Hays = append(res.Hays, one.Haystack)
				}
			}
		}
		return remarshal(res, out)
	}
	return &Error{Kind: KindInternal, Op: method, Detail: "not a document method"}
}

// ElementObjectOn is ElementObject in the world that issued id (the main
// document's, or a cross-origin frame's): the remote object, the session it
// lives on (protocol calls that take it go there) and the release of that
// world's objects.
func (w *World) ElementObjectOn(ctx context.Context, id int) (*rod.Page, proto.RuntimeRemoteObjectID, func(context.Context), error) {
	owner := w
	if k := w.ownerOf(ctx, id); k != nil {
		owner = k.w
	}
	obj, err := owner.ElementObject(ctx, id)
	if err != nil {
		return nil, "", nil, err
	}
	return owner.page, obj, func(ctx context.Context) { _ = owner.ReleaseObjects(ctx) }, nil
}
