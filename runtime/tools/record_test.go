package tools

import (
	"bytes"
	"encoding/json"
	"image/gif"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// animated counts up every 50 ms, so the screencast sends frames.
const animated = `<title>Anim</title><style>body{font:40px sans-serif}</style>
<div id="n">0</div><input type="file" id="up" aria-label="Replay">
<div id="got"></div>
<script>
let n = 0;
setInterval(() => { document.getElementById("n").textContent = ++n; document.body.style.background = n % 2 ? "#fee" : "#eef"; }, 50);
document.getElementById("up").addEventListener("change", e => {
	const f = e.target.files[0];
	document.getElementById("got").textContent = f ? f.type + " " + f.size : "none";
});
</script>`

func (h *harness) record(args string) surface.BrowserRecordFacts {
	h.t.Helper()
	r := h.must("browser_record", args)
	var f surface.BrowserRecordFacts
	h.facts(r, &f)
	return f
}

func TestRecordClientSave(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": animated})
	h.must("browser_navigate", `{"url":`+quote(srv.URL+"/")+`}`)

	st := h.record(`{"action":"start"}`)
	if !strings.HasPrefix(st.Recording, "rec_") || len(st.Recording) > surface.HandleCharsMax || st.State != "recording" || st.StopDeadlineMs != surface.RecordMsMax || !strings.HasPrefix(st.Tab, "tab_") {
		t.Fatalf("start facts: %+v", st)
	}
	time.Sleep(700 * time.Millisecond)
	s := h.record(`{"action":"status"}`)
	if s.State != "recording" || s.StopDeadlineMs <= 0 || s.StopDeadlineMs >= surface.RecordMsMax || s.FramesCaptured < 2 {
		t.Fatalf("status facts: %+v", s)
	}
	sp := h.record(`{"action":"stop","recording":"` + st.Recording + `"}`)
	if sp.State != "stopped" || sp.StopReason != "requested" || sp.RetentionMs <= 0 || sp.RetentionMs > surface.RecordRetentionMsMax {
		t.Fatalf("stop facts: %+v", sp)
	}

	for i := range 2 { // save can be repeated until discard
		t0 := time.Now()
		r := h.must("browser_record", `{"action":"save"}`)
		el := time.Since(t0)
		var f surface.BrowserRecordFacts
		h.facts(r, &f)
		if f.Delivery != "client" || r.Image == nil || r.Image.MIME != "image/gif" {
			t.Fatalf("save %d: %s", i, r.JSON)
		}
		if f.Bytes != len(r.Image.Data) || f.Bytes > surface.ImageBytesMax {
			t.Fatalf("bytes fact %d, image %d", f.Bytes, len(r.Image.Data))
		}
		g, err := gif.DecodeAll(bytes.NewReader(r.Image.Data))
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Image) < 2 || len(g.Image) != f.FramesKept || g.Config.Width != f.Width || g.Config.Height != f.Height {
			t.Fatalf("gif %d frames %dx%d, facts %+v", len(g.Image), g.Config.Width, g.Config.Height, f)
		}
		total := 0
		for _, d := range g.Delay {
			total += d
		}
		if total*10 != f.DurationMs || f.DurationMs < 500 {
			t.Fatalf("delays sum %d cs, duration_ms %d", total, f.DurationMs)
		}
		if f.FramesCaptured < f.FramesKept {
			t.Fatalf("captured %d < kept %d", f.FramesCaptured, f.FramesKept)
		}
		if !strings.Contains(r.Envelope.Summary, "plays for") || strings.Contains(string(r.JSON), "R0lGOD") {
			t.Fatalf("summary %q or GIF bytes in the envelope", r.Envelope.Summary)
		}
		t.Logf("save %d: %d frames (%d captured) %dx%d, %d bytes, %d ms replay, save took %v (%.2f ms/frame)",
			i, f.FramesKept, f.FramesCaptured, f.Width, f.Height, f.Bytes, f.DurationMs, el, float64(el.Microseconds())/1000/float64(f.FramesKept))
	}

	d := h.record(`{"action":"discard"}`)
	if d.State != "discarded" {
		t.Fatalf("discard: %+v", d)
	}
	r := h.call("browser_record", `{"action":"save","recording":"`+st.Recording+`"}`)
	if !refusedWith(r, surface.ReasonRecordingUnavailable) {
		t.Fatalf("save after discard: %s", r.JSON)
	}
	r = h.call("browser_record", `{"action":"save"}`)
	if !refusedWith(r, surface.ReasonRecordingUnavailable) {
		t.Fatalf("save with none left: %s", r.JSON)
	}
	if s := h.record(`{"action":"status","recording":"` + st.Recording + `"}`); s.State != "discarded" {
		t.Fatalf("status after discard: %+v", s)
	}
}

func TestRecordAmbiguousAndTarget(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": animated})
	h.must("browser_navigate", `{"url":`+quote(srv.URL+"/")+`}`)
	first := h.record(`{"action":"start"}`)
	// A second start on the same tab is refused while the first records.
	r := h.call("browser_record", `{"action":"start"}`)
	if !refusedWith(r, surface.ReasonInvalidArguments) {
		t.Fatalf("second start: %s", r.JSON)
	}
	time.Sleep(300 * time.Millisecond)
	h.record(`{"action":"stop"}`)
	second := h.record(`{"action":"start"}`)
	time.Sleep(300 * time.Millisecond)

	r = h.call("browser_record", `{"action":"save"}`)
	if !refusedWith(r, surface.ReasonInvalidArguments) || r.Image != nil {
		t.Fatalf("omitted recording with two: %s", r.JSON)
	}

	// Save the second into the page's file input, found by browser_find.
	fr := h.must("browser_find", `{"text":"Replay"}`)
	var ff surface.BrowserFindFacts
	h.facts(fr, &ff)
	if len(ff.Matches) != 1 {
		t.Fatalf("no file input found: %s", fr.JSON)
	}
	target := ff.Matches[0].Target
	sr := h.must("browser_record", `{"action":"save","recording":"`+second.Recording+`","target":"`+target+`"}`)
	var f surface.BrowserRecordFacts
	h.facts(sr, &f)
	if f.Delivery != "target" || sr.Image != nil || f.Bytes <= 0 || f.State != "stopped" || f.StopReason != "saved" {
		t.Fatalf("target save: %s", sr.JSON)
	}
	rr := h.must("browser_read", `{}`)
	if !strings.Contains(string(rr.JSON), "image/gif "+strconv.Itoa(f.Bytes)) {
		t.Fatalf("the page did not get a %d-byte GIF: %s", f.Bytes, rr.JSON)
	}
	// Download is refused while downloads are denied (the default), typed,
	// before anything changes (download_test.go covers the allowed save).
	dr := h.call("browser_record", `{"action":"save","recording":"`+first.Recording+`","download":true}`)
	if dr.Envelope.Status != surface.StatusBlocked || !strings.Contains(string(dr.Envelope.Facts), `"reason":"constraint_denied"`) {
		t.Fatalf("download: %s", dr.JSON)
	}
}

// refusedWith says whether r failed with reason.
func refusedWith(r pipeline.Result, reason surface.Reason) bool {
	var f struct {
		Reason surface.Reason `json:"reason"`
	}
	_ = json.Unmarshal(r.Envelope.Facts, &f)
	return r.Envelope.Status == surface.StatusFailed && f.Reason == reason
}
