package browser

// Downloads. A page can start a download by a click, a script or a navigation to an
// attachment. The browser session asks Chromium for download events in every context a
// workspace uses (Browser.setDownloadBehavior with eventsEnabled), so each download is
// seen from Browser.downloadWillBegin to its last Browser.downloadProgress, in the read
// loop, in the browser's order.
//
// Denied (the default) is the browser's own "deny": Chromium refuses the download
// before a byte is written to disk (the response's first bytes may already have
// crossed the network, since only the response says it is a download). Allowed is
// "allowAndName" into the workspace's own owned directory (ghostlight-dl-*, removed with
// the workspace, swept by the next server if this one dies): files are named by the
// download's guid, so a page's suggested name never becomes a path. A download past
// DownloadPolicy.MaxBytes is cancelled (Browser.cancelDownload) and reported too large.
//
// Under shared isolation several workspaces share the default context, whose behaviour
// is the latest call's; a download is attributed to the workspace whose tab's frame
// started it, cancelled when that workspace denies downloads, and its file is moved into
// that workspace's directory when it completes.
//
// The default context of a browser Ghostlight attached to (the person's own, or a remote
// one) is not Ghostlight's to set: there it asks only for the events (behaviour
// "default"), so the browser's own downloads go where its settings say, untouched. A
// download one of Ghostlight's tabs starts there is cancelled at once when its workspace
// denies downloads, and when allowed it lands where the browser's own downloads land.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// DownloadPrefix names a workspace's download directory.
const DownloadPrefix = "ghostlight-dl-"

// DownloadPolicy is what a call's authority says about downloads.
type DownloadPolicy struct {
	Allow    bool
	MaxBytes int64 // 0: limits.DownloadBytesMax
	// Held: downloads are allowed but wait for the person (policy
	// confirm.downloads), so one that begins now is refused, and says so.
	Held bool
}

type downloadKey struct{}

// WithDownloads carries the call's download policy; a tab held under it, and a tab
// created under it, apply it to the workspace's browser context first.
func WithDownloads(ctx context.Context, p DownloadPolicy) context.Context {
	return context.WithValue(ctx, downloadKey{}, &p)
}

func downloadsFrom(ctx context.Context) *DownloadPolicy {
	p, _ := ctx.Value(downloadKey{}).(*DownloadPolicy)
	return p
}

// Download is one download as the browser left it.
type Download struct {
	Name  string // the page's suggested file name, as given (callers clean and bound it)
	Bytes int64  // bytes received
	State surface.DownloadState
	// Held: refused because downloads wait for the person here
	// (DownloadPolicy.Held).
	Held bool
}

// download is the executor's record of one download.
type download struct {
	guid string
	ctx  proto.BrowserBrowserContextID
	ws   *Workspace // nil: no workspace's page started it
	dir  string     // where the browser writes it ("" when denied, or the browser's own folder)
	name string
	// allowed: its workspace allowed it (dir is "" when the browser keeps it in its
	// own folder: an attached browser's default context).
	allowed bool
	held    bool // refused while the policy held downloads for the person

	received int64
	state    surface.DownloadState
	done     chan struct{} // closed once final
	began    bool          // reported once while in progress
	final    bool          // reported in its final state
	seq      uint64
}

// wsDownloads is a workspace's download state.
type wsDownloads struct {
	policy DownloadPolicy
	dir    *OwnedDir // made at the first allowed setup, removed with the workspace
	list   []*download
	seq    uint64
	begun  chan struct{} // closed (and replaced) when a download begins
	// expect counts navigations the browser said became downloads (Page.navigate's
	// isDownload); their Browser.downloadWillBegin can trail the reply, so
	// AwaitDownloads waits until seq has caught up with it.
	expect uint64
	// hint counts downloads the page itself said it started (ExpectStarted); the
	// browser may still decline one, so they are waited for only until hintBy.
	hint   uint64
	hintBy time.Time
}

// connDownloads is a connection's download state.
type connDownloads struct {
	byGUID  map[string]*download
	applied map[proto.BrowserBrowserContextID]string // "deny", the allowed dir, or browserOwn
}

// browserOwn marks a context left at the browser's own download behaviour.
const browserOwn = "\x00browser"

