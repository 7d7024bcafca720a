package tools

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func (h *harness) diagnose(args string) (surface.BrowserDiagnoseFacts, string) {
	h.t.Helper()
	r := h.must("browser_diagnose", args)
	var f surface.BrowserDiagnoseFacts
	h.facts(r, &f)
	// The sentence names the number of entries the facts carry.
	n := len(f.Entries)
	if !strings.Contains(r.Envelope.Summary, " "+strconv.Itoa(n)+" ") {
		h.t.Fatalf("summary %q does not name the %d entries", r.Envelope.Summary, n)
	}
	if !strings.HasPrefix(f.NextCursor, "cur_") {
		h.t.Fatalf("next_cursor %q", f.NextCursor)
	}
	if strings.Contains(strings.ToLower(string(r.JSON)), "secret") {
		h.t.Fatalf("a query string reached the envelope: %s", r.JSON)
	}
	return f, r.Envelope.Summary
}

// diagnoseUntil polls until ok holds for the read (evidence arrives with
// the page's events, a little after the page did its work).
func (h *harness) diagnoseUntil(args string, ok func(surface.BrowserDiagnoseFacts) bool) surface.BrowserDiagnoseFacts {
	h.t.Helper()
	end := time.Now().Add(10 * time.Second)
	for {
		f, _ := h.diagnose(args)
		if ok(f) {
			return f
		}
		if time.Now().After(end) {
			h.t.Fatalf("browser_diagnose %s never showed what was expected: %+v", args, dump(f.Entries))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func dump(es []*surface.Evidence) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(e.Kind + "/" + e.Level + "/" + strconv.Itoa(e.Status) + "/" + e.Host + " " + strconv.Quote(e.Text) + "\n")
	}
	return b.String()
}

func find(es []*surface.Evidence, kind, text string) *surface.Evidence {
	for _, e := range es {
		if e.Kind == kind && strings.Contains(e.Text, text) {
			return e
		}
	}
	return nil
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func noisyPage(closed int, other string) string {
	// A data: icon: no favicon request lands between two reads of a test.
	return `<title>Noisy</title><link rel="icon" href="data:,"><h1>Noisy</h1><script>
console.log('plain-log-line', 42);
console.error('bad-thing happened', {a: 1});
console.warn('warned-thing');
fetch('/ok.json?secret=1#frag');
fetch('/missing?secret=1');
fetch('http://127.0.0.1:` + strconv.Itoa(closed) + `/gone?secret=1', {mode: 'no-cors'}).catch(function () {});
` + other + `
setTimeout(function () { throw new Error('kaboom-exception'); }, 0);
</script>`
}

func diagnoseSite(t *testing.T, other string) (string, func(string) string) {
	closed := closedPort(t)
	srv := actSite(t, map[string]string{
		"/":      `<title>Quiet</title><link rel="icon" href="data:,"><h1>Quiet</h1><script>console.error('before-tracking');</script>`,
		"/noisy": noisyPage(closed, other),
	}, map[string]http.HandlerFunc{
		"/ok.json": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"ok":true}`))
		},
		"/favicon.ico": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) },
	})
	return srv.URL, func(p string) string { return srv.URL + p }
}

func TestDiagnoseProblemsAndAll(t *testing.T) {
	h := newHarness(t)
	base, at := diagnoseSite(t, "")
	host := hostOf(base)
	nav := h.open(at("/"))

	// The first call starts tracking; what the page did before is not there.
	first, sum := h.diagnose(`{"detail":"all"}`)
	if !first.TrackingStarted || len(first.Entries) != 0 || first.Tab != nav.Tab || first.Evicted != 0 || first.Truncated {
		t.Fatalf("first call: %+v", first)
	}
	if !strings.Contains(sum, "now") || !strings.Contains(sum, nav.Tab) {
		t.Fatalf("first summary %q", sum)
	}
	again, _ := h.diagnose(`{}`)
	if again.TrackingStarted {
		t.Fatal("a second call started tracking again")
	}

	h.open(at("/noisy"))
	probs := h.diagnoseUntil(`{}`, func(f surface.BrowserDiagnoseFacts) bool {
		return find(f.Entries, "exception", "kaboom") != nil && find(f.Entries, "request", "/missing") != nil && find(f.Entries, "request", "/gone") != nil
	})
	if e := find(probs.Entries, "console", "bad-thing happened"); e == nil || e.Level != "error" {
		t.Fatalf("console.error: %s", dump(probs.Entries))
	}
	if e := find(probs.Entries, "console", "warned-thing"); e == nil || e.Level != "warning" {
		t.Fatalf("console.warn: %s", dump(probs.Entries))
	}
	if e := find(probs.Entries, "exception", "kaboom"); e.Level != "error" || e.Text != "Error: kaboom-exception" {
		t.Fatalf("exception: %+v", e)
	}
	if e := find(probs.Entries, "request", "/missing"); e.Status != 404 || e.Host != host || e.Text != "GET /missing" || e.Level != "error" {
		t.Fatalf("404: %+v", e)
	}
	if e := find(probs.Entries, "request", "/gone"); e.Level != "failed" || e.Text != "GET /gone" || !strings.HasPrefix(e.Host, "127.0.0.1:") {
		t.Fatalf("refused connection: %+v", e)
	}
	for _, e := range probs.Entries {
		if strings.Contains(e.Text, "plain-log-line") || strings.Contains(e.Text, "/ok.json") || strings.Contains(e.Text, "before-tracking") {
			t.Fatalf("problems carry an ordinary entry or an earlier one: %s", dump(probs.Entries))
		}
	}
	if probs.TrackingStarted || probs.Truncated || probs.HostFiltered != 0 {
		t.Fatalf("problems facts: %+v", probs)
	}

	all := h.diagnoseUntil(`{"detail":"all","limit":200}`, func(f surface.BrowserDiagnoseFacts) bool {
		return find(f.Entries, "request", "/ok.json") != nil
	})
	if e := find(all.Entries, "console", "plain-log-line"); e == nil || e.Level != "log" || e.Text != "plain-log-line 42" {
		t.Fatalf("console.log under all: %s", dump(all.Entries))
	}
	if e := find(all.Entries, "request", "/ok.json"); e.Status != 200 || e.Level != "ok" || e.Text != "GET /ok.json" {
		t.Fatalf("200 under all: %+v", e)
	}
	if find(all.Entries, "request", "GET /noisy") == nil || find(all.Entries, "console", "before-tracking") != nil {
		t.Fatalf("all: %s", dump(all.Entries))
	}
	if len(all.Entries) <= len(probs.Entries) {
		t.Fatalf("all (%d) is not more than problems (%d)", len(all.Entries), len(probs.Entries))
	}

	// Sources.
	con, _ := h.diagnose(`{"source":"console","detail":"all","limit":200}`)
	net, _ := h.diagnose(`{"source":"network","detail":"all","limit":200}`)
	for _, e := range con.Entries {
		if e.Kind == "request" {
			t.Fatalf("console source carries a request: %s", dump(con.Entries))
		}
	}
	for _, e := range net.Entries {
		if e.Kind != "request" || e.Host == "" {
			t.Fatalf("network source carries %s", dump(net.Entries))
		}
	}
	if len(con.Entries)+len(net.Entries) != len(all.Entries) {
		t.Fatalf("console %d + network %d != all %d", len(con.Entries), len(net.Entries), len(all.Entries))
	}

	// Match: case-insensitive literal.
	m, _ := h.diagnose(`{"match":"KABOOM","detail":"all"}`)
	if len(m.Entries) != 1 || m.Entries[0].Kind != "exception" {
		t.Fatalf("match: %s", dump(m.Entries))
	}
	if m, _ := h.diagnose(`{"match":"a.b*"}`); len(m.Entries) != 0 {
		t.Fatalf("match is literal: %s", dump(m.Entries))
	}

	// Pagination: pages of two give the whole list, in order; a cursor
	// read twice gives the same page (reads are non-destructive).
	var paged []*surface.Evidence
	cursor := ""
	for i := 0; ; i++ {
		args := `{"detail":"all","limit":2`
		if cursor != "" {
			args += `,"after":"` + cursor + `"`
		}
		args += `}`
		p, _ := h.diagnose(args)
		p2, _ := h.diagnose(args)
		if dump(p.Entries) != dump(p2.Entries) || p.NextCursor != p2.NextCursor {
			t.Fatalf("the same cursor read twice differs:\n%s\n%s", dump(p.Entries), dump(p2.Entries))
		}
		paged = append(paged, p.Entries...)
		if len(p.Entries) > 2 || i > 100 {
			t.Fatalf("page %d: %+v", i, p)
		}
		if !p.Truncated {
			if len(p.Entries) == 0 && p.NextCursor != cursor && cursor != "" {
				t.Fatalf("an empty page moved the cursor from %s to %s", cursor, p.NextCursor)
			}
			break
		}
		if len(p.Entries) != 2 {
			t.Fatalf("truncated page of %d", len(p.Entries))
		}
		cursor = p.NextCursor
	}
	if len(paged) < len(all.Entries) || dump(paged[:len(all.Entries)]) != dump(all.Entries) {
		t.Fatalf("paged:\n%s\nwhole:\n%s", dump(paged), dump(all.Entries))
	}
	// After the end: nothing, and the cursor stays.
	end, _ := h.diagnose(`{"detail":"all","after":"` + all.NextCursor + `"}`)
	if len(end.Entries) != 0 || end.NextCursor != all.NextCursor && len(paged) == len(all.Entries) {
		t.Fatalf("after the end: %+v", end)
	}
	h.refuse("browser_diagnose", `{"after":"cur_x1"}`, surface.ReasonInvalidArguments)
}

func TestDiagnoseHostFiltered(t *testing.T) {
	h := newHarness(t)
	other := actSite(t, nil, map[string]http.HandlerFunc{"/other": func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}})
	port := other.URL[strings.LastIndexByte(other.URL, ':')+1:]
	_, at := diagnoseSite(t, `fetch('http://localhost:`+port+`/other?secret=2', {mode: 'no-cors'}).catch(function () {});`)
	h.open(at("/"))
	h.diagnose(`{}`)
	h.open(at("/noisy"))
	h.diagnoseUntil(`{"source":"network"}`, func(f surface.BrowserDiagnoseFacts) bool {
		return find(f.Entries, "request", "/other") != nil && find(f.Entries, "request", "/missing") != nil
	})
	f, sum := h.diagnose(`{"source":"network","restrict_hosts":["127.0.0.1"]}`)
	if f.HostFiltered < 1 || find(f.Entries, "request", "/other") != nil || find(f.Entries, "request", "/missing") == nil {
		t.Fatalf("restricted read: %+v\n%s", f, dump(f.Entries))
	}
	if !strings.Contains(sum, "withheld") {
		t.Fatalf("summary %q", sum)
	}
}

func TestDiagnoseRecreatedTabStartsAgain(t *testing.T) {
	h := newHarness(t)
	_, at := diagnoseSite(t, "")
	nav := h.open(at("/"))
	if f, _ := h.diagnose(`{}`); !f.TrackingStarted {
		t.Fatal("first call did not start tracking")
	}
	h.must("browser_find", `{"text":"x","tab":"`+nav.Tab+`"}`) // the page's world
	s := h.actSess()
	tab, err := s.ws.Resolve(t.Context(), nav.Tab)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := keptEvidence.Get(tab)
	if !ok {
		t.Fatal("no collector for the tab")
	}
	if _, ok := keptWorld.Get(tab); !ok || tab.KeptCount() != 2 {
		t.Fatalf("the live tab keeps %d kinds of state, want its world and its collector", tab.KeptCount())
	}
	h.must("browser_tabs", `{"action":"close","tab":"`+nav.Tab+`"}`)
	// Closing the tab freed what the session kept for it: nothing of it is
	// held by the session (it has no map of tabs), and the tab keeps nothing.
	if _, ok := keptWorld.Get(tab); ok || tab.KeptCount() != 0 {
		t.Fatalf("a closed tab still keeps %d kinds of state", tab.KeptCount())
	}
	// The collector's subscription ends with the page.
	end := time.Now().Add(5 * time.Second)
	for !c.Ended() {
		if time.Now().After(end) {
			t.Fatal("the collector outlived its tab")
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.must("browser_navigate", `{"url":`+quote(at("/"))+`,"tab":"`+nav.Tab+`"}`)
	if f, _ := h.diagnose(`{"tab":"` + nav.Tab + `"}`); !f.TrackingStarted || len(f.Entries) != 0 {
		t.Fatalf("recreated tab: %+v", f)
	}
}

// TestDiagnoseReadsWhatThePageAlreadySaw: a read reflects every event the
// browser emitted before the call. The page shows its two fetches' statuses
// (it has read their responses, not their bodies); the very next read lists
// both, with those statuses, without waiting or polling.
func TestDiagnoseReadsWhatThePageAlreadySaw(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{
		"/": `<title>Quiet</title><p>quiet</p>`,
		"/f": `<title>Fetches</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/s.css"><p id="out"></p><script>
Promise.all([fetch('/a.json'), fetch('/b.json')]).then(function (rs) {
  document.getElementById('out').textContent = 'statuses ' + rs.map(function (r) { return r.status; }).join(',');
});
</script>`,
	}, map[string]http.HandlerFunc{
		"/s.css": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/css")
			w.Write([]byte("p{}"))
		},
		"/a.json": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"a":1}`)) },
		"/b.json": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"b":1}`))
		},
	})
	h.open(srv.URL + "/")
	if f, _ := h.diagnose(`{}`); !f.TrackingStarted {
		t.Fatal("tracking did not start")
	}
	h.open(srv.URL + "/f")
	h.must("browser_wait", `{"condition":"text_present","value":"statuses 200,404"}`)
	f, _ := h.diagnose(`{"detail":"all"}`)
	a, b := find(f.Entries, "request", "GET /a.json"), find(f.Entries, "request", "GET /b.json")
	if a == nil || b == nil || a.Status != 200 || a.Level != "ok" || b.Status != 404 || b.Level != "error" {
		t.Fatalf("the fetches the page already saw are missing:\n%s", dump(f.Entries))
	}
	if find(f.Entries, "request", "GET /f") == nil || find(f.Entries, "request", "GET /s.css") == nil {
		t.Fatalf("document and stylesheet:\n%s", dump(f.Entries))
	}
}
