package input

import (
	"context"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// dropJS runs the drag a desktop drop makes (dragenter, dragover, drop) on
// the element at (x, y) of the document, with the files in its
// dataTransfer. It answers "frame" when the point is on a frame (the drop
// would belong to the frame's document), "none" when nothing is there.
const dropJS = `function(x, y, files) {
	const el = document.elementFromPoint(x, y);
	if (!el) return "none";
	if (el.tagName === "IFRAME" || el.tagName === "FRAME" || el.tagName === "OBJECT" || el.tagName === "EMBED") return "frame";
	const dt = ` + transferJS + `;
	dt.effectAllowed = "copy";
	for (const type of ["dragenter", "dragover", "drop"]) {
		el.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, dataTransfer: dt}));
	}
	return "dropped";
}`

// errDropInFrame says why a point on a frame is refused.
const errDropInFrame = "the point is on a frame: without the browser reading this server's files, a drop is made only in the page's own document"

// DropFilesInPage drops in-memory files at pt of the page's own document, for
// a browser that does not read this server's files (DropFiles hands it
// paths). The page's dragenter, dragover and drop listeners run with the
// files in dataTransfer.files; the events are the page's own (isTrusted
// false), and a point on a frame is refused with nothing sent.
func DropFilesInPage(ctx context.Context, page *rod.Page, pt Point, files []File) (Effect, error) {
	const op = "drop_files"
	switch {
	case len(files) == 0:
		return EffectNone, invalid(op, "no files")
	case !finite(pt):
		return EffectNone, invalid(op, "non-finite point")
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return EffectNone, err
	}
	var world proto.PageCreateIsolatedWorldResult
	if err := r.result(proto.PageCreateIsolatedWorld{FrameID: page.FrameID, WorldName: "ghostlight-drop"}, &world); err != nil {
		return EffectNone, err
	}
	var res proto.RuntimeCallFunctionOnResult
	err = r.result(proto.RuntimeCallFunctionOn{
		ExecutionContextID:  world.ExecutionContextID,
		FunctionDeclaration: dropJS,
		Arguments:           []*proto.RuntimeCallArgument{{Value: gson.New(pt.X)}, {Value: gson.New(pt.Y)}, {Value: gson.New(fileList(files))}},
		ReturnByValue:       true,
	}, &res)
	if err != nil {
		return r.effect(err), err
	}
	switch {
	case res.ExceptionDetails != nil || res.Result == nil:
		return EffectUnknown, invalid(op, "the drop did not complete")
	case res.Result.Value.Str() == "frame":
		return EffectNone, invalid(op, "%s", errDropInFrame)
	case res.Result.Value.Str() != "dropped":
		return EffectNone, invalid(op, "nothing is at that point")
	}
	return EffectApplied, nil
}
