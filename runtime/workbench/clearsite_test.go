package workbench_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// scriptedBrowser stands in for the server's adapter to test the workbench's
// HTTP glue alone: the browser side (the model's script on a site, the keys
// refused, Clear site clearing it) is TestModelScriptNeverHearsThePersonsSecret's,
// against real Chromium. Here: which answers the person's page gets.
type scriptedBrowser struct {
	workbench.Browser
	mu       sync.Mutex
	scripted bool
	cleared  []string
	typed    []string
}

func (b *scriptedBrowser) Tabs() []workbench.Tab {
	b.mu.Lock()
	defer b.mu.Unlock()
	return []workbench.Tab{{Tab: "tab_a1", Scripted: b.scripted}}
}

func (b *scriptedBrowser) Live(context.Context, string) (workbench.Live, error) {
	l := &scriptedLive{b: b, frames: make(chan workbench.Frame, 1)}
	l.frames <- workbench.Frame{Seq: 1, JPEG: []byte{0xff, 0xd8, 0xff, 0xd9}, Width: 1, Height: 1}
	return l, nil
}

func (b *scriptedBrowser) ClearSite(_ context.Context, tab string) error {
	if tab != "tab_a1" {
		return workbench.ErrNotFound
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.scripted = false
	b.cleared = append(b.cleared, tab)
	return nil
}

type scriptedLive struct {
	b      *scriptedBrowser
	frames chan workbench.Frame
	once   sync.Once
}

func (l *scriptedLive) Frames() <-chan workbench.Frame { return l.frames }
func (l *scriptedLive) Close()                         { l.once.Do(func() { close(l.frames) }) }
func (l *scriptedLive) Input(_ context.Context, e workbench.Input) error {
	l.b.mu.Lock()
	defer l.b.mu.Unlock()
	if e.Type == "text" && l.b.scripted {
		return workbench.ErrScriptedSite
	}
	l.b.typed = append(l.b.typed, e.Text)
	return nil
}

// TestClearSiteOverHTTP: keys for a scripted site answer 409 scripted_site
// (nothing typed), the tab lists as scripted, Clear site answers 204 and
// the same keys then go through; a bad or unknown tab is refused by name.
func TestClearSiteOverHTTP(t *testing.T) {
	b := &scriptedBrowser{scripted: true}
	w, err := workbench.New(workbench.Options{Browser: b,
		Policy: func() *governance.Authority { return nil },
		Guard:  func(*http.Request) (bool, string) { return true, "" },
		Limits: workbench.Limits{LiveViews: 4, InputChars: 64, RequestBytes: 4096, PollMs: 1000, Tickets: 4, FullTickets: 2,
			Sessions: 4, TicketLifetime: time.Minute, ClickCount: 3, KeyChars: surface.KeyCharsMax, WheelDelta: 1000, InputTimeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ts := httptest.NewServer(w)
	defer ts.Close()
	w.SetBase(ts.URL)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if resp, err := c.Get(w.Link()); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("entry: %v %v", resp, err)
	}
	send := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+"/workbench/api/"+path, strings.NewReader(body))
		req.Header.Set("Origin", ts.URL)
		req.Header.Set("X-Ghostlight-Workbench", "1")
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	// The live view is open while the person types (the page's stream).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/workbench/api/live?tab=tab_a1", nil)
	resp, err := c.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("live: %v %v", resp, err)
	}
	defer resp.Body.Close()
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		t.Fatalf("no first frame: %v", err)
	}

	code, body := send("POST", "input?tab=tab_a1", `{"type":"text","text":"s3cret"}`)
	if code != http.StatusConflict || body["rule"] != "scripted_site" || body["pointer"] != "/type" || !strings.Contains(mustJSON(body["error"]), "Clear site") {
		t.Fatalf("keys for a scripted site: %d %v", code, body)
	}
	if code, body := send("GET", "tabs", ""); code != 200 || !strings.Contains(mustJSON(body), `"scripted":true`) {
		t.Fatalf("tabs: %d %v", code, body)
	}
	for _, c := range []struct {
		tab  string
		code int
		rule string
	}{{"..%2Fx", 400, "handle"}, {"tab_gone", 404, "handle"}} {
		if code, body := send("POST", "clear-site?tab="+c.tab, ""); code != c.code || body["rule"] != c.rule {
			t.Fatalf("clear-site %s: %d %v", c.tab, code, body)
		}
	}
	if code, _ := send("POST", "clear-site?tab=tab_a1", ""); code != http.StatusNoContent {
		t.Fatalf("clear-site: %d", code)
	}
	if code, _ := send("POST", "input?tab=tab_a1", `{"type":"text","text":"s3cret"}`); code != http.StatusNoContent {
		t.Fatalf("keys after Clear site: %d", code)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if strings.Join(b.cleared, ",") != "tab_a1" || strings.Join(b.typed, ",") != "s3cret" {
		t.Fatalf("cleared %v, typed %d inputs", b.cleared, len(b.typed))
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
