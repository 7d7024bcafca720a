package input

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// FileInput is one <input type=file> of a page, held as a remote object
// until Release.
type FileInput struct {
	page    *rod.Page
	obj     proto.RuntimeRemoteObjectID
	release func(ctx context.Context)
}

// FileInputOf wraps an element object resolved elsewhere (an isolated
// world's element registry, say); release frees it (nil: nothing to free).
func FileInputOf(page *rod.Page, obj proto.RuntimeRemoteObjectID, release func(ctx context.Context)) *FileInput {
	return &FileInput{page: page, obj: obj, release: release}
}

// Sole is what SoleFileInput found.
type Sole struct {
	Input      *FileInput // set when the page has exactly one file input
	Count      int        // file inputs on the page
	Credential bool       // the one input's autocomplete names a credential token (Input is nil then)
}

// SoleFileInput finds the page's only <input type=file> through the DOM
// domain, which page scripts cannot tamper with. credential lists the
// autocomplete tokens that make an input credential-class: such an input is
// reported, never held.
func SoleFileInput(ctx context.Context, page *rod.Page, credential []string) (Sole, error) {
	const op = "file_input"
	var out Sole
	r, err := newRun(ctx, page, op)
	if err != nil {
		return out, err
	}
	depth := 0
	var doc proto.DOMGetDocumentResult
	if err := r.result(proto.DOMGetDocument{Depth: &depth}, &doc); err != nil {
		return out, err
	}
	if doc.Root == nil {
		return out, &Error{Kind: KindNavigated, Op: op, Err: errors.New("no document")}
	}
	var found proto.DOMQuerySelectorAllResult
	if err := r.result(proto.DOMQuerySelectorAll{NodeID: doc.Root.NodeID, Selector: `input[type="file" i]`}, &found); err != nil {
		return out, err
	}
	out.Count = len(found.NodeIDs)
	if out.Count != 1 {
		return out, nil
	}
	node := found.NodeIDs[0]
	var attrs proto.DOMGetAttributesResult
	if err := r.result(proto.DOMGetAttributes{NodeID: node}, &attrs); err != nil {
		return out, err
	}
	for i := 0; i+1 < len(attrs.Attributes); i += 2 {
		if strings.EqualFold(attrs.Attributes[i], "autocomplete") {
			for _, tok := range strings.Fields(strings.ToLower(attrs.Attributes[i+1])) {
				if slices.Contains(credential, tok) {
					out.Credential = true
					return out, nil
				}
			}
		}
	}
	var obj proto.DOMResolveNodeResult
	if err := r.result(proto.DOMResolveNode{NodeID: node}, &obj); err != nil {
		return out, err
	}
	if obj.Object == nil || obj.Object.ObjectID == "" {
		return out, &Error{Kind: KindProtocol, Op: op, Err: errors.New("no remote object returned")}
	}
	id := obj.Object.ObjectID
	out.Input = FileInputOf(page, id, func(ctx context.Context) {
		_, _ = page.Call(ctx, string(page.SessionID), "Runtime.releaseObject", proto.RuntimeReleaseObject{ObjectID: id})
	})
	return out, nil
}

// SetFiles attaches local files (absolute paths the browser can read).
func (f *FileInput) SetFiles(ctx context.Context, paths []string) error {
	return SetFiles(ctx, f.page, f.obj, paths)
}

// attachJS sets in-memory files as the input's files, from the world the
// object belongs to (the isolated world: page scripts cannot see or alter
// the call), and fires the events a real pick fires. files is a list of
// [base64, name, type].
const attachJS = `function(files) {
	const dt = ` + transferJS + `;
	this.files = dt.files;
	this.dispatchEvent(new Event("input", {bubbles: true, composed: true}));
	this.dispatchEvent(new Event("change", {bubbles: true}));
	return this.files.length;
}`

// Attach hands in-memory bytes to the input as one file, without a file on
// disk. An input that does not take it answers KindInvalidArgument.
func (f *FileInput) Attach(ctx context.Context, name, mimeType string, data []byte) (Effect, error) {
	return f.AttachFiles(ctx, []File{{Name: name, MIME: mimeType, Data: data}})
}

// AttachFiles hands in-memory files to the input, as the page would get
// them from a pick (name, type, bytes), without a path the browser must
// open: for a browser that does not read this server's files. The input and
// change events it fires are the page's own (isTrusted false), where a pick
// through DOM.setFileInputFiles fires the browser's.
func (f *FileInput) AttachFiles(ctx context.Context, files []File) (Effect, error) {
	const op = "attach"
	if len(files) == 0 {
		return EffectNone, invalid(op, "no files")
	}
	r, err := newRun(ctx, f.page, op)
	if err != nil {
		return EffectNone, err
	}
	var res proto.RuntimeCallFunctionOnResult
	err = r.result(proto.RuntimeCallFunctionOn{
		ObjectID:            f.obj,
		FunctionDeclaration: attachJS,
		Arguments:           []*proto.RuntimeCallArgument{{Value: gson.New(fileList(files))}},
		ReturnByValue:       true,
	}, &res)
	if err != nil {
		return r.effect(err), err
	}
	if res.ExceptionDetails != nil || res.Result == nil || res.Result.Value.Int() != len(files) {
		return EffectNone, invalid(op, "the file input did not take the files")
	}
	return EffectApplied, nil
}

// transferJS builds a DataTransfer holding files, a list of [base64, name,
// type] (fileList), as a pick or a drop from the desktop hands them over.
const transferJS = `((files) => {
	const dt = new DataTransfer();
	for (const [b64, name, type] of files) {
		const bin = atob(b64);
		const bytes = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
		dt.items.add(new File([bytes], name, {type: type, lastModified: Date.now()}));
	}
	return dt;
})(files)`

// fileList is files as transferJS takes them.
func fileList(files []File) [][]string {
	list := make([][]string, 0, len(files))
	for _, f := range files {
		list = append(list, []string{base64.StdEncoding.EncodeToString(f.Data), f.Name, f.MIME})
	}
	return list
}

// Release frees the remote object; ctx bounds the call.
func (f *FileInput) Release(ctx context.Context) {
	if f.release != nil {
		f.release(ctx)
	}
}

// result sends req, waits for its reply and decodes it into out.
func (r *run) result(req proto.Request, out any) error {
	raw, err := r.call(req)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &Error{Kind: KindProtocol, Op: r.op, Err: err}
	}
	return nil
}