// ownsDownloads reports whether context id's download behaviour is Ghostlight's to set:
// every context of a browser it launched, and the contexts it made in one it attached
// to, but not an attached browser's default context, where the person's (or another
// program's) own downloads happen.
func (c *conn) ownsDownloads(id proto.BrowserBrowserContextID) bool {
	return id != "" || c.launched() != nil
}

func (p DownloadPolicy) max() int64 {
	if p.MaxBytes <= 0 || p.MaxBytes > limits.DownloadBytesMax {
		return limits.DownloadBytesMax
	}
	return p.MaxBytes
}

// setDownloads sets the download behaviour of browser context id ("" = the default
// context) from the workspace's policy: deny, or allowAndName into its own directory.
// It is idempotent per connection and context, so callers may call it before every
// tab they create and every call they hold a tab for.
func (ws *Workspace) setDownloads(ctx context.Context, c *conn, id proto.BrowserBrowserContextID) error {
	owns := c.ownsDownloads(id)
	ws.mu.Lock()
	p := ws.dl.policy
	var dir string
	if p.Allow && !ws.released && owns {
		if ws.dl.dir == nil {
			d, err := MakeOwnedDir(ws.b.TempDir(), DownloadPrefix)
			if err != nil {
				ws.mu.Unlock()
				return &Error{Kind: KindInternal, Op: "downloads", Err: err}
			}
			ws.dl.dir = d
		}
		dir = ws.dl.dir.Path()
	}
	ws.mu.Unlock()
	want := "deny"
	switch {
	case !owns:
		want = browserOwn
	case dir != "":
		want = dir
	}
	c.mu.Lock()
	if c.dl.applied == nil {
		c.dl.applied = map[proto.BrowserBrowserContextID]string{}
	}
	same := c.dl.applied[id] == want
	c.mu.Unlock()
	if same {
		return nil
	}
	req := proto.BrowserSetDownloadBehavior{Behavior: proto.BrowserSetDownloadBehaviorBehaviorDeny, BrowserContextID: id, EventsEnabled: true}
	switch {
	case !owns:
		req.Behavior = proto.BrowserSetDownloadBehaviorBehaviorDefault // the events only
	case dir != "":
		req.Behavior, req.DownloadPath = proto.BrowserSetDownloadBehaviorBehaviorAllowAndName, dir
	}
	if err := req.Call(c.call(ctx, "")); err != nil {
		return classify(ctx, "downloads", "", withConn(c, err))
	}
	c.mu.Lock()
	c.dl.applied[id] = want
	c.mu.Unlock()
	return nil
}

// applyDownloads takes the call's policy (when ctx carries one) and sets it on the
// workspace's context. Called where the workspace's tabs are set up (createTarget) and
// when a call holds a tab (hold), so a policy changed by a reload applies at the next
// call.
func (ws *Workspace) applyDownloads(ctx context.Context, c *conn, id proto.BrowserBrowserContextID) error {
	if p := downloadsFrom(ctx); p != nil {
		ws.mu.Lock()
		ws.dl.policy = *p
		ws.mu.Unlock()
	}
	return ws.setDownloads(ctx, c, id)
}

// contextOf is the browser context the workspace's tabs on c live in, without
// creating one ("" = the default context).
func (ws *Workspace) contextOf(c *conn) proto.BrowserBrowserContextID {
	if !ws.isolated() {
		return ""
	}
	ws.mu.Lock()
	bc := ws.bctx
	ws.mu.Unlock()
	if bc == nil || bc.c != c {
		return ""
	}
	select {
	case <-bc.done:
		return bc.id
	default:
		return ""
	}
}

