package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// boundarySite is a local site on two loopback hosts: A on 127.0.0.1, which
// calls may reach (restrict_hosts ["127.0.0.1"]), and B on 127.0.0.2, which
// they may not. B logs every request, so a test proves B received nothing.
type boundarySite struct {
	A, B  string // http://host:port
	mu    sync.Mutex
	bLog  []string
	pages map[string]string
	bPage map[string]string
}

func newBoundarySite(t testing.TB, pages, bPages map[string]string) *boundarySite {
	t.Helper()
	s := &boundarySite{pages: pages, bPage: bPages}
	la, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lb, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	s.A, s.B = "http://"+la.Addr().String(), "http://"+lb.Addr().String()
	serve := func(pages map[string]string, log bool) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if log {
				s.mu.Lock()
				s.bLog = append(s.bLog, r.Method+" "+r.URL.RequestURI())
				s.mu.Unlock()
			}
			if r.URL.Path == "/slowredirect" {
				// The redirect comes late: whatever the browser announces
				// about the navigation meanwhile arrives before the hop.
				time.Sleep(300 * time.Millisecond)
				http.Redirect(w, r, s.B+"/secret/landing?token=hunter2", http.StatusFound)
				return
			}
			if r.URL.Path == "/redirect" {
				http.Redirect(w, r, s.B+"/secret/landing?token=hunter2", http.StatusFound)
				return
			}
			body, ok := pages[r.URL.Path]
			if !ok {
				body = "<title>Page " + r.URL.Path + "</title><p>" + r.URL.Path + "</p>"
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			// A data: icon: the browser fetches a page's favicon after its load,
			// late enough to land in the log of a later, denied step.
			fmt.Fprint(w, `<link rel="icon" href="data:,">`+strings.NewReplacer("{A}", s.A, "{B}", s.B).Replace(body))
		})
	}
	sa := &http.Server{Handler: serve(pages, false)}
	sb := &http.Server{Handler: serve(bPages, true)}
	go sa.Serve(la)
	go sb.Serve(lb)
	t.Cleanup(func() { sa.Close(); sb.Close() })
	return s
}

func (s *boundarySite) received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bLog...)
}

func (s *boundarySite) mustReceiveNothing(t testing.TB) {
	t.Helper()
	if got := s.received(); len(got) != 0 {
		t.Fatalf("the denied host received %v", got)
	}
}

const onlyA = `"restrict_hosts":["127.0.0.1"]`

func host(u string) string { return strings.TrimPrefix(u, "http://") }

// blockedFacts are the carried boundary facts of any result.
type blockedFacts struct {
	Reason          string   `json:"reason"`
	Host            string   `json:"host"`
	Layer           string   `json:"layer"`
	RequestsBlocked int      `json:"requests_blocked"`
	BlockedHosts    []string `json:"blocked_hosts"`
	PopupsClosed    int      `json:"popups_closed"`
	OpenedTabs      []string `json:"opened_tabs"`
	URL             string   `json:"url"`
	Landing         *struct {
		URL string `json:"url"`
	} `json:"landing"`
}

func TestBoundaryNavigateRedirect(t *testing.T) {
	s := newBoundarySite(t, nil, nil)
	h := newHarness(t)
	nav := h.must("browser_navigate", `{"url":`+quote(s.A+"/start")+`}`)
	var nf surface.BrowserNavigateFacts
	h.facts(nav, &nf)
	r := h.call("browser_navigate", `{"url":`+quote(s.A+"/redirect")+`,`+onlyA+`}`)
	var f blockedFacts
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusBlocked || r.Envelope.Effect != surface.EffectNone || f.Reason != "host_denied" ||
		f.Host != host(s.B) || f.Layer != "restriction" || f.RequestsBlocked != 1 {
		t.Fatalf("a stopped redirect: %s", r.JSON)
	}
	if strings.Contains(string(r.JSON), "hunter2") || strings.Contains(string(r.JSON), "secret") {
		t.Fatalf("the stopped URL's path reached the result: %s", r.JSON)
	}
	s.mustReceiveNothing(t)
	l := h.must("browser_tabs", `{"action":"list"}`)
	var tabs surface.BrowserTabsFacts
	h.facts(l, &tabs)
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].URL != s.A+"/start" {
		t.Fatalf("the tab left its page: %s", l.JSON)
	}
	// A new tab whose first navigation is stopped is not kept.
	r = h.call("browser_navigate", `{"url":`+quote(s.A+"/redirect")+`,"new_tab":true,`+onlyA+`}`)
	f = blockedFacts{}
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusBlocked || r.Envelope.Effect != surface.EffectNone || strings.Contains(string(r.Envelope.Facts), `"tab"`) {
		t.Fatalf("a new tab's stopped navigation: %s", r.JSON)
	}
	l = h.must("browser_tabs", `{"action":"list"}`)
	tabs = surface.BrowserTabsFacts{}
	h.facts(l, &tabs)
	if len(tabs.Tabs) != 1 {
		t.Fatalf("the stopped new tab was kept: %s", l.JSON)
	}
	s.mustReceiveNothing(t)
}

