package tools

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// sameSite is a third loopback server on 127.0.0.1 at another port: the
// same site as A, another origin, so Chromium keeps its frames in A's
// process (measured: Page.getFrameTree of A's page lists them; an
// out-of-process frame is not in it). It logs every request.
type sameSite struct {
	C   string
	mu  sync.Mutex
	log []string
}

func newSameSite(t testing.TB, pages map[string]string) *sameSite {
	t.Helper()
	s := &sameSite{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.C = "http://" + l.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, r.Method+" "+r.URL.RequestURI())
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, pages[r.URL.Path])
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return s
}

func (s *sameSite) received() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.log)
}

// framePage is a frame's document: a heading, prose, a button whose handler
// leaves a mark, a file input that reports what it got, and a colored box.
func framePage(tag, color string) string {
	return `<title>` + tag + ` frame</title><body style="margin:0;background:` + color + `">
<h1 style="margin:0;font-size:16px">` + tag + ` heading</h1><p style="margin:0">` + tag + ` frame words</p>
<button onclick="this.textContent='` + tag + ` pressed'" style="width:120px;height:30px">` + tag + ` button</button>
<input type="file" aria-label="` + tag + ` file" onchange="document.getElementById('got').textContent='` + tag + ` received '+this.files[0].name">
<p id="got" style="margin:0">-</p>
<div role="region" aria-label="` + tag + ` box" style="width:80px;height:40px;background:` + color + `"></div></body>`
}

