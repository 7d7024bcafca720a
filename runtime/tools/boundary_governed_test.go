package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestGovernedURLsEveryTool: every tool that reports a URL or a title (tabs
// list, landing facts, history facts, diagnose entries, read, inspect, find,
// navigate) withholds a denied host's path, query and title: only its origin
// may appear, and B's request log shows the restricted calls sent it nothing.
func TestGovernedURLsEveryTool(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/start": `<title>Start</title><body style="margin:0">
<a href="{B}/private/linked?token=hunter2" style="display:block;height:40px">Leave</a>
<script>fetch("{B}/private/fetched?token=hunter2").catch(() => {}).finally(() => document.body.insertAdjacentHTML("beforeend", "<p>fetch done</p>"))</script></body>`,
	}, map[string]string{"/private/page": `<title>Private title</title><p>private text</p>`})
	h := newHarness(t)
	// Unrestricted: one tab on B's private page, one on A that visited B and
	// whose page fetched from B.
	var bt surface.BrowserNavigateFacts
	h.facts(h.must("browser_navigate", `{"url":`+quote(s.B+"/private/page?token=hunter2")+`,"new_tab":true}`), &bt)
	var at surface.BrowserNavigateFacts
	h.facts(h.must("browser_navigate", `{"url":`+quote(s.B+"/private/page?token=hunter2")+`,"new_tab":true}`), &at)
	h.must("browser_diagnose", `{"tab":`+quote(at.Tab)+`}`) // tracking starts
	h.must("browser_navigate", `{"tab":`+quote(at.Tab)+`,"url":`+quote(s.A+"/start")+`}`)
	h.must("browser_wait", `{"tab":`+quote(at.Tab)+`,"condition":"text_present","value":"fetch done","timeout_ms":5000}`)
	if d := h.must("browser_diagnose", `{"tab":`+quote(at.Tab)+`,"detail":"all"}`); !strings.Contains(string(d.JSON), "/private/fetched") {
		t.Fatalf("unrestricted, diagnose does not show the fetch to B: %s", d.JSON)
	}
	before := len(s.received())
	leak := func(j string) bool {
		return strings.Contains(j, "private") || strings.Contains(j, "Private") || strings.Contains(j, "hunter2")
	}
	for _, c := range []struct {
		tool, args string
		blocked    bool
	}{
		{"browser_tabs", `{"action":"list",` + onlyA + `}`, false},
		{"browser_diagnose", `{"tab":` + quote(at.Tab) + `,"detail":"all",` + onlyA + `}`, false},
		{"browser_diagnose", `{"tab":` + quote(at.Tab) + `,` + onlyA + `}`, false},
		{"browser_click", `{"tab":` + quote(at.Tab) + `,"selector":{"name":"Leave"},` + onlyA + `}`, false},
		{"browser_history", `{"tab":` + quote(at.Tab) + `,"action":"back",` + onlyA + `}`, true},
		{"browser_navigate", `{"tab":` + quote(at.Tab) + `,"url":` + quote(s.A+"/redirect") + `,` + onlyA + `}`, true},
		{"browser_read", `{"tab":` + quote(bt.Tab) + `,` + onlyA + `}`, true},
		{"browser_inspect", `{"tab":` + quote(bt.Tab) + `,"scope":"document",` + onlyA + `}`, true},
		{"browser_find", `{"tab":` + quote(bt.Tab) + `,"text":"private",` + onlyA + `}`, true},
		{"browser_screenshot", `{"tab":` + quote(bt.Tab) + `,` + onlyA + `}`, true},
		{"browser_history", `{"tab":` + quote(bt.Tab) + `,"action":"reload",` + onlyA + `}`, true},
	} {
		r := h.call(c.tool, c.args)
		j := string(r.JSON)
		if leak(j) {
			t.Errorf("%s %s leaks a denied host's path or title: %s", c.tool, c.args, j)
		}
		if got := r.Envelope.Status == surface.StatusBlocked; got != c.blocked {
			t.Errorf("%s %s: status %s: %s", c.tool, c.args, r.Envelope.Status, j)
		}
		if c.blocked && !strings.Contains(string(r.Envelope.Facts), `"layer":"restriction"`) {
			t.Errorf("%s %s: the refusal names no layer: %s", c.tool, c.args, j)
		}
		if c.tool == "browser_tabs" && (!strings.Contains(j, `"url":"`+s.B+`/"`) || !strings.Contains(r.Envelope.Summary, "withheld")) {
			t.Errorf("the tab list does not keep B's origin and say the rest is withheld: %s", j)
		}
		if c.tool == "browser_diagnose" && strings.Contains(c.args, `"all"`) && !strings.Contains(j, `"host_filtered":`) {
			t.Errorf("diagnose does not count what it withheld: %s", j)
		}
	}
	if got := s.received(); len(got) != before {
		t.Fatalf("the denied host received %v", got[before:])
	}
}
