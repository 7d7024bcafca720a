package tools

import (
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestTextAbsentWaitsForFramesItCannotRead: a wait for text to go does not
// end while a frame of another origin cannot be read (its page is busy in a
// loop, begun once the test saw its text), nor on a read of the frame that did not finish in the call's
// time: the text may be there, so the wait times out, truthfully. Before,
// a frame whose read failed added nothing, and the wait answered that the
// text was gone, even for an idle frame holding it under a 600 ms wait.
// The control: text on no document of the tab is absent.
func TestTextAbsentWaitsForFramesItCannotRead(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/busy": `<title>Outer</title><p>Outer words</p><iframe src="{B}/busy"></iframe>`,
		"/idle": `<title>Outer</title><p>Outer words</p><iframe src="{B}/idle"></iframe>`,
	}, map[string]string{
		"/busy": `<title>Frame</title><p>Frame words</p><script>onmessage = () => { const end = Date.now() + 20000; while (Date.now() < end) {} }</script>`,
		"/idle": `<title>Frame</title><p>Frame words</p>`,
	})
	h := newHarness(t)
	h.must("browser_navigate", `{"url":`+quote(s.A+"/idle")+`}`)
	h.must("browser_wait", `{"condition":"text_present","value":"Frame words","timeout_ms":10000}`)
	if r := h.call("browser_wait", `{"condition":"text_absent","value":"Frame words","timeout_ms":600}`); r.Envelope.Status == surface.StatusSucceeded {
		t.Fatalf("the idle frame's text is there: %s", r.JSON)
	}
	if r := h.call("browser_wait", `{"condition":"text_absent","value":"Nowhere at all","timeout_ms":10000}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatalf("control: text on no page of the tab is absent: %s", r.JSON)
	}

	h.must("browser_navigate", `{"url":`+quote(s.A+"/busy")+`}`)
	h.must("browser_wait", `{"condition":"text_present","value":"Frame words","timeout_ms":10000}`)
	// The frame's page starts its loop when told, once its text was seen.
	h.must("browser_execute", `{"script":"document.querySelector('iframe').contentWindow.postMessage('spin', '*')"}`)
	if r := h.call("browser_wait", `{"condition":"text_absent","value":"Frame words","timeout_ms":1500}`); r.Envelope.Status == surface.StatusSucceeded {
		t.Fatalf("a frame that cannot be read was taken for one without the text: %s", r.JSON)
	}
}
