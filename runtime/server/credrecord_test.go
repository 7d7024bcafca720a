package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// spinning repaints every frame, so a screencast sends frames all along.
const spinning = `<div id="s" style="width:80px;height:80px;background:#c00"></div><script>let n = 0; (function f() { document.getElementById('s').style.marginLeft = (n++ % 200) + 'px'; requestAnimationFrame(f) })()</script>`

// TestReplayNeverShowsTheSecret: once the person typed a card number in
// the workbench, a later page that shows it again (a receipt) is not in
// any replay the model saves: a recording of that page alone is refused
// with no picture, a recording that moved on to a page without it keeps
// only that page's frames and says how many it left out, and a recording
// of a page that never showed it is delivered whole. A session where nobody
// typed would deliver the receipt's frames: without the save's check the
// first save returns a GIF, and the test fails there.
func TestReplayNeverShowsTheSecret(t *testing.T) {
	const card = "4111111111111111"
	h := newCredHarness(t, serve(t, cardPage).URL+"/")
	if err := h.person(card); err != nil {
		t.Fatal(err)
	}
	receipt := serve(t, `<title>Receipt</title><p>Paid with Card 4111 1111 1111 1111</p>`+spinning).URL + "/"
	plain := serve(t, `<title>Plain</title><p>Thank you</p>`+spinning).URL + "/"
	nav := func(url string) {
		t.Helper()
		if r := h.call("browser_navigate", `{"tab":"`+h.tab+`","url":"`+url+`"}`); r.Envelope.Status != surface.StatusSucceeded {
			t.Fatalf("navigate: %s", r.JSON)
		}
	}
	// frames waits until the recording has captured n more frames (the
	// page repaints each frame), rather than for a time.
	frames := func(rec string, n int) {
		t.Helper()
		base := -1
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			var f surface.BrowserRecordFacts
			r := h.call("browser_record", `{"action":"status","recording":"`+rec+`"}`)
			if err := json.Unmarshal(r.Envelope.Facts, &f); err != nil {
				t.Fatalf("status: %s", r.JSON)
			}
			if base < 0 {
				base = f.FramesCaptured
			}
			if f.FramesCaptured >= base+n {
				return
			}
		}
		t.Fatalf("%s captured fewer than %d frames in 20 s", rec, n)
	}
	start := func() string {
		t.Helper()
		r := h.call("browser_record", `{"tab":"`+h.tab+`","action":"start"}`)
		var f surface.BrowserRecordFacts
		if err := json.Unmarshal(r.Envelope.Facts, &f); err != nil || f.Recording == "" {
			t.Fatalf("start: %s", r.JSON)
		}
		frames(f.Recording, 2)
		return f.Recording
	}
	save := func(rec string) (surface.BrowserRecordFacts, bool, string) {
		t.Helper()
		r := h.call("browser_record", `{"action":"save","recording":"`+rec+`"}`)
		var f surface.BrowserRecordFacts
		_ = json.Unmarshal(r.Envelope.Facts, &f)
		return f, r.Image != nil && r.Envelope.Status == surface.StatusSucceeded, string(r.JSON)
	}

	nav(receipt)
	if _, got, r := save(start()); got || !strings.Contains(r, "shows what the user typed") {
		t.Fatalf("a replay of the page showing the card number: %s", r)
	}

	rec := start() // on the receipt
	nav(plain)
	frames(rec, 3)
	f, got, r := save(rec)
	if !got || f.FramesKept == 0 || f.FramesKept >= f.FramesCaptured || !strings.Contains(r, "left out of the replay") {
		t.Fatalf("a replay that moved on to a page without the number: want only that page's frames: %s", r)
	}

	if f, got, r := save(start()); !got || f.FramesKept < 2 || strings.Contains(r, "left out") {
		t.Fatalf("a replay of a page that never showed the number: %s", r)
	}
}
