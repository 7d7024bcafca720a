package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// TestBoundaryPopupRedirectedToDeniedHost: a popup whose first request is
// allowed and then redirected to a denied host is closed and reported like a
// popup to a denied host (the deciding layer and the host), never kept as an
// adopted blank tab; the denied host receives nothing.
func TestBoundaryPopupRedirectedToDeniedHost(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/start": `<title>Start</title><body style="margin:0">
<button onclick="window.open('/redirect')">Open redirected</button>
<a href="/redirect" target="_blank" style="display:block;height:40px">Blank redirected</a>
<button onclick="window.open('/slowredirect')">Open slow</button>
<button onclick="const w = window.open(); w.location.href = '/redirect'">Open then send</button>
<button onclick="const w = window.open('about:blank'); setTimeout(() => { w.location.href = '/slowredirect' }, 50)">Open blank later</button></body>`,
	}, nil)
	// The workspace layer denies B, so the popup is held to it between calls
	// too (a call's own restrict_hosts lasts only while the call runs).
	dir := t.TempDir()
	p := filepath.Join(dir, "policy.cue")
	if err := os.WriteFile(p, []byte(`hosts: allow: ["127.0.0.1"]`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ld, err := governance.Load(governance.Config{Files: []governance.File{{Layer: "workspace", Path: p}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := &policyHarness{t: t, pipe: pipeline.New(pipeline.Options{Handler: testHandler, Authority: ld.Current}), session: strings.ReplaceAll(t.Name(), "/", "_")}
	t.Cleanup(func() { testHandler.Release(context.Background(), h.session) })
	h.must("browser_navigate", `{"url":`+quote(s.A+"/start")+`}`)
	for _, name := range []string{"Open redirected", "Blank redirected", "Open slow", "Open then send", "Open blank later"} {
		// A popup adopted blank is closed when its navigation is stopped,
		// which may come after the click answered: then the next result
		// reports it. Across the two, it is reported once, with the host and
		// the layer, and never listed as a tab.
		r := h.call("browser_click", `{"selector":{"name":`+quote(name)+`}}`)
		if r.Envelope.Status != surface.StatusSucceeded || r.Envelope.Effect != surface.EffectApplied {
			t.Fatalf("%s: %s", name, r.JSON)
		}
		summaries, closed, blocked, layer, hosts := "", 0, 0, "", []string{}
		inClick := strings.Contains(r.Envelope.Summary, "was closed")
		var tabs surface.BrowserTabsFacts
		for i := 0; ; i++ {
			var f blockedFacts
			h.facts(r, &f)
			if len(f.OpenedTabs) != 0 && strings.Contains(string(r.JSON), "popup to") {
				t.Fatalf("%s: a closed popup is listed as opened: %s", name, r.JSON)
			}
			if strings.Contains(string(r.JSON), "hunter2") || strings.Contains(string(r.JSON), "secret") {
				t.Fatalf("the stopped URL's path reached the result: %s", r.JSON)
			}
			summaries += r.Envelope.Summary
			closed, blocked, hosts = closed+f.PopupsClosed, blocked+f.RequestsBlocked, append(hosts, f.BlockedHosts...)
			if f.Layer != "" {
				layer = f.Layer
			}
			r = h.must("browser_tabs", `{"action":"list"}`)
			tabs = surface.BrowserTabsFacts{}
			h.facts(r, &tabs)
			if len(tabs.Tabs) == 1 && closed+tabsClosed(r) == 1 || i == 200 {
				f = blockedFacts{}
				h.facts(r, &f)
				summaries += r.Envelope.Summary
				closed, blocked, hosts = closed+f.PopupsClosed, blocked+f.RequestsBlocked, append(hosts, f.BlockedHosts...)
				if f.Layer != "" {
					layer = f.Layer
				}
				break
			}
		}
		t.Logf("%s: reported by the click itself: %v", name, inClick)
		if len(tabs.Tabs) != 1 || tabs.Tabs[0].URL != s.A+"/start" {
			t.Fatalf("%s: the redirected popup stayed: %+v", name, tabs)
		}
		if closed != 1 || blocked != 1 || len(hosts) != 1 || hosts[0] != host(s.B) || layer != "workspace" ||
			strings.Count(summaries, "popup to "+host(s.B)+" was closed") != 1 || !strings.Contains(summaries, "workspace layer") {
			t.Fatalf("%s: closed %d, blocked %d %v, layer %q, summaries %q", name, closed, blocked, hosts, layer, summaries)
		}
	}
	s.mustReceiveNothing(t)
}

// policyHarness drives a pipeline of its own authority for one session.
type policyHarness struct {
	t       testing.TB
	pipe    *pipeline.Pipeline
	session string
}

func (h *policyHarness) call(tool, args string) pipeline.Result {
	h.t.Helper()
	r := h.pipe.Call(context.Background(), h.session, tool, []byte(args), nil)
	checkEnvelope(h.t, tool, r)
	return r
}

func (h *policyHarness) must(tool, args string) pipeline.Result {
	h.t.Helper()
	r := h.call(tool, args)
	if r.Envelope.Status != surface.StatusSucceeded {
		h.t.Fatalf("%s %s: %s", tool, args, r.JSON)
	}
	return r
}

func (h *policyHarness) facts(r pipeline.Result, v any) {
	h.t.Helper()
	if err := json.Unmarshal(r.Envelope.Facts, v); err != nil {
		h.t.Fatal(err)
	}
}

// tabsClosed is the popups_closed a result carries.
func tabsClosed(r pipeline.Result) int {
	var f blockedFacts
	_ = json.Unmarshal(r.Envelope.Facts, &f)
	return f.PopupsClosed
}