func TestBoundaryActionsLandingStopped(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/start": `<title>Start</title><body style="margin:0">
<a href="{B}/linked?token=1" style="display:block;height:60px">Leave by link</a>
<form method="post" action="{B}/post"><input name="q" value="v"><button>Send form</button></form>
<button onclick="window.open('{B}/popup?token=1')">Open popup</button>
<button onclick="window.open('/child')">Open own</button>
</body>`,
	}, nil)
	h := newHarness(t)
	h.must("browser_navigate", `{"url":`+quote(s.A+"/start")+`}`)
	for _, c := range []struct{ name, summary string }{
		{"Leave by link", "navigation to " + host(s.B) + " was stopped"},
		{"Send form", "navigation to " + host(s.B) + " was stopped"},
		{"Open popup", "popup to " + host(s.B) + " was closed"},
	} {
		r := h.call("browser_click", `{"selector":{"name":`+quote(c.name)+`},`+onlyA+`}`)
		var f blockedFacts
		h.facts(r, &f)
		// The click did what was asked (succeeded, applied); what it caused was
		// stopped, and the result says so with the host and the layer.
		if r.Envelope.Status != surface.StatusSucceeded || r.Envelope.Effect != surface.EffectApplied ||
			!strings.Contains(r.Envelope.Summary, c.summary) || !strings.Contains(r.Envelope.Summary, "restriction layer") ||
			f.RequestsBlocked != 1 || len(f.BlockedHosts) != 1 || f.BlockedHosts[0] != host(s.B) || f.Layer != "restriction" ||
			f.Landing != nil || len(f.OpenedTabs) != 0 {
			t.Fatalf("%s: %s", c.name, r.JSON)
		}
		if c.name == "Open popup" && f.PopupsClosed != 1 {
			t.Fatalf("the closed popup is not counted: %s", r.JSON)
		}
	}
	s.mustReceiveNothing(t)
	// A script's location change, and one from browser_execute itself.
	r := h.call("browser_execute", `{"script":`+quote(`location.href = "`+s.B+`/scripted"; 1`)+`,`+onlyA+`}`)
	var f blockedFacts
	h.facts(r, &f)
	if f.RequestsBlocked != 1 || !strings.Contains(r.Envelope.Summary, "was stopped") || f.Landing != nil {
		t.Fatalf("execute: %s", r.JSON)
	}
	s.mustReceiveNothing(t)
	// A popup of an allowed host is still adopted.
	r = h.must("browser_click", `{"selector":{"name":"Open own"},`+onlyA+`}`)
	f = blockedFacts{}
	h.facts(r, &f)
	if len(f.OpenedTabs) != 1 {
		t.Fatalf("an allowed popup was not adopted: %s", r.JSON)
	}
	l := h.must("browser_tabs", `{"action":"list"}`)
	var tabs surface.BrowserTabsFacts
	h.facts(l, &tabs)
	if len(tabs.Tabs) != 2 || tabs.Tabs[0].URL != s.A+"/start" {
		t.Fatalf("tabs: %s", l.JSON)
	}
}

func TestBoundaryHistoryAndFrames(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/framed": `<title>Framed</title><iframe src="{B}/frame?token=1"></iframe>`,
	}, nil)
	h := newHarness(t)
	// Unrestricted, the tab visits B; then A.
	h.must("browser_navigate", `{"url":`+quote(s.B+"/visited")+`}`)
	h.must("browser_navigate", `{"url":`+quote(s.A+"/start")+`}`)
	before := len(s.received())
	r := h.call("browser_history", `{"action":"back",`+onlyA+`}`)
	var f blockedFacts
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusBlocked || r.Envelope.Effect != surface.EffectNone || f.Reason != "host_denied" || f.Host != host(s.B) || f.Layer != "restriction" {
		t.Fatalf("a stopped history move: %s", r.JSON)
	}
	if got := s.received(); len(got) != before {
		t.Fatalf("the denied host received %v", got[before:])
	}
	// A frame of a denied host never loads.
	r = h.must("browser_navigate", `{"url":`+quote(s.A+"/framed")+`,`+onlyA+`}`)
	f = blockedFacts{}
	h.facts(r, &f)
	if f.RequestsBlocked != 1 || len(f.BlockedHosts) != 1 || f.BlockedHosts[0] != host(s.B) {
		t.Fatalf("a denied frame: %s", r.JSON)
	}
	if got := s.received(); len(got) != before {
		t.Fatalf("the denied host received %v", got[before:])
	}
}

// TestBoundaryGovernedURLs: a tab on a host outside the call's authority
// shows only its origin, never its path, query or title, wherever a result
// would name it.
func TestBoundaryGovernedURLs(t *testing.T) {
	s := newBoundarySite(t, nil, map[string]string{"/private/page": `<title>Private title</title><p>private text</p>`})
	h := newHarness(t)
	h.must("browser_navigate", `{"url":`+quote(s.B+"/private/page?token=hunter2")+`}`)
	leak := func(r pipeline.Result) bool {
		j := string(r.JSON)
		return strings.Contains(j, "private") || strings.Contains(j, "Private") || strings.Contains(j, "hunter2")
	}
	l := h.must("browser_tabs", `{"action":"list",`+onlyA+`}`)
	var tabs surface.BrowserTabsFacts
	h.facts(l, &tabs)
	if leak(l) || len(tabs.Tabs) != 1 || tabs.Tabs[0].URL != s.B+"/" || tabs.Tabs[0].Title != "" || !strings.Contains(l.Envelope.Summary, "withheld") {
		t.Fatalf("tabs list: %s", l.JSON)
	}
	for _, c := range []struct{ tool, args string }{
		{"browser_read", `{` + onlyA + `}`},
		{"browser_inspect", `{` + onlyA + `}`},
		{"browser_find", `{"text":"private",` + onlyA + `}`},
		{"browser_diagnose", `{` + onlyA + `}`},
		{"browser_history", `{"action":"reload",` + onlyA + `}`},
		{"browser_execute", `{"script":"1",` + onlyA + `}`},
		{"browser_click", `{"selector":{"name":"x"},` + onlyA + `}`},
	} {
		r := h.call(c.tool, c.args)
		if leak(r) || r.Envelope.Status != surface.StatusBlocked || !strings.Contains(string(r.Envelope.Facts), `"host_denied"`) {
			t.Fatalf("%s on a denied page: %s", c.tool, r.JSON)
		}
	}
	// Unrestricted, the same calls name the page.
	l = h.must("browser_tabs", `{"action":"list"}`)
	if !leak(l) {
		t.Fatalf("the unrestricted list withholds: %s", l.JSON)
	}
}

// TestCrossOriginFrameFindAndClick: with site isolation on, a frame of
// another site runs in its own process; browser_find sees its controls and
// browser_click clicks them through the frame's own target, and the frame's
// host is checked like a page's.
func TestCrossOriginFrameFindAndClick(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/outer": `<title>Outer</title><body style="margin:0"><div style="height:900px">tall</div>
<iframe src="{B}/inner" style="width:400px;height:200px;border:10px solid #000"></iframe></body>`,
	}, map[string]string{
		"/inner": `<title>Inner</title><body style="margin:0"><div style="height:60px"></div>
<button onclick="this.textContent='Pressed inside'" style="width:160px;height:40px">Inner button</button></body>`,
	})
	h := newHarness(t)
	h.must("browser_navigate", `{"url":`+quote(s.A+"/outer")+`}`)
	var found surface.BrowserFindFacts
	// The frame attaches and announces its URL as it loads.
	for i := 0; ; i++ {
		r := h.must("browser_find", `{"text":"Inner button"}`)
		found = surface.BrowserFindFacts{}
		h.facts(r, &found)
		if len(found.Matches) > 0 || i == 50 {
			break
		}
		h.call("browser_wait", `{"condition":"selector_present","selector":{"name":"Inner button"},"timeout_ms":500}`)
	}
	if len(found.Matches) != 1 || found.Matches[0].Name != "Inner button" {
		t.Fatalf("find in a cross-origin frame: %+v", found)
	}
	r := h.must("browser_click", `{"target":`+quote(found.Matches[0].Target)+`}`)
	var cf surface.BrowserClickFacts
	h.facts(r, &cf)
	if !cf.Activated || !strings.Contains(r.Envelope.Summary, `"Inner button"`) {
		t.Fatalf("click in a cross-origin frame: %s", r.JSON)
	}
	after := h.must("browser_find", `{"text":"Pressed inside"}`)
	var af surface.BrowserFindFacts
	h.facts(after, &af)
	if len(af.Matches) != 1 {
		t.Fatalf("the frame's button did not run its handler: %s", after.JSON)
	}
	// The frame's host is checked like a page's: outside the authority, the
	// frame is neither perceived nor acted in.
	r = h.must("browser_find", `{"text":"Pressed inside",`+onlyA+`}`)
	var rf surface.BrowserFindFacts
	h.facts(r, &rf)
	if len(rf.Matches) != 0 {
		t.Fatalf("a denied host's frame was perceived: %s", r.JSON)
	}
	r = h.call("browser_click", `{"target":`+quote(found.Matches[0].Target)+`,`+onlyA+`}`)
	if r.Envelope.Status == surface.StatusSucceeded {
		t.Fatalf("a denied host's frame was acted in: %s", r.JSON)
	}
}

// TestBoundaryAllRequests: with hosts.requests "all" every request a page
// makes to another host is failed in the browser, sockets and workers
// included, and counted in the facts and in browser_diagnose.
func TestBoundaryAllRequests(t *testing.T) {
	s := newBoundarySite(t, map[string]string{
		"/busy": `<title>Busy</title><script>
const B = "{B}".replace("http://", "");
fetch("http://" + B + "/fetch").catch(() => {});
navigator.sendBeacon("http://" + B + "/beacon", "x");
new EventSource("http://" + B + "/events");
try { new WebSocket("ws://" + B + "/socket"); } catch (e) {}
new Worker(URL.createObjectURL(new Blob(["fetch('http://" + B + "/worker').catch(() => {})"])));
</script><img src="{B}/img.png">`,
	}, nil)
	dir := t.TempDir()
	p := filepath.Join(dir, "policy.cue")
	if err := os.WriteFile(p, []byte(`hosts: {allow: ["127.0.0.1"], requests: "all"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ld, err := governance.Load(governance.Config{Files: []governance.File{{Layer: "workspace", Path: p}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pipe := pipeline.New(pipeline.Options{Handler: testHandler, Authority: ld.Current})
	session := strings.ReplaceAll(t.Name(), "/", "_")
	t.Cleanup(func() { testHandler.Release(context.Background(), session) })
	call := func(tool, args string) pipeline.Result {
		r := pipe.Call(context.Background(), session, tool, []byte(args), nil)
		checkEnvelope(t, tool, r)
		return r
	}
	if r := call("browser_navigate", `{"url":`+quote(s.A+"/start")+`}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatal(string(r.JSON))
	}
	if r := call("browser_diagnose", `{}`); r.Envelope.Status != surface.StatusSucceeded {
		t.Fatal(string(r.JSON))
	}
	total := 0
	r := call("browser_navigate", `{"url":`+quote(s.A+"/busy")+`}`)
	var f blockedFacts
	_ = json.Unmarshal(r.Envelope.Facts, &f)
	total += f.RequestsBlocked
	// The page's requests go on after the load: wait until all six were stopped.
	for i := 0; total < 6 && i < 100; i++ {
		r = call("browser_wait", `{"condition":"duration","value":50}`)
		f = blockedFacts{}
		_ = json.Unmarshal(r.Envelope.Facts, &f)
		total += f.RequestsBlocked
	}
	if total != 6 {
		t.Fatalf("requests blocked: %d (last %s)", total, r.JSON)
	}
	s.mustReceiveNothing(t)
	d := call("browser_diagnose", `{"detail":"all","source":"network"}`)
	var df surface.BrowserDiagnoseFacts
	_ = json.Unmarshal(d.Envelope.Facts, &df)
	if df.HostFiltered < 4 || strings.Contains(string(d.JSON), host(s.B)) {
		t.Fatalf("diagnose does not withhold and count the blocked requests: %s", d.JSON)
	}
}
