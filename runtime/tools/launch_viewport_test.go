package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// TestViewportScreenshotIsDesktopSized: a viewport screenshot of a launched browser's
// tab is 1280x800 image pixels at device scale 1 (the spec's default viewport), where
// Chromium's own default window gave 765x493. A page tall enough to scroll is full
// width too (a headless scrollbar used to take 15 px: 1265x800).
func TestViewportScreenshotIsDesktopSized(t *testing.T) {
	for _, page := range []string{`<title>Desk</title><p>desktop</p>`, `<title>Tall</title><div style="height:5000px">tall</div>`} {
		viewportScreenshot(t, page)
	}
}

func viewportScreenshot(t *testing.T, page string) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": page})
	h.open(srv.URL + "/")
	f, r := h.screenshot(`{}`)
	if f.Width != surface.ViewportWidthDefault || f.Height != surface.ViewportHeightDefault {
		t.Fatalf("viewport screenshot %dx%d, want %dx%d", f.Width, f.Height, surface.ViewportWidthDefault, surface.ViewportHeightDefault)
	}
	if r.Image == nil {
		t.Fatal("no image")
	}
	img, err := png.Decode(bytes.NewReader(r.Image.Data))
	if err != nil || img.Bounds().Dx() != 1280 || img.Bounds().Dy() != 800 {
		t.Fatalf("image %v %v", img.Bounds(), err)
	}
	v := h.actSess().views.get(f.View)
	if v == nil || v.view.Binding.DeviceScale != 1 || v.view.Binding.ViewportWidth != 1280 || v.view.Binding.ViewportHeight != 800 || v.view.Scale != 1 {
		t.Fatalf("view %+v", v)
	}
}

type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLaunchFailureRefusal makes the real Chromium fail to start (a visible window and
// no display): the refusal names the browser and the cause with Chromium's own words,
// tells the model to point the user at the log line, and that line carries Chromium's
// first error line.
func TestLaunchFailureRefusal(t *testing.T) {
	for _, v := range []string{"DISPLAY", "WAYLAND_DISPLAY"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	var logs lockedBuf
	log := slog.New(slog.NewTextHandler(&logs, nil))
	b := browser.New(browser.Config{Startup: browser.StartupAuto, Headless: false, Logger: log, Path: os.Getenv("GHOSTLIGHT_BROWSER"), TempDir: t.TempDir()})
	defer b.Close()
	hd, err := New(Options{Browser: b, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer hd.Close()
	p := pipeline.New(pipeline.Options{Handler: hd, Authority: func() *governance.Authority { return governance.AllOpen("auto") }, Logger: log})
	srv := site(t, map[string]string{"/": `<title>x</title>`})
	r := p.Call(context.Background(), "launchfail", "browser_navigate", []byte(`{"url":`+quote(srv.URL+"/")+`}`), nil)
	checkEnvelope(t, "browser_navigate", r)
	var facts struct {
		Reason  string `json:"reason"`
		Browser string `json:"browser"`
	}
	_ = json.Unmarshal(r.Envelope.Facts, &facts)
	const said = "Missing X server or $DISPLAY"
	if r.Envelope.Status != surface.StatusFailed || facts.Reason != string(surface.ReasonBrowserUnavailable) || facts.Browser != "Chromium" {
		t.Fatalf("refusal: %s", r.JSON)
	}
	if s := r.Envelope.Summary; !strings.Contains(s, "could not start") || !strings.Contains(s, said) || !strings.Contains(s, "headless") {
		t.Fatalf("summary does not give the cause: %q", s)
	}
	if len(r.Envelope.NextSteps) != 1 || !strings.Contains(r.Envelope.NextSteps[0], `"`+browser.LaunchFailedLog+`"`) {
		t.Fatalf("next step does not point at the log line: %q", r.Envelope.NextSteps)
	}
	t.Logf("summary: %s\nnext step: %s", r.Envelope.Summary, r.Envelope.NextSteps[0])
	l := logs.String()
	if !strings.Contains(l, `msg="`+browser.LaunchFailedLog+`"`) || !strings.Contains(l, "browser_error=") || !strings.Contains(l, said) {
		t.Fatalf("log lacks the launch line with Chromium's error:\n%s", l)
	}
}
