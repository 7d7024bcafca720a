package live

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
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