// onDownloadEvent records a download event. It runs in the read loop: it decides and
// records, and any browser command it needs is sent from a goroutine.
func (c *conn) onDownloadEvent(method string, params json.RawMessage) {
	switch method {
	case "Browser.downloadWillBegin":
		var e proto.BrowserDownloadWillBegin
		if json.Unmarshal(params, &e) != nil || e.GUID == "" {
			return
		}
		ws := c.downloadOwner(proto.TargetTargetID(e.FrameID))
		if ws == nil && c.launched() == nil {
			return // not a page of Ghostlight's in a browser it attached to: the browser's own
		}
		d := &download{guid: e.GUID, name: e.SuggestedFilename, state: surface.DownloadStateInProgress, done: make(chan struct{}), ws: ws}
		allowed := false
		if ws != nil {
			d.ctx = ws.contextOf(c)
			owns := c.ownsDownloads(d.ctx)
			ws.mu.Lock()
			allowed = ws.dl.policy.Allow && !ws.released && (ws.dl.dir != nil || !owns)
			if allowed && owns {
				d.dir = ws.dl.dir.Path()
			}
			d.allowed = allowed
			d.held = !allowed && ws.dl.policy.Held
			ws.dl.seq++
			d.seq = ws.dl.seq
			ws.dl.list = append(ws.dl.list, d)
			if ws.dl.begun != nil {
				close(ws.dl.begun)
				ws.dl.begun = nil
			}
			ws.mu.Unlock()
		}
		c.mu.Lock()
		if c.dl.byGUID == nil {
			c.dl.byGUID = map[string]*download{}
		}
		if old := c.dl.byGUID[e.GUID]; old != nil {
			c.mu.Unlock()
			return // announced twice
		}
		c.dl.byGUID[e.GUID] = d
		if allowed { // the context may write it elsewhere (shared isolation)
			if a := c.dl.applied[d.ctx]; a != "deny" && a != "" && a != browserOwn {
				d.dir = a
			}
		}
		c.mu.Unlock()
		if !allowed {
			// A denied context refuses it itself; a shared context another
			// workspace allows, or a page no workspace owns, is cancelled.
			d.finish(c, surface.DownloadStateRefused)
			c.cancelDownload(d)
		}
	case "Browser.downloadProgress":
		var e proto.BrowserDownloadProgress
		if json.Unmarshal(params, &e) != nil {
			return
		}
		c.mu.Lock()
		d := c.dl.byGUID[e.GUID]
		c.mu.Unlock()
		if d == nil {
			return
		}
		max := int64(limits.DownloadBytesMax)
		if d.ws != nil {
			d.ws.mu.Lock()
			max = d.ws.dl.policy.max()
			d.ws.mu.Unlock()
		}
		d.ws.lockDL()
		d.received = int64(e.ReceivedBytes)
		d.ws.unlockDL()
		switch {
		case d.isFinal():
			if e.State == proto.BrowserDownloadProgressStateCanceled {
				d.removeFile() // what a cancelled download left
			}
		case int64(e.TotalBytes) > max || int64(e.ReceivedBytes) > max:
			d.finish(c, surface.DownloadStateTooLarge)
			c.cancelDownload(d)
		case e.State == proto.BrowserDownloadProgressStateCompleted:
			d.complete(c)
		case e.State == proto.BrowserDownloadProgressStateCanceled:
			if !d.allowed {
				d.finish(c, surface.DownloadStateRefused)
			} else {
				d.finish(c, surface.DownloadStateFailed)
			}
		}
	}
}

// lockDL and unlockDL guard a download's fields with its workspace's lock (a download
// no workspace owns is only touched in the read loop).
func (ws *Workspace) lockDL() {
	if ws != nil {
		ws.mu.Lock()
	}
}

func (ws *Workspace) unlockDL() {
	if ws != nil {
		ws.mu.Unlock()
	}
}

func (d *download) isFinal() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// finish records the final state once.
func (d *download) finish(c *conn, st surface.DownloadState) {
	if d.isFinal() {
		return
	}
	d.ws.lockDL()
	d.state = st
	d.ws.unlockDL()
	close(d.done)
	if st != surface.DownloadStateCompleted {
		d.removeFile()
	}
}

// removeFile removes what an unfinished download wrote (Chromium keeps the partial
// file under the guid name when it is cancelled), from a goroutine.
func (d *download) removeFile() {
	if d.dir == "" {
		return
	}
	dir, guid := d.dir, d.guid
	go func() { _ = os.Remove(filepath.Join(dir, guid)) }()
}

