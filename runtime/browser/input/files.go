package input

import (
	"context"
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"strconv"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// SetFiles attaches local files to the <input type=file> element object (a main-world or isolated
// world remote object id) with DOM.setFileInputFiles; the browser fires the input's input and change
// events. Paths must be absolute and readable by the browser process (validated by the caller).
func SetFiles(ctx context.Context, page *rod.Page, object proto.RuntimeRemoteObjectID, paths []string) error {
	const op = "set_files"
	if object == "" {
		return invalid(op, "empty object id")
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return err
	}
	files := paths
	if files == nil {
		files = []string{}
	}
	return r.send(proto.DOMSetFileInputFiles{Files: files, ObjectID: object})
}

// File is one file to drop: its bytes, its name as the page will see it, and its MIME type.
type File struct {
	Name string
	MIME string
	Data []byte
}

// DropFiles drops files onto the page at pt as if dragged in from the desktop: the page's dragenter,
// dragover and drop listeners run, and the drop event's dataTransfer.files holds the files with
// their names, sizes and contents.
//
// Measured in headless Chromium: Input.dispatchDragEvent only turns file *paths* into File objects
// (string data items stay strings), and the page reads a dropped file's bytes lazily from that path.
// So the bytes are written under stageDir (one fresh directory per drop, one subdirectory per file so
// equal names do not collide) and must stay there as long as the page may read them: stageDir is
// owned by the caller, who removes it with the tab or workspace. The browser derives File.type from
// the name's extension; a name without one gets the first extension registered for MIME. Chromium
// renames equal names within one drop itself ("a.png", "a (1).png").
func DropFiles(ctx context.Context, page *rod.Page, pt Point, files []File, stageDir string) (Effect, error) {
	const op = "drop_files"
	switch {
	case len(files) == 0:
		return EffectNone, invalid(op, "no files")
	case stageDir == "":
		return EffectNone, invalid(op, "no staging directory")
	case !finite(pt):
		return EffectNone, invalid(op, "non-finite point")
	}
	for i, f := range files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." {
			return EffectNone, invalid(op, "file %d: name must be a plain file name", i)
		}
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return EffectNone, err
	}
	paths, err := stage(files, stageDir)
	if err != nil {
		return EffectNone, &Error{Kind: KindStaging, Op: op, Err: err}
	}
	data := &proto.InputDragData{
		Items:              []*proto.InputDragDataItem{},
		Files:              paths,
		DragOperationsMask: 1, // copy, as from a file manager
	}
	for _, typ := range []proto.InputDispatchDragEventType{
		proto.InputDispatchDragEventTypeDragEnter,
		proto.InputDispatchDragEventTypeDragOver,
		proto.InputDispatchDragEventTypeDrop,
	} {
		if err := r.send(proto.InputDispatchDragEvent{Type: typ, X: pt.X, Y: pt.Y, Data: data}); err != nil {
			return r.effect(err), err
		}
	}
	return EffectApplied, nil
}

func stage(files []File, stageDir string) ([]string, error) {
	dir, err := os.MkdirTemp(stageDir, "drop-")
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(files))
	for i, f := range files {
		sub := filepath.Join(dir, strconv.Itoa(i))
		if err := os.Mkdir(sub, 0o700); err != nil {
			return nil, err
		}
		name := f.Name
		if filepath.Ext(name) == "" && f.MIME != "" {
			if exts, _ := mime.ExtensionsByType(f.MIME); len(exts) > 0 {
				name += exts[0]
			}
		}
		path := filepath.Join(sub, name)
		if err := os.WriteFile(path, f.Data, 0o600); err != nil {
			return nil, fmt.Errorf("write file %d: %w", i, err)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		paths = append(paths, abs)
	}
	return paths, nil
}
