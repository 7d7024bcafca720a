package live

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/recorder"
)

var (
	shared *browser.Browser
	site   *httptest.Server
)

func TestMain(m *testing.M) {
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/form":
			fmt.Fprint(w, `<title>Form</title><body style="margin:0">
<input id="pw" type="password" style="position:absolute;left:100px;top:100px;width:200px;height:40px">
<div id="n" style="position:absolute;left:0;top:300px">0</div></body>`)
		case "/spin":
			fmt.Fprint(w, `<title>Spin</title><body style="margin:0"><div id="b" style="width:50px;height:50px;background:red"></div>
<script>let i=0;(function f(){i++;document.getElementById('b').style.marginLeft=(i%400)+'px';requestAnimationFrame(f)})()</script></body>`)
		default:
			http.NotFound(w, r)
		}
	}))
	shared = browser.New(browser.Config{Startup: browser.StartupAuto, Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")})
	code := m.Run()
	_ = shared.Close()
	site.Close()
	os.Exit(code)
}

var testLimits = Limits{MaxEdge: 640, Quality: 60, MinGap: 100 * time.Millisecond, MaxText: 100, CallTimeout: 5 * time.Second}

func openTab(t *testing.T, path string) *browser.Tab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws := shared.Workspace(t.Name())
	t.Cleanup(func() { _ = shared.ReleaseWorkspace(context.Background(), t.Name()) })
	res, err := ws.Open(ctx, site.URL+path, browser.OpenOptions{NewTab: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.Tab
}

func startView(t *testing.T, tab *browser.Tab) *View {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	page, detach, err := tab.SidePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Start(ctx, page, detach, testLimits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

func next(t *testing.T, v *View) Frame {
	t.Helper()
	select {
	case f, ok := <-v.Frames():
		if !ok {
			t.Fatal("view ended")
		}
		return f
	case <-time.After(30 * time.Second):
		t.Fatal("no frame")
	}
	return Frame{}
}

func eval(t *testing.T, tab *browser.Tab, js string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out string
	err := tab.Do(ctx, func(ctx context.Context) error {
		r, err := tab.Page().Context(ctx).Eval(js)
		if err != nil {
			return err
		}
		out = r.Value.String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestInputReachesPage: a click at the field's place in the frame focuses
// it, and typed text lands in it, over the side session alone.
func TestInputReachesPage(t *testing.T) {
	tab := openTab(t, "/form")
	v := startView(t, tab)
	f := next(t, v)
	if f.Width <= 0 || f.Height <= 0 || f.Width > testLimits.MaxEdge || f.Height > testLimits.MaxEdge {
		t.Fatalf("frame %dx%d, want within %d", f.Width, f.Height, testLimits.MaxEdge)
	}
	vw, vh := eval(t, tab, `() => String(innerWidth)`), eval(t, tab, `() => String(innerHeight)`)
	var w, h float64
	fmt.Sscan(vw, &w)
	fmt.Sscan(vh, &h)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := v.Click(ctx, 200/w, 120/h, "primary", 1); err != nil {
		t.Fatal(err)
	}
	if got := eval(t, tab, `() => document.activeElement.id`); got != "pw" {
		t.Fatalf("focused %q, want pw", got)
	}
	if err := v.Text(ctx, "s3cr3t é"); err != nil {
		t.Fatal(err)
	}
	if err := v.Key(ctx, "Backspace", nil); err != nil {
		t.Fatal(err)
	}
	if got := eval(t, tab, `() => document.getElementById('pw').value`); got != "s3cr3t " {
		t.Fatalf("value %q", got)
	}
	for _, bad := range [][2]float64{{-0.1, 0.5}, {0.5, 1.5}} {
		if err := v.Click(ctx, bad[0], bad[1], "primary", 1); err == nil {
			t.Errorf("click at %v accepted", bad)
		}
	}
	if err := v.Key(ctx, "NoSuchKey", nil); err == nil {
		t.Error("unknown key accepted")
	}
}

// TestBesideRecording: the live view and a browser_record screencast of the
// same tab run together, and ending the view leaves the recording going.
func TestBesideRecording(t *testing.T) {
	tab := openTab(t, "/spin")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rec, err := recorder.Start(ctx, tab.Page(), recorder.Limits{MaxDuration: 20 * time.Second, Retention: time.Minute, MaxFrames: 100, MaxEdge: 320, CallTimeout: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Discard()
	v := startView(t, tab)
	var prev Frame
	for i := range 5 {
		f := next(t, v)
		if i > 0 {
			if f.Seq <= prev.Seq {
				t.Fatalf("frame %d after %d", f.Seq, prev.Seq)
			}
			if gap := f.At.Sub(prev.At); gap < testLimits.MinGap {
				t.Fatalf("frames %v apart, bound %v", gap, testLimits.MinGap)
			}
		}
		prev = f
	}
	v.Close()
	<-v.Done()
	before := rec.Status().FramesCaptured
	for rec.Status().FramesCaptured <= before+3 {
		if s := rec.Status().State; s != recorder.StateRecording {
			t.Fatalf("recording %s after the view ended", s)
		}
		select {
		case <-ctx.Done():
			t.Fatal("the recording stopped capturing when the view ended")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestRecordingWithholdsFrames: while Withheld says so (the person typed a
// credential into the page), the screencast's frames are dropped as they
// arrive, and a stop takes no final frame: a spinning page that repaints
// every frame leaves none kept. The control, the same page recorded with
// nothing withheld, keeps frames.
func TestRecordingWithholdsFrames(t *testing.T) {
	tab := openTab(t, "/spin")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lim := recorder.Limits{MaxDuration: 20 * time.Second, Retention: time.Minute, MaxFrames: 100, MaxEdge: 320, CallTimeout: 5 * time.Second}
	rec, err := recorder.Start(ctx, tab.Page(), lim, func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Discard()
	// The live view's frames prove the page repainted meanwhile.
	v := startView(t, tab)
	for range 5 {
		next(t, v)
	}
	rec.Stop(ctx, recorder.StopRequested)
	if n := rec.Status().FramesCaptured; n != 0 {
		t.Fatalf("%d frames kept while withheld (the stop's final frame among them)", n)
	}
	v.Close()
	<-v.Done()

	control, err := recorder.Start(ctx, tab.Page(), lim, func() bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	defer control.Discard()
	control.Stop(ctx, recorder.StopRequested) // at least its final frame
	if control.Status().FramesCaptured == 0 {
		t.Fatal("the control kept no frame")
	}
}

// credSite serves the pages of TestFocusedFieldReadsTheField: a password
// field in a closed shadow root of a page whose script lies about values
// and focus, and a password field in a frame of another origin.
func credSite(t *testing.T) (top, other string) {
	t.Helper()
	var otherURL string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/shadow":
			fmt.Fprint(w, `<title>Shadow</title><body style="margin:0">
<div id="host" style="position:absolute;left:0;top:0;width:400px;height:100px"></div>
<input id="decoy" style="position:absolute;top:200px" value="decoy-value">
<script>
window.peeked = 0;
const root = document.getElementById('host').attachShadow({mode: 'closed'});
root.innerHTML = '<input id="pw" type="password" style="width:380px;height:80px">';
const pw = root.getElementById('pw');
Object.defineProperty(pw, 'value', {get() { window.peeked++; return 'decoy-value'; }, set(v) {}});
const value = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
Object.defineProperty(HTMLInputElement.prototype, 'value', {get() { window.peeked++; return value.get.call(this); }, set(v) { value.set.call(this, v); }});
for (const P of [Document.prototype, ShadowRoot.prototype]) {
  Object.defineProperty(P, 'activeElement', {get() { window.peeked++; return document.getElementById('decoy'); }});
}
</script></body>`)
		case "/framed":
			fmt.Fprintf(w, `<title>Framed</title><body style="margin:0"><iframe src="%s/inner" style="position:absolute;left:0;top:0;width:400px;height:120px;border:0"></iframe></body>`, otherURL)
		case "/inner":
			fmt.Fprint(w, `<body style="margin:0"><input id="pw" type="password" style="width:380px;height:80px"></body>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	// The same server by another name: another origin.
	otherURL = "http://localhost:" + s.URL[strings.LastIndexByte(s.URL, ':')+1:]
	return s.URL, otherURL
}

func frameSource(tab *browser.Tab) pagejs.FrameSource {
	return func(ctx context.Context) []pagejs.Frame {
		var out []pagejs.Frame
		for _, f := range tab.Frames(ctx) {
			out = append(out, pagejs.Frame{Page: f.Page, FrameID: f.FrameID, URL: f.URL, Owner: f.Owner, Parent: f.Parent})
		}
		return out
	}
}

// TestFocusedFieldReadsTheField: the live view reads the credential field
// its keys reach as the field holds it (the caret and an edit in the
// middle included), in an isolated world: behind a closed shadow root on a
// page whose script redefines the field's value and every activeElement,
// the read answers the typed value and the page's getters never run; in a
// frame of another origin, the frame's field. The same field answers the
// same ID from read to read; an element that is no credential field answers
// ErrNoField.
func TestFocusedFieldReadsTheField(t *testing.T) {
	top, _ := credSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws := shared.Workspace(t.Name())
	t.Cleanup(func() { _ = shared.ReleaseWorkspace(context.Background(), t.Name()) })
	open := func(path string) (*browser.Tab, *View) {
		res, err := ws.Open(ctx, top+path, browser.OpenOptions{NewTab: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.Tab, startView(t, res.Tab)
	}
	at := func(tab *browser.Tab, x, y float64) (float64, float64) {
		var w, h float64
		fmt.Sscan(eval(t, tab, `() => String(innerWidth)`), &w)
		fmt.Sscan(eval(t, tab, `() => String(innerHeight)`), &h)
		return x / w, y / h
	}

	tab, v := open("/shadow")
	if _, err := v.FocusedField(ctx, frameSource(tab)); !errors.Is(err, ErrNoField) {
		t.Fatalf("nothing focused: %v", err)
	}
	fx, fy := at(tab, 200, 40)
	if err := v.Click(ctx, fx, fy, "primary", 1); err != nil {
		t.Fatal(err)
	}
	if err := v.Text(ctx, "s3cr3t-pw"); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ArrowLeft", "ArrowLeft", "Backspace", "X"} {
		if err := v.Key(ctx, k, nil); err != nil {
			t.Fatal(err)
		}
	}
	f, err := v.FocusedField(ctx, frameSource(tab))
	if err != nil {
		t.Fatal(err)
	}
	if string(f.Value) != "s3cr3tXpw" || f.Start != 7 || f.End != 7 || f.ID == "" {
		t.Fatalf("read %q, caret %d..%d, id %q; want s3cr3tXpw at 7", string(f.Value), f.Start, f.End, f.ID)
	}
	if n := eval(t, tab, `() => String(window.peeked)`); n != "0" {
		t.Fatalf("the page's getters ran %s times: it saw the read", n)
	}
	again, err := v.FocusedField(ctx, frameSource(tab))
	if err != nil || again.ID != f.ID {
		t.Fatalf("the same field read again: id %q, %v; first %q", again.ID, err, f.ID)
	}

	tab, v = open("/framed")
	fx, fy = at(tab, 200, 40)
	// A click on a frame of another process just loaded may reach the
	// frame's element before its document takes input: click until the
	// frame's own session says its field has focus.
	focused := func() bool {
		for _, fr := range tab.Frames(ctx) {
			raw, err := fr.Page.Call(ctx, string(fr.Page.SessionID), "Runtime.evaluate", map[string]any{
				"expression": `document.hasFocus() && document.activeElement.id === 'pw'`, "returnByValue": true})
			if err == nil && strings.Contains(string(raw), `"value":true`) {
				return true
			}
		}
		return false
	}
	for i := 0; !focused(); i++ {
		if i == 50 {
			t.Fatal("the framed field never took focus")
		}
		if err := v.Click(ctx, fx, fy, "primary", 1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := v.Text(ctx, "frame-secret"); err != nil {
		t.Fatal(err)
	}
	f, err = v.FocusedField(ctx, frameSource(tab))
	if err != nil || string(f.Value) != "frame-secret" {
		t.Fatalf("the framed field read %q, %v", string(f.Value), err)
	}
}