// complete records a finished download, moving its file into its workspace's own
// directory when the context wrote it elsewhere (shared isolation). The move runs
// here: a rename in one file system, never a wait on the browser.
func (d *download) complete(c *conn) {
	if d.ws != nil && d.dir != "" {
		d.ws.mu.Lock()
		own := ""
		if d.ws.dl.dir != nil && !d.ws.released {
			own = d.ws.dl.dir.Path()
		}
		d.ws.mu.Unlock()
		switch {
		case own == "":
			_ = os.Remove(filepath.Join(d.dir, d.guid))
			d.finish(c, surface.DownloadStateFailed)
			return
		case own != d.dir:
			if os.Rename(filepath.Join(d.dir, d.guid), filepath.Join(own, d.guid)) != nil {
				d.finish(c, surface.DownloadStateFailed)
				return
			}
			d.dir = own
		}
	}
	d.finish(c, surface.DownloadStateCompleted)
}

// cancelDownload cancels a download in the browser, from a goroutine.
func (c *conn) cancelDownload(d *download) {
	go func() {
		ctx, cancel := context.WithTimeout(c.ctx, c.b.cfg.CloseTimeout)
		defer cancel()
		_ = proto.BrowserCancelDownload{GUID: d.guid, BrowserContextID: d.ctx}.Call(c.call(ctx, ""))
		d.removeFile()
	}()
}

// downloadOwner is the workspace whose page (or out-of-process frame of it, or pending
// popup) has the frame id: a main frame's id is its page's target id, an out-of-process
// frame's is its guard's target id. nil when no workspace's page has it.
func (c *conn) downloadOwner(frame proto.TargetTargetID) *Workspace {
	if bd := c.byTargetID(frame); bd != nil {
		return bd.tab.ws
	}
	c.mu.Lock()
	g := c.guardOf[frame]
	c.mu.Unlock()
	if g == nil {
		return nil
	}
	if t, _, _ := c.ownerOf(g); t != nil {
		return t.ws
	}
	return nil
}

// AwaitDownloads waits, within ctx, until none of the workspace's downloads is still
// in progress, after one round trip through the browser (so every download the browser
// announced before it is known). It returns at once when none runs.
func (ws *Workspace) AwaitDownloads(ctx context.Context) {
	ws.AwaitDownloadsAfter(ctx, ws.DownloadBarrier(ctx))
}

// DownloadBarrier sends, now, the round trip through the browser that
// AwaitDownloadsAfter waits for: an action starts it once its input was
// acknowledged, so it overlaps the wait for the page to settle instead of
// following it. The channel closes when the round trip returned (or could
// not be made).
func (ws *Workspace) DownloadBarrier(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	ws.b.mu.Lock()
	c := ws.b.conn
	ws.b.mu.Unlock()
	if c == nil || !c.alive() {
		close(done) // never starts a browser: a dead one has no download running
		return done
	}
	go func() {
		defer close(done)
		_, _ = proto.BrowserGetVersion{}.Call(c.call(ctx, ""))
	}()
	return done
}

// AwaitDownloadsAfter is AwaitDownloads once barrier (DownloadBarrier) has
// returned.
func (ws *Workspace) AwaitDownloadsAfter(ctx context.Context, barrier <-chan struct{}) {
	select {
	case <-barrier:
	case <-ctx.Done():
		return
	}
	ws.b.mu.Lock()
	alive := ws.b.conn != nil && ws.b.conn.alive()
	ws.b.mu.Unlock()
	if !alive {
		return
	}
	for { // a navigation the browser said is a download: its announcement comes
		ws.mu.Lock()
		need := ws.dl.seq < ws.dl.expect
		var hintLeft time.Duration
		if !need && ws.dl.seq < ws.dl.hint {
			hintLeft = time.Until(ws.dl.hintBy)
			need = hintLeft > 0
		}
		if !need {
			ws.mu.Unlock()
			break
		}
		if ws.dl.begun == nil {
			ws.dl.begun = make(chan struct{})
		}
		wake := ws.dl.begun
		ws.mu.Unlock()
		var timer *time.Timer
		var tc <-chan time.Time
		if hintLeft > 0 {
			timer = time.NewTimer(hintLeft)
			tc = timer.C
		}
		select {
		case <-wake:
		case <-tc:
		case <-ctx.Done():
		}
		if timer != nil {
			timer.Stop()
		}
		if ctx.Err() != nil {
			return
		}
	}
	ws.mu.Lock()
	var running []*download
	for _, d := range ws.dl.list {
		if !d.isFinal() {
			running = append(running, d)
		}
	}
	ws.mu.Unlock()
	for _, d := range running {
		select {
		case <-d.done:
		case <-ctx.Done():
			return
		}
	}
}

