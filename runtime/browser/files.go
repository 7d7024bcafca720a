package browser

// Whether the browser reads the server's files. DOM.setFileInputFiles and a
// drag's file list hand the browser paths on this server; a browser running
// elsewhere (another host, a container) opens them on its own file system and
// finds nothing there, or something else. So before attaching by path, a
// connection to a browser Ghostlight did not launch asks once: a probe file of
// random bytes is attached to an input element no page can see (made in an
// isolated world and never inserted), and the browser reads its size back. A
// browser that read it sees this server's files; one that did not gets the
// bytes in page memory instead (input.FileInput.AttachFiles).

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/go-rod/rod/lib/proto"
)

// filesSeen is a connection's answer, found once.
type filesSeen struct {
	mu     sync.Mutex
	known  bool
	shared bool
}

// probeBytes is the probe file's size: random bytes, so no file the browser
// could find at that path by chance has it.
const probeBytes = 32

// ReadsServerFiles reports whether the tab's browser opens this server's
// paths as this server does. A browser Ghostlight launched does; for one it
// attached to, the first call probes with a file under dir, and the answer
// holds for the connection. An error means the probe could not run (the tab
// went away, ctx ended): nothing was decided.
func (t *Tab) ReadsServerFiles(ctx context.Context, dir string) (bool, error) {
	bd := t.live()
	if bd == nil {
		return false, ErrTabClosed
	}
	c := bd.conn
	if c.launched() != nil {
		return true, nil
	}
	c.files.mu.Lock()
	defer c.files.mu.Unlock()
	if c.files.known {
		return c.files.shared, nil
	}
	shared, err := probeFiles(ctx, t, dir)
	if err != nil {
		return false, err
	}
	c.files.known, c.files.shared = true, shared
	return shared, nil
}

func probeFiles(ctx context.Context, t *Tab, dir string) (bool, error) {
	page := t.Page()
	if page == nil {
		return false, ErrTabClosed
	}
	f, err := os.CreateTemp(dir, "ghostlight-probe-")
	if err != nil {
		return false, err
	}
	path := f.Name()
	defer os.Remove(path)
	b := make([]byte, probeBytes)
	_, _ = rand.Read(b)
	_, werr := f.Write(b)
	if cerr := f.Close(); werr != nil || cerr != nil {
		return false, errors.Join(werr, cerr)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	p := page.Context(ctx)
	w, err := proto.PageCreateIsolatedWorld{FrameID: p.FrameID, WorldName: "ghostlight-probe"}.Call(p)
	if err != nil {
		return false, err
	}
	el, err := proto.RuntimeEvaluate{ContextID: w.ExecutionContextID, ObjectGroup: "ghostlight-probe",
		Expression: `(() => { const i = document.createElement("input"); i.type = "file"; return i; })()`}.Call(p)
	if err != nil {
		return false, err
	}
	defer func() { _ = proto.RuntimeReleaseObjectGroup{ObjectGroup: "ghostlight-probe"}.Call(p) }()
	if el.ExceptionDetails != nil || el.Result == nil || el.Result.ObjectID == "" {
		return false, errors.New("the probe input could not be made")
	}
	if err := (proto.DOMSetFileInputFiles{Files: []string{abs}, ObjectID: el.Result.ObjectID}).Call(p); err != nil {
		return false, err
	}
	size, err := proto.RuntimeCallFunctionOn{ObjectID: el.Result.ObjectID, ReturnByValue: true,
		FunctionDeclaration: `function () { return this.files.length === 1 ? this.files[0].size : -1; }`}.Call(p)
	if err != nil {
		return false, err
	}
	if size.ExceptionDetails != nil || size.Result == nil {
		return false, errors.New("the probe input could not be read")
	}
	return size.Result.Value.Int() == probeBytes, nil
}
