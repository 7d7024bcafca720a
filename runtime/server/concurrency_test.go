package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/conformance/schemacheck"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

const (
	hungTabs    = 4
	stuckPerTab = 25 // a navigate that never gets headers, then 24 waits queued behind it
	stuckCalls  = hungTabs * stuckPerTab
	stuckFrom   = 1000 // ids of the stuck calls
	rounds      = 5    // measurements of the fast calls while the stuck ones hang
)

// scenario is one MCP session driven through the real server and Chromium,
// over stdio or HTTP.
type scenario interface {
	// call sends a tools/call (or, with tool "", a ping) and returns when it
	// was sent; answer waits for its answer.
	call(id int, tool, args string) time.Time
	answer(id int) answer
	answeredAmong(from, n int) []int
	cancel(ids []int)
	session() string
}

// openTabs opens n tabs on the healthy page and returns their handles.
func openTabs(t *testing.T, sc scenario, site string, n, firstID int) []string {
	t.Helper()
	var tabs []string
	for i := range n {
		sc.call(firstID+i, "browser_navigate", fmt.Sprintf(`{"url":%q,"new_tab":true}`, site+"/page?tab="+fmt.Sprint(i)))
		_, env := decodeResult(t, sc.answer(firstID+i).line)
		if env.Status != "succeeded" || env.Facts.Tab == "" {
			t.Fatalf("open tab %d: %+v", i, env)
		}
		tabs = append(tabs, env.Facts.Tab)
	}
	return tabs
}

// figures are the latencies of the fast calls, per call kind.
type figures map[string][]time.Duration