// TakeDownloads returns, once, what the workspace's downloads did since the previous
// take: a download is taken when it begins (in progress or already final) and once more
// when it ends after having been taken in progress. first is the earliest of them; n
// counts them.
func (ws *Workspace) TakeDownloads() (first Download, n int) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	keep := ws.dl.list[:0]
	for _, d := range ws.dl.list {
		final := d.state != surface.DownloadStateInProgress
		take := final && !d.final || !final && !d.began
		if take {
			if n == 0 {
				first = Download{Name: d.name, Bytes: d.received, State: d.state, Held: d.held}
			}
			n++
			d.began, d.final = true, final
		}
		if !d.final {
			keep = append(keep, d)
		}
	}
	ws.dl.list = keep
	return first, n
}

// DownloadDir is the workspace's download directory ("" before an allowed download
// setup). Tests read files there; results never name it.
func (ws *Workspace) DownloadDir() string {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.dl.dir == nil {
		return ""
	}
	return ws.dl.dir.Path()
}

// releaseDownloads cancels the released workspace's running downloads and removes its
// directory with everything in it.
func (ws *Workspace) releaseDownloads(ctx context.Context, c *conn) {
	ws.mu.Lock()
	list := ws.dl.list
	ws.dl.list = nil
	dir := ws.dl.dir
	ws.dl.dir = nil
	ws.mu.Unlock()
	for _, d := range list {
		if !d.isFinal() && c != nil && c.alive() {
			_ = proto.BrowserCancelDownload{GUID: d.guid, BrowserContextID: d.ctx}.Call(c.call(ctx, ""))
		}
	}
	if dir != nil {
		if err := dir.Remove(); err != nil {
			ws.b.log.Warn("download directory not removed", "err", err)
		}
	}
}

// ErrDownloadsDenied refuses a download Ghostlight itself would start (a recording's
// replay) while the workspace denies downloads.
var ErrDownloadsDenied = errors.New("downloads are denied")

// SaveAsDownload has the browser download data as a file the tab's page offers
// (a blob link clicked with a user gesture, in an isolated world the page cannot see),
// so it takes the same path as a page's own download: the workspace's directory, its
// bounds, its report. It waits for the download within ctx and returns it.
func (t *Tab) SaveAsDownload(ctx context.Context, name, mime string, data []byte) (Download, error) {
	var out Download
	err := t.hold(ctx, "download", func(ctx context.Context, bd *binding) error {
		ws := t.ws
		ws.mu.Lock()
		allowed := ws.dl.policy.Allow
		ws.mu.Unlock()
		if !allowed {
			return ErrDownloadsDenied
		}
		bd.mu.Lock()
		frame := bd.frameID
		bd.mu.Unlock()
		if frame == "" {
			frame = proto.PageFrameID(bd.targetID)
		}
		w, err := proto.PageCreateIsolatedWorld{FrameID: frame, WorldName: "ghostlight-download"}.Call(bd.call(ctx))
		if err != nil {
			return classify(ctx, "download", t.handle, err)
		}
		ws.mu.Lock()
		seq := ws.dl.seq
		ws.mu.Unlock()
		js := `(() => { const b = atob(` + strconv.Quote(base64.StdEncoding.EncodeToString(data)) + `); const u = new Uint8Array(b.length);
			for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
			const a = document.createElement("a"); a.href = URL.createObjectURL(new Blob([u], {type: ` + strconv.Quote(mime) + `}));
			a.download = ` + strconv.Quote(name) + `; a.click(); return true; })()`
		res, err := proto.RuntimeEvaluate{Expression: js, ContextID: w.ExecutionContextID, UserGesture: true, ReturnByValue: true}.Call(bd.call(ctx))
		if err != nil {
			return classify(ctx, "download", t.handle, err)
		}
		if res.ExceptionDetails != nil {
			return &Error{Kind: KindInternal, Op: "download", Tab: t.handle, Err: errors.New("the page did not take the download link")}
		}
		// The blob's download begins asynchronously: wait for it to begin, then
		// to end, within ctx.
		for {
			ws.mu.Lock()
			if ws.dl.seq > seq {
				ws.mu.Unlock()
				break
			}
			if ws.dl.begun == nil {
				ws.dl.begun = make(chan struct{})
			}
			wake := ws.dl.begun
			ws.mu.Unlock()
			select {
			case <-wake:
			case <-ctx.Done():
				return &Error{Kind: KindTimeout, Op: "download", Tab: t.handle, Err: errors.New("the browser did not begin the download")}
			}
		}
		ws.AwaitDownloads(ctx)
		ws.mu.Lock()
		defer ws.mu.Unlock()
		for _, d := range ws.dl.list {
			if d.seq > seq {
				out = Download{Name: d.name, Bytes: d.received, State: d.state}
				return nil
			}
		}
		return &Error{Kind: KindInternal, Op: "download", Tab: t.handle, Err: errors.New("the replay's download was not reported")}
	})
	return out, err
}

