package tools

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

const uploadPage = `<title>Upload</title>
<label>Resume <input type="file" id="resume" multiple onchange="
  window.got = [...this.files].map(f => f.name + ':' + f.size);
  [...this.files].forEach(f => f.text().then(t => { window.texts = (window.texts || []).concat([t]) }))"></label>
<label>Name <input id="name2"></label>
<div id="drop" style="width:300px;height:150px;border:1px dashed" ondragover="event.preventDefault()"
  ondrop="event.preventDefault(); window.dropped = [...event.dataTransfer.files].map(f => f.type + ':' + f.size)">Drop here</div>`

func TestUploadPathsAndInline(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": uploadPage, "/one": `<title>One</title><input type="file" id="only" onchange="window.got=this.files.length">`}, nil)
	tab := h.actOpen(srv.URL + "/")
	dir := t.TempDir()
	a := filepath.Join(dir, "private-name-a.txt")
	b := filepath.Join(dir, "private-name-b.txt")
	os.WriteFile(a, []byte("hello"), 0o600)
	os.WriteFile(b, []byte("world!!"), 0o600)
	resume := h.actTarget(tab, "Resume")
	r := h.must("browser_upload", `{"target":"`+resume+`","paths":[`+quote(a)+`,`+quote(b)+`]}`)
	var f surface.BrowserUploadFacts
	h.facts(r, &f)
	if f.UploadedCount != 2 || f.UploadedBytes != 12 || f.Target != resume || r.Envelope.RepeatSafe {
		t.Fatalf("paths: %s", r.JSON)
	}
	if strings.Contains(string(r.JSON), "private-name") || strings.Contains(string(r.JSON), dir) {
		t.Fatalf("a path or name is in the result: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, `Attached 2 files (12 bytes) to the "Resume" file input`) {
		t.Fatalf("summary: %q", r.Envelope.Summary)
	}
	var got []string
	h.actEval(tab, `window.got`, &got)
	if strings.Join(got, ",") != "private-name-a.txt:5,private-name-b.txt:7" {
		t.Fatalf("page saw %v", got)
	}
	// Inline files decode and reach the page with their names and bytes.
	r = h.must("browser_upload", `{"selector":{"name":"Resume"},"files":[{"name":"notes.txt","data_base64":"`+base64.StdEncoding.EncodeToString([]byte("inline bytes"))+`"}]}`)
	h.facts(r, &f)
	if f.UploadedCount != 1 || f.UploadedBytes != 12 || strings.Contains(string(r.JSON), "notes.txt") {
		t.Fatalf("inline: %s", r.JSON)
	}
	h.must("browser_wait", `{"condition":"duration","value":50}`)
	var texts []string
	h.actEval(tab, `window.texts`, &texts)
	if len(texts) == 0 || texts[len(texts)-1] != "inline bytes" {
		t.Fatalf("inline content: %v", texts)
	}
	// Not a file input.
	actExpect(t, h.call("browser_upload", `{"target":"`+h.actTarget(tab, "Name")+`","paths":[`+quote(a)+`]}`), surface.StatusFailed, surface.EffectNone, surface.ReasonNotFileInput)
	// Without a destination: the page's only file input.
	one := h.actOpen(srv.URL + "/one")
	r = h.must("browser_upload", `{"tab":"`+one+`","paths":[`+quote(a)+`]}`)
	var n int
	h.actEval(one, `window.got`, &n)
	if n != 1 {
		t.Fatalf("sole file input: %d (%s)", n, r.JSON)
	}
}

func TestUploadRefusedBeforeTheBrowser(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	f, _ := os.Create(big)
	f.Truncate(surface.UploadFileBytesMax + 1)
	f.Close()
	half := filepath.Join(dir, "half.bin")
	f, _ = os.Create(half)
	f.Truncate(surface.UploadTotalBytesMax/2 + 1)
	f.Close()
	half2 := filepath.Join(dir, "half2.bin")
	f, _ = os.Create(half2)
	f.Truncate(surface.UploadTotalBytesMax/2 + 1)
	f.Close()
	small := filepath.Join(dir, "small.txt")
	os.WriteFile(small, []byte("x"), 0o600)
	// This session controls no tab: a refusal other than no_tab proves the
	// check ran before the browser was asked anything.
	for _, c := range []struct{ args, pointer string }{
		{`{"target":"target_aG1N1","paths":[` + quote(filepath.Join(dir, "missing.txt")) + `]}`, "/paths/0"},
		{`{"target":"target_aG1N1","paths":[` + quote(small) + `,` + quote(dir) + `]}`, "/paths/1"},
		{`{"target":"target_aG1N1","paths":[` + quote(big) + `]}`, "/paths/0"},
		{`{"target":"target_aG1N1","paths":[` + quote(half) + `,` + quote(half2) + `]}`, "/paths"},
	} {
		r := h.call("browser_upload", c.args)
		actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonFileRefused)
		if !strings.Contains(string(r.Envelope.Facts), `"pointer":"`+c.pointer+`"`) || strings.Contains(string(r.JSON), dir) {
			t.Fatalf("%s: %s", c.args, r.JSON)
		}
	}
	// Inline bytes over the bound are refused from their encoded length,
	// without decoding.
	part := `"` + strings.Repeat("A", (surface.UploadBase64CharsMax/2)&^3) + `"`
	r := h.call("browser_upload", `{"target":"target_aG1N1","files":[{"name":"a","data_base64":`+part+`},{"name":"b","data_base64":`+part+`},{"name":"c","data_base64":`+part+`}]}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectNone, surface.ReasonFileRefused)
}

func TestUploadCapturedImage(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": uploadPage}, nil)
	tab := h.actOpen(srv.URL + "/")
	img, v := h.actView(tab)
	size := len(h.actSess().views.get(img).data)
	r := h.must("browser_upload", `{"source_image":"`+img+`","target":"`+h.actTarget(tab, "Resume")+`"}`)
	var f surface.BrowserUploadFacts
	h.facts(r, &f)
	if f.UploadedCount != 1 || f.UploadedBytes != size {
		t.Fatalf("attach image: %s", r.JSON)
	}
	var got []string
	h.actEval(tab, `window.got`, &got)
	if len(got) != 1 || got[0] != "capture.png:"+itoa(size) {
		t.Fatalf("page saw %v", got)
	}
	// Dropped at a point of a current view.
	x, y := h.actImagePoint(tab, v, "drop")
	r = h.must("browser_upload", `{"source_image":"`+img+`","view":"`+img+`","x":`+itoa(x)+`,"y":`+itoa(y)+`}`)
	h.facts(r, &f)
	if f.Target != img || f.UploadedBytes != size || !strings.HasPrefix(r.Envelope.Summary, "Dropped the captured image") {
		t.Fatalf("drop: %s", r.JSON)
	}
	h.actEval(tab, `window.dropped`, &got)
	if len(got) != 1 || got[0] != "image/png:"+itoa(size) {
		t.Fatalf("drop zone saw %v", got)
	}
	actExpect(t, h.call("browser_upload", `{"source_image":"view_4242","target":"`+h.actTarget(tab, "Resume")+`"}`), surface.StatusFailed, surface.EffectNone, surface.ReasonUnknownHandle)
	actExpect(t, h.call("browser_upload", `{"source_image":"`+img+`","view":"`+img+`"}`), surface.StatusFailed, surface.EffectNone, surface.ReasonInvalidArguments)
	actExpect(t, h.call("browser_upload", `{"source_image":"`+img+`","x":1,"y":2}`), surface.StatusFailed, surface.EffectNone, surface.ReasonInvalidArguments)
}