// TestCrossOriginFramesPerceived: read, document inspect, find, click,
// upload and screenshots see into an out-of-process frame (B, 127.0.0.2)
// and an in-process cross-origin frame (C, 127.0.0.1 at another port), and
// each frame's host is checked like a page's: outside the call's hosts it is
// neither perceived nor acted in, and a navigation under those hosts never
// loads it (its request log stays as it was).
func TestCrossOriginFramesPerceived(t *testing.T) {
	c := newSameSite(t, map[string]string{"/inner": framePage("C", "rgb(0, 0, 255)")})
	s := newBoundarySite(t, map[string]string{
		"/outer": `<title>Outer</title><body style="margin:0"><p style="margin:0;height:20px">Outer words</p>
<iframe src="{B}/inner" style="display:block;width:400px;height:200px;border:0"></iframe>
<iframe src="` + c.C + `/inner" style="display:block;width:400px;height:200px;border:0"></iframe></body>`,
	}, map[string]string{"/inner": framePage("B", "rgb(255, 0, 0)")})
	h := newHarness(t)
	h.must("browser_navigate", `{"url":`+quote(s.A+"/outer")+`}`)
	// Both frames load with the page; wait until each shows its button.
	for _, name := range []string{"B button", "C button"} {
		h.must("browser_wait", `{"condition":"selector_present","selector":{"name":`+quote(name)+`},"timeout_ms":10000}`)
	}

	// read: the page's text, then each frame's.
	r := h.must("browser_read", `{"mode":"visible"}`)
	var rf surface.BrowserReadFacts
	h.facts(r, &rf)
	for _, w := range []string{"Outer words", "B frame words", "C frame words"} {
		if !strings.Contains(rf.Text, w) {
			t.Fatalf("read misses %q: %q", w, rf.Text)
		}
	}
	// text_present sees into frames too.
	h.must("browser_wait", `{"condition":"text_present","value":"C frame words","timeout_ms":2000}`)

	// document-scope inspect: the frames' structure follows the page's.
	r = h.must("browser_inspect", `{"scope":"document"}`)
	var inf surface.BrowserInspectFacts
	h.facts(r, &inf)
	names := map[string]bool{}
	for _, it := range inf.Items {
		names[it.Name] = true
	}
	if !names["B heading"] || !names["C heading"] {
		t.Fatalf("document inspect misses a frame's headings: %s", r.JSON)
	}

	// find and click in the in-process frame (B's is TestCrossOriginFrameFindAndClick's).
	var found surface.BrowserFindFacts
	h.facts(h.must("browser_find", `{"text":"C button"}`), &found)
	if len(found.Matches) != 1 {
		t.Fatalf("find in an in-process frame: %+v", found)
	}
	cTarget := found.Matches[0].Target
	var cf surface.BrowserClickFacts
	h.facts(h.must("browser_click", `{"target":`+quote(cTarget)+`}`), &cf)
	if !cf.Activated {
		t.Fatalf("click in an in-process frame: %+v", cf)
	}
	found = surface.BrowserFindFacts{}
	h.facts(h.must("browser_find", `{"text":"C pressed"}`), &found)
	if len(found.Matches) != 1 {
		t.Fatalf("the in-process frame's button did not run its handler: %+v", found)
	}

	// upload into each frame's file input.
	data := base64.StdEncoding.EncodeToString([]byte("frame bytes"))
	for _, tag := range []string{"B", "C"} {
		h.must("browser_upload", `{"selector":{"name":"`+tag+` file"},"files":[{"name":"`+strings.ToLower(tag)+`.txt","data_base64":"`+data+`"}]}`)
		found = surface.BrowserFindFacts{}
		h.facts(h.must("browser_find", `{"text":"`+tag+` received `+strings.ToLower(tag)+`.txt"}`), &found)
		if len(found.Matches) != 1 {
			t.Fatalf("the %s frame's file input did not receive the file: %+v", tag, found)
		}
	}

	// screenshots: a frame is part of the page's image, and a target inside
	// a frame is captured where it is drawn.
	shot := h.must("browser_screenshot", `{}`)
	img, err := png.Decode(bytes.NewReader(shot.Image.Data))
	if err != nil {
		t.Fatal(err)
	}
	scale := float64(img.Bounds().Dx()) / 1280
	at := func(img image.Image, x, y float64) (uint32, uint32, uint32) {
		r, g, b, _ := img.At(int(x*scale), int(y*scale)).RGBA()
		return r >> 8, g >> 8, b >> 8
	}
	if r, g, b := at(img, 390, 190); r < 200 || g > 50 || b > 50 {
		t.Fatalf("the out-of-process frame is not in the page image: rgb(%d,%d,%d)", r, g, b)
	}
	if r, g, b := at(img, 390, 390); r > 50 || g > 50 || b < 200 {
		t.Fatalf("the in-process frame is not in the page image: rgb(%d,%d,%d)", r, g, b)
	}
	for _, c := range []struct {
		tag     string
		r, g, b bool
	}{{"B", true, false, false}, {"C", false, false, true}} {
		found = surface.BrowserFindFacts{}
		h.facts(h.must("browser_find", `{"text":"`+c.tag+` box"}`), &found)
		if len(found.Matches) != 1 {
			t.Fatalf("find the %s box: %+v", c.tag, found)
		}
		shot := h.must("browser_screenshot", `{"target":`+quote(found.Matches[0].Target)+`}`)
		img, err := png.Decode(bytes.NewReader(shot.Image.Data))
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		pr, pg, pb, _ := img.At(b.Dx()/2, b.Dy()/2).RGBA()
		if (pr>>8 > 200) != c.r || (pg>>8 > 200) != c.g || (pb>>8 > 200) != c.b || b.Dx() > 200 {
			t.Fatalf("the %s box's screenshot: %v, centre rgb(%d,%d,%d)", c.tag, b, pr>>8, pg>>8, pb>>8)
		}
	}

	// Outside the call's hosts (A's host and port only), neither frame is
	// perceived or acted in, and perceiving sends them nothing.
	onlyAPort := `"restrict_hosts":[` + quote(host(s.A)) + `]`
	bBefore, cBefore := len(s.received()), c.received()
	rf = surface.BrowserReadFacts{}
	h.facts(h.must("browser_read", `{"mode":"visible",`+onlyAPort+`}`), &rf)
	if !strings.Contains(rf.Text, "Outer words") || strings.Contains(rf.Text, "frame words") {
		t.Fatalf("a restricted read: %q", rf.Text)
	}
	r = h.must("browser_inspect", `{"scope":"document",`+onlyAPort+`}`)
	inf = surface.BrowserInspectFacts{}
	h.facts(r, &inf)
	if len(inf.Items) != 1 || inf.Items[0].Name != "Outer words" {
		t.Fatalf("a restricted document inspect shows a frame: %s", r.JSON)
	}
	// Its diff is against the wider snapshot without the frames' nodes: it
	// neither names nor counts what this call may not see.
	if inf.Diff == nil || inf.Diff.Removed != 0 || inf.Diff.Changed != 0 || strings.Contains(string(r.JSON), "heading") || strings.Contains(string(r.JSON), "frame words") {
		t.Fatalf("a restricted inspect's diff reaches into the frames: %s", r.JSON)
	}
	found = surface.BrowserFindFacts{}
	h.facts(h.must("browser_find", `{"text":"pressed",`+onlyAPort+`}`), &found)
	if len(found.Matches) != 0 {
		t.Fatalf("a restricted find sees a frame: %+v", found)
	}
	if r := h.call("browser_click", `{"target":`+quote(cTarget)+`,`+onlyAPort+`}`); r.Envelope.Status == surface.StatusSucceeded {
		t.Fatalf("a restricted click acted in the in-process frame: %s", r.JSON)
	}
	if r := h.call("browser_upload", `{"selector":{"name":"C file"},"files":[{"name":"x.txt","data_base64":"`+data+`"}],`+onlyAPort+`}`); r.Envelope.Status == surface.StatusSucceeded {
		t.Fatalf("a restricted upload reached the in-process frame: %s", r.JSON)
	}
	if len(s.received()) != bBefore || c.received() != cBefore {
		t.Fatalf("perception reached a frame's host: B %v, C %d→%d", s.received()[bBefore:], cBefore, c.received())
	}
	// A navigation under those hosts never loads either frame: the
	// in-process frame's host is checked at the boundary like a page's.
	r = h.must("browser_navigate", `{"url":`+quote(s.A+"/outer")+`,`+onlyAPort+`}`)
	var bf blockedFacts
	h.facts(r, &bf)
	if bf.RequestsBlocked != 2 || len(bf.BlockedHosts) != 2 {
		t.Fatalf("the frames of denied hosts: %s", r.JSON)
	}
	if len(s.received()) != bBefore || c.received() != cBefore {
		t.Fatalf("a denied frame's host received a request: B %v, C %d→%d", s.received()[bBefore:], cBefore, c.received())
	}
}
