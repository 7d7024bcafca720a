package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// hostlessFrames is a document with a sandboxed srcdoc frame (its own
// process in Chromium 156) and a data: frame (in its embedder's process):
// neither has a host of its own, and page code outside enters neither.
func hostlessFrames(tag string) string {
	return `<p>` + tag + ` outer words</p>
<iframe sandbox="allow-scripts" srcdoc="<p>` + tag + ` srcdoc words</p><button onclick=&quot;this.textContent='` + tag + ` srcdoc pressed'&quot;>` + tag + ` srcdoc button</button>"></iframe>
<iframe src="data:text/html,<p>` + tag + ` data words</p><button onclick=&quot;this.textContent='` + tag + ` data pressed'&quot;>` + tag + ` data button</button>"></iframe>`
}

// TestHostlessFramesPerceived: a sandboxed srcdoc frame and a data: frame
// are read, found and clicked in, held to their embedder's host: inside a
// frame of a host the call may not reach (B), they are not perceived either.
func TestHostlessFramesPerceived(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/outer": `<title>Outer</title><body>` + hostlessFrames("A") + `
<iframe src="{B}/inner" style="width:400px;height:300px"></iframe></body>`,
	}, map[string]string{"/inner": `<body>` + hostlessFrames("B") + `</body>`})
	h := newHarness(t)
	h.must("browser_navigate", `{"url":`+quote(s.A+"/outer")+`}`)
	h.must("browser_wait", `{"condition":"selector_present","selector":{"name":"B data button"},"timeout_ms":10000}`)

	var rf surface.BrowserReadFacts
	h.facts(h.must("browser_read", `{"mode":"visible"}`), &rf)
	for _, w := range []string{"A outer words", "A srcdoc words", "A data words", "B outer words", "B srcdoc words", "B data words"} {
		if !strings.Contains(rf.Text, w) {
			t.Fatalf("read misses %q: %q", w, rf.Text)
		}
	}
	for _, kind := range []string{"srcdoc", "data"} {
		var found surface.BrowserFindFacts
		h.facts(h.must("browser_find", `{"text":"A `+kind+` button"}`), &found)
		if len(found.Matches) != 1 {
			t.Fatalf("find in the %s frame: %+v", kind, found)
		}
		var cf surface.BrowserClickFacts
		h.facts(h.must("browser_click", `{"target":`+quote(found.Matches[0].Target)+`}`), &cf)
		found = surface.BrowserFindFacts{}
		h.facts(h.must("browser_find", `{"text":"A `+kind+` pressed"}`), &found)
		if len(found.Matches) != 1 {
			t.Fatalf("the %s frame's button did not run its handler: %+v", kind, found)
		}
	}

	// Restricted to A's host and port: A's own hostless frames are still
	// perceived, B's (inside B) are not.
	only := `"restrict_hosts":[` + quote(host(s.A)) + `]`
	rf = surface.BrowserReadFacts{}
	h.facts(h.must("browser_read", `{"mode":"visible",`+only+`}`), &rf)
	if !strings.Contains(rf.Text, "A srcdoc words") || !strings.Contains(rf.Text, "A data words") || strings.Contains(rf.Text, "B ") {
		t.Fatalf("a restricted read: %q", rf.Text)
	}
	var found surface.BrowserFindFacts
	h.facts(h.must("browser_find", `{"text":"button",`+only+`}`), &found)
	for _, m := range found.Matches {
		if strings.HasPrefix(m.Name, "B ") {
			t.Fatalf("a restricted find reaches into B's frames: %+v", found)
		}
	}
}