func (f figures) String() string {
	var b strings.Builder
	for _, k := range []string{"browser_read (healthy tab)", "policy_explain", "ping", "browser_tabs list"} {
		ds := slices.Clone(f[k])
		slices.Sort(ds)
		if len(ds) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n  %-27s median %6.1f ms  max %6.1f ms  (%d runs)", k, ms(ds[len(ds)/2]), ms(ds[len(ds)-1]), len(ds))
	}
	return b.String()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// stuckThenFast: 100 calls stuck on 4 hung tabs (each: a navigate to a page
// that never sends headers, then 24 waits for text that never appears, all
// with timeout 30000), then a read of a healthy tab, policy_explain, ping
// and browser_tabs list, five times. Each must answer while every stuck call
// still has none (by construction the stuck ones cannot end for 30 s). Then
// the session is filled to session_calls and the next call is refused busy
// at once; then every stuck call is cancelled and none is answered.
func stuckThenFast(t *testing.T, s *Server, sc scenario, site *hostile) figures {
	tabs := openTabs(t, sc, site.URL, hungTabs+1, 10)
	healthy, hung := tabs[hungTabs], tabs[:hungTabs]
	id := stuckFrom
	for i, tab := range hung {
		sc.call(id, "browser_navigate", fmt.Sprintf(`{"url":%q,"tab":%q,"timeout_ms":30000}`, site.URL+"/hang?tab="+fmt.Sprint(i), tab))
		id++
	}
	for range hungTabs {
		select {
		case <-site.arrived:
		case <-time.After(30 * time.Second):
			t.Fatal("the hung navigations never reached the page")
		}
	}
	for _, tab := range hung {
		for range stuckPerTab - 1 {
			sc.call(id, "browser_wait", fmt.Sprintf(`{"condition":"text_present","value":"never there","tab":%q,"timeout_ms":30000}`, tab))
			id++
		}
	}
	waitInFlight(t, s, sc.session(), stuckCalls)

	figs := figures{}
	next := 100
	for range rounds {
		fast := []struct {
			name, tool, args string
		}{
			{"browser_read (healthy tab)", "browser_read", fmt.Sprintf(`{"tab":%q}`, healthy)},
			{"policy_explain", "policy_explain", `{}`},
			{"ping", "", ""},
			{"browser_tabs list", "browser_tabs", `{"action":"list"}`},
		}
		sent := map[int]time.Time{}
		for i, f := range fast {
			sent[next+i] = sc.call(next+i, f.tool, f.args)
		}
		for i, f := range fast {
			a := sc.answer(next + i)
			figs[f.name] = append(figs[f.name], a.at.Sub(sent[next+i]))
			if f.tool == "browser_read" {
				if _, env := decodeResult(t, a.line); env.Status != "succeeded" || !strings.Contains(env.Facts.Text, "The text a read returns") {
					t.Fatalf("read of the healthy tab: %+v", env)
				}
			}
			if f.tool == "policy_explain" {
				if _, env := decodeResult(t, a.line); env.Status != "succeeded" {
					t.Fatalf("policy_explain: %+v", env)
				}
			}
		}
		if done := sc.answeredAmong(stuckFrom, stuckCalls); len(done) > 0 {
			t.Fatalf("stuck calls %v answered before the fast ones were measured", done)
		}
		next += len(fast)
	}

	// Fill the session to the bound; the next call is refused busy at once.
	for _, tab := range slices.Repeat(hung, (surface.SessionCallsMax-stuckCalls+hungTabs-1)/hungTabs)[:surface.SessionCallsMax-stuckCalls] {
		sc.call(id, "browser_wait", fmt.Sprintf(`{"condition":"text_present","value":"never there","tab":%q,"timeout_ms":30000}`, tab))
		id++
	}
	waitInFlight(t, s, sc.session(), surface.SessionCallsMax)
	sc.call(next, "policy_explain", `{}`)
	res, env := decodeResult(t, sc.answer(next).line)
	if err := schemacheck.Envelope("policy_explain", res.StructuredContent); err != nil {
		t.Fatalf("busy envelope breaks the output schema: %v\n%s", err, res.StructuredContent)
	}
	if !res.IsError || env.Status != string(surface.ReasonStatus[surface.ReasonBusy]) || env.Facts.Reason != "busy" ||
		env.Facts.Limit != fmt.Sprint(surface.SessionCallsMax) || env.Effect != "none" || !env.RepeatSafe || len(env.NextSteps) != 1 {
		t.Fatalf("call past session_calls: %s", res.StructuredContent)
	}
	t.Logf("at the bound: %s | next: %s", env.Summary, env.NextSteps[0])
	sc.call(next+1, "", "")
	sc.answer(next + 1)

	// Cancel every stuck call: none is answered, every slot comes back.
	var ids []int
	for i := stuckFrom; i < id; i++ {
		ids = append(ids, i)
	}
	sc.cancel(ids)
	waitInFlight(t, s, sc.session(), 0)
	sc.call(next+2, "policy_explain", `{}`)
	if _, env := decodeResult(t, sc.answer(next+2).line); env.Status != "succeeded" {
		t.Fatalf("after the cancellations: %+v", env)
	}
	if done := sc.answeredAmong(stuckFrom, id-stuckFrom); len(done) > 0 {
		t.Fatalf("cancelled calls %v were answered", done)
	}
	return figs
}

func waitInFlight(t *testing.T, s *Server, session string, n int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for s.Edge().InFlight(session) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d calls in flight, want %d", s.Edge().InFlight(session), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// stdioScenario drives ServeStdio over pipes.
type stdioScenario struct {
	p *peer
}

func (s stdioScenario) call(id int, tool, args string) time.Time {
	if tool == "" {
		return s.p.send(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id)
	}
	return s.p.send("%s", toolCall(id, tool, args))
}
func (s stdioScenario) answer(id int) answer            { return s.p.wait(id) }
func (s stdioScenario) answeredAmong(from, n int) []int { return s.p.answeredAmong(from, n) }
func (s stdioScenario) session() string                 { return mcpedge.StdioSession }
func (s stdioScenario) cancel(ids []int) {
	for _, id := range ids {
		s.p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"test"}}`, id)
	}
}

func TestStuckCallsDelayNothingStdio(t *testing.T) {
	l := launchChromium(t)
	site := hostileSite(t)
	s := newConnected(t, l)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- s.Edge().ServeStdio(context.Background(), inR, outW)
		_ = outW.Close()
	}()
	p := newPeer(t, inW, outR)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	p.wait(1)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	figs := stuckThenFast(t, s, stdioScenario{p}, site)
	t.Logf("stdio, %d calls stuck on %d hung tabs:%s", stuckCalls, hungTabs, figs)

	// The session ends with stdin: its tabs close.
	_ = inW.Close()
	if err := <-served; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	l.waitNoPage(t, site.URL)
}

// httpScenario drives one streamable HTTP session with raw POSTs; a stuck
// call is cancelled by ending its request, as streamable HTTP clients do.
type httpScenario struct {
	t       *testing.T
	url     string
	sid     string
	p       *peer // only its answer book
	cancels map[int]context.CancelFunc
}

func (h *httpScenario) call(id int, tool, args string) time.Time {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id)
	if tool != "" {
		body = toolCall(id, tool, args)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancels[id] = cancel
	at := time.Now()
	go func() {
		resp, b := post(ctx, h.url, h.sid, body)
		if resp == nil || resp.StatusCode != http.StatusOK {
			return // cancelled
		}
		line := strings.TrimSpace(b)
		if i := strings.LastIndex(line, "data: "); strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") && i >= 0 {
			line = strings.TrimSpace(line[i+len("data: "):])
		}
		h.p.mu.Lock()
		h.p.got[fmt.Sprint(id)] = answer{line: line, at: time.Now()}
		h.p.mu.Unlock()
		h.p.seen <- fmt.Sprint(id)
	}()
	return at
}
func (h *httpScenario) answer(id int) answer            { return h.p.wait(id) }
func (h *httpScenario) answeredAmong(from, n int) []int { return h.p.answeredAmong(from, n) }
func (h *httpScenario) session() string                 { return h.sid }
func (h *httpScenario) cancel(ids []int) {
	for _, id := range ids {
		h.cancels[id]()
	}
}

func post(ctx context.Context, url, session, body string) (*http.Response, string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func initHTTP(t *testing.T, url string) string {
	t.Helper()
	resp, body := post(context.Background(), url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if resp == nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %v %s", resp, body)
	}
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp, body := post(context.Background(), url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp == nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %v %s", resp, body)
	}
	return sid
}

func TestStuckCallsDelayNothingHTTP(t *testing.T) {
	l := launchChromium(t)
	site := hostileSite(t)
	s := newConnected(t, l)
	srv := httptest.NewServer(s.Edge().HTTPHandler(mcpedge.HTTPOptions{}))
	t.Cleanup(srv.Close)
	url := srv.URL + mcpedge.MCPPath
	sid := initHTTP(t, url)
	sc := &httpScenario{t: t, url: url, sid: sid, p: &peer{t: t, got: map[string]answer{}, seen: make(chan string, 4096)}, cancels: map[int]context.CancelFunc{}}

	figs := stuckThenFast(t, s, sc, site)
	t.Logf("HTTP, %d calls stuck on %d hung tabs:%s", stuckCalls, hungTabs, figs)

	// DELETE ends the session: its tabs close.
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	resp.Body.Close()
	l.waitNoPage(t, site.URL)
}

// An HTTP session left idle past its expiry ends, and its tabs close.
func TestIdleHTTPSessionReleasesItsTabs(t *testing.T) {
	l := launchChromium(t)
	site := hostileSite(t)
	s := newConnected(t, l)
	srv := httptest.NewServer(s.Edge().HTTPHandler(mcpedge.HTTPOptions{SessionIdleTTL: time.Second}))
	t.Cleanup(srv.Close)
	url := srv.URL + mcpedge.MCPPath
	sid := initHTTP(t, url)
	for i := range 2 {
		resp, body := post(context.Background(), url, sid, toolCall(2+i, "browser_navigate", fmt.Sprintf(`{"url":%q,"new_tab":true}`, site.URL+"/page?idle="+fmt.Sprint(i))))
		if resp == nil || resp.StatusCode != http.StatusOK || !strings.Contains(body, `\"status\":\"succeeded\"`) {
			t.Fatalf("navigate: %v %.300s", resp, body)
		}
	}
	open := 0
	for _, u := range l.pages(t) {
		if strings.Contains(u, "idle=") {
			open++
		}
	}
	if open != 2 {
		t.Fatalf("%d tabs open, want 2", open)
	}
	l.waitNoPage(t, "idle=")
	if resp, body := post(context.Background(), url, sid, `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`); resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("expired session still served: %v %s", resp, body)
	}
}