// pageNavigate is Page.navigate, read raw for its isDownload (rod's type drops it): a
// navigation that became a download is expected to be announced, and AwaitDownloads
// waits for that announcement.
func (bd *binding) pageNavigate(ctx context.Context, rawURL string) (*proto.PageNavigateResult, error) {
	var res struct {
		proto.PageNavigateResult
		IsDownload bool `json:"isDownload"`
	}
	ws := bd.tab.ws
	ws.mu.Lock()
	before := ws.dl.seq // its announcement may come before or after the reply
	ws.mu.Unlock()
	c := bd.call(ctx)
	raw, err := c.Call(ctx, string(c.GetSessionID()), proto.PageNavigate{}.ProtoReq(), proto.PageNavigate{URL: rawURL})
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	if res.IsDownload {
		ws.mu.Lock()
		ws.dl.expect = max(ws.dl.expect, before+1)
		ws.mu.Unlock()
	}
	return &res.PageNavigateResult, nil
}

// ExpectStarted records that the page said n downloads began after mark (the
// settling probe saw navigations the page let through as downloads, as an
// a[download] link makes): AwaitDownloads waits for their announcements, at most
// download_announce_ms from now, since the browser may still decline one.
func (ws *Workspace) ExpectStarted(mark uint64, n int) {
	if n <= 0 {
		return
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.dl.hint = max(ws.dl.hint, mark+uint64(n))
	ws.dl.hintBy = time.Now().Add(time.Duration(limits.DownloadAnnounceMsMax) * time.Millisecond)
}

// DownloadMark is a mark of the workspace's downloads; DownloadedSince says whether a
// download began after it (a navigation that answered with a download).
func (ws *Workspace) DownloadMark() uint64 {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.dl.seq
}

// DownloadedSince reports whether a download began after mark.
func (ws *Workspace) DownloadedSince(mark uint64) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.dl.seq > mark
}

// ExpectDownloads watches the tab's page for a main-frame response the browser will
// turn into a download (Content-Disposition: attachment), for as long as an action's
// input may cause one; call stop when the action has been answered. The download's
// Browser.downloadWillBegin can trail the end of the navigation it came from, so
// AwaitDownloads waits for a download such a response announced. The response always
// precedes its download's announcement, so the expectation is set in time.
func (t *Tab) ExpectDownloads() (stop func()) {
	ws := t.ws
	target := t.TargetID()
	o, err := t.Observe(func(method string, params json.RawMessage) {
		if method != "Network.responseReceived" {
			return
		}
		var e struct {
			Type     string `json:"type"`
			FrameID  string `json:"frameId"`
			Response struct {
				Headers map[string]string `json:"headers"`
			} `json:"response"`
		}
		if json.Unmarshal(params, &e) != nil || e.Type != "Document" || e.FrameID != string(target) {
			return
		}
		for k, v := range e.Response.Headers {
			if strings.EqualFold(k, "content-disposition") && strings.HasPrefix(strings.ToLower(strings.TrimSpace(v)), "attachment") {
				ws.mu.Lock()
				ws.dl.expect = max(ws.dl.expect, ws.dl.seq+1)
				ws.mu.Unlock()
				return
			}
		}
	})
	if err != nil {
		return func() {}
	}
	return o.Stop
}
