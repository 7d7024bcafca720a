package tools

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestUploadWithoutTargetReachesAFramesInput: an upload that names no file
// input takes the only one of the page and the frames the call may reach,
// wherever it is: in an out-of-process frame it is set on that frame's
// session. A frame outside the call's hosts is not looked into, and a second
// input anywhere makes the choice ambiguous.
func TestUploadWithoutTargetReachesAFramesInput(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/outer": `<title>Outer</title><body style="margin:0"><p style="margin:0;height:20px">Outer words</p>
<iframe src="{B}/inner" style="display:block;width:400px;height:200px;border:0"></iframe></body>`,
		"/both": `<title>Both</title><body style="margin:0"><input type="file" aria-label="Page file">
<iframe src="{B}/inner" style="display:block;width:400px;height:200px;border:0"></iframe></body>`,
	}, map[string]string{"/inner": framePage("B", "rgb(255, 0, 0)")})
	h := newHarness(t)
	data := base64.StdEncoding.EncodeToString([]byte("frame bytes"))
	files := `"files":[{"name":"b.txt","data_base64":"` + data + `"}]`

	h.must("browser_navigate", `{"url":`+quote(s.A+"/outer")+`}`)
	h.must("browser_wait", `{"condition":"selector_present","selector":{"name":"B button"},"timeout_ms":10000}`)
	var uf surface.BrowserUploadFacts
	h.facts(h.must("browser_upload", `{`+files+`}`), &uf)
	if uf.Target == "" {
		t.Fatalf("the frame's input is not named: %+v", uf)
	}
	var found surface.BrowserFindFacts
	h.facts(h.must("browser_find", `{"text":"B received b.txt"}`), &found)
	if len(found.Matches) != 1 {
		t.Fatalf("the frame's file input did not receive the file: %+v", found)
	}

	// Outside the call's hosts the frame is not looked into.
	r := h.call("browser_upload", `{`+files+`,"restrict_hosts":[`+quote(host(s.A))+`]}`)
	if reasonOf(t, r.Envelope.Facts) != surface.ReasonNotFileInput {
		t.Fatalf("a restricted upload reached the frame's input: %s", r.JSON)
	}

	// One input in the page and one in the frame: ambiguous, nothing set.
	h.must("browser_navigate", `{"url":`+quote(s.A+"/both")+`}`)
	h.must("browser_wait", `{"condition":"selector_present","selector":{"name":"B button"},"timeout_ms":10000}`)
	r = h.call("browser_upload", `{`+files+`}`)
	if reasonOf(t, r.Envelope.Facts) != surface.ReasonTargetAmbiguous || !strings.Contains(string(r.JSON), `"candidates":2`) {
		t.Fatalf("two inputs, one in a frame: %s", r.JSON)
	}
}