// A call that outlasts the idle expiry keeps its session: the clock stops
// while a request is open, and restarts when it ends.
func TestLongCallOutlivesIdleExpiry(t *testing.T) {
	l := launchChromium(t)
	site := hostileSite(t)
	s := newConnected(t, l)
	srv := httptest.NewServer(s.Edge().HTTPHandler(mcpedge.HTTPOptions{SessionIdleTTL: time.Second}))
	t.Cleanup(srv.Close)
	url := srv.URL + mcpedge.MCPPath
	sid := initHTTP(t, url)
	resp, body := post(context.Background(), url, sid, toolCall(2, "browser_navigate", fmt.Sprintf(`{"url":%q}`, site.URL+"/page?long=1")))
	if resp == nil || resp.StatusCode != http.StatusOK || !strings.Contains(body, `\"status\":\"succeeded\"`) {
		t.Fatalf("navigate: %v %.300s", resp, body)
	}
	resp, body = post(context.Background(), url, sid, toolCall(3, "browser_wait", `{"condition":"duration","value":2500,"timeout_ms":5000}`))
	if resp == nil || resp.StatusCode != http.StatusOK || !strings.Contains(body, `\"status\":\"succeeded\"`) {
		t.Fatalf("a 2.5 s wait under a 1 s idle expiry: %v %.300s", resp, body)
	}
	if resp, body := post(context.Background(), url, sid, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`); resp == nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the session ended under its call: %v %.200s", resp, body)
	}
	l.waitNoPage(t, "long=1") // then it idles out, and its tab closes
	if resp, _ := post(context.Background(), url, sid, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`); resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("expired session still served: %v", resp)
	}
}
