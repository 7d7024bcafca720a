package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
)

// launched is a real headless Chromium this test started, shared with the
// server through its DevTools endpoint, so the test can see its tabs.
type launched struct {
	endpoint string // ws://…
	http     string // http://host:port
}

func launchChromium(t *testing.T) launched {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	u, stop, err := browser.Launch(ctx, browser.Config{Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")})
	if err != nil {
		t.Fatalf("launch Chromium: %v", err)
	}
	t.Cleanup(stop)
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return launched{endpoint: u, http: "http://" + p.Host}
}

// pages lists the URLs of the browser's page targets.
func (l launched) pages(t *testing.T) []string {
	t.Helper()
	resp, err := http.Get(l.http + "/json/list")
	if err != nil {
		t.Fatalf("DevTools list: %v", err)
	}
	defer resp.Body.Close()
	var targets []struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tg := range targets {
		if tg.Type == "page" {
			out = append(out, tg.URL)
		}
	}
	return out
}

// waitNoPage waits until no page target's URL contains marker.
func (l launched) waitNoPage(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		left := 0
		for _, u := range l.pages(t) {
			if strings.Contains(u, marker) {
				left++
			}
		}
		if left == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d tabs at %s still open", left, marker)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func newConnected(t *testing.T, l launched) *Server {
	t.Helper()
	return testServer(t, browser.Config{Startup: browser.StartupConnect, Endpoint: l.endpoint})
}

// headlessServer is a server launching its own headless Chromium.
func headlessServer(t *testing.T) *Server {
	t.Helper()
	return testServer(t, browser.Config{Startup: browser.StartupAuto, Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")})
}

// testServer is a server on bc, closed when the test ends.
func testServer(t *testing.T, bc browser.Config) *Server {
	t.Helper()
	s, err := New(Config{Browser: bc, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = s.Close(ctx)
	})
	return s
}

// hostile serves a healthy page at /page and, at /hang, a page that never
// sends its headers (until the test ends).
type hostile struct {
	*httptest.Server
	arrived chan struct{}
}

func hostileSite(t *testing.T) *hostile {
	t.Helper()
	h := &hostile{arrived: make(chan struct{}, 1024)}
	done := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>Healthy</title><main><h1>Healthy page</h1><p>The text a read returns.</p></main>`)
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		h.arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-done:
		}
	})
	h.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(done)
		h.Close()
	})
	return h
}

// peer plays an MCP client over raw newline-framed JSON on stdio; it records
// when each answer arrived.
type peer struct {
	t  *testing.T
	w  io.Writer
	mu sync.Mutex
	// answers by raw JSON id
	got  map[string]answer
	seen chan string // ids as they arrive
}

type answer struct {
	line string
	at   time.Time
}

func newPeer(t *testing.T, w io.Writer, r io.Reader) *peer {
	p := &peer{t: t, w: w, got: map[string]answer{}, seen: make(chan string, 4096)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			line := sc.Text()
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal([]byte(line), &m) != nil || len(m.ID) == 0 {
				continue // notifications
			}
			id := string(m.ID)
			p.mu.Lock()
			p.got[id] = answer{line: line, at: time.Now()}
			p.mu.Unlock()
			p.seen <- id
		}
		close(p.seen)
	}()
	return p
}

func (p *peer) send(format string, args ...any) time.Time {
	p.t.Helper()
	at := time.Now()
	if _, err := fmt.Fprintf(p.w, format+"\n", args...); err != nil {
		p.t.Fatalf("write: %v", err)
	}
	return at
}

// wait returns the answer to id, waiting for it.
func (p *peer) wait(id int) answer {
	p.t.Helper()
	key := fmt.Sprint(id)
	timeout := time.After(60 * time.Second)
	for {
		p.mu.Lock()
		a, ok := p.got[key]
		p.mu.Unlock()
		if ok {
			return a
		}
		select {
		case _, open := <-p.seen:
			if !open {
				p.t.Fatalf("output ended before the answer to %d", id)
			}
		case <-timeout:
			p.t.Fatalf("no answer to %d", id)
		}
	}
}

// answeredAmong reports the ids in [from, from+n) answered so far.
func (p *peer) answeredAmong(from, n int) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []int
	for i := from; i < from+n; i++ {
		if _, ok := p.got[fmt.Sprint(i)]; ok {
			out = append(out, i)
		}
	}
	return out
}

func toolCall(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

// result is a tools/call answer as the tests read it.
type result struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

type envelope struct {
	Status     string   `json:"status"`
	Effect     string   `json:"effect"`
	RepeatSafe bool     `json:"repeat_safe"`
	Summary    string   `json:"summary"`
	NextSteps  []string `json:"next_steps"`
	Facts      struct {
		Tab    string `json:"tab"`
		Reason string `json:"reason"`
		Limit  string `json:"limit"`
		Text   string `json:"text"`
	} `json:"facts"`
}

func decodeResult(t *testing.T, line string) (result, envelope) {
	t.Helper()
	var m struct {
		Result *result `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil || m.Result == nil {
		t.Fatalf("not a tool result: %.300s", line)
	}
	var env envelope
	if err := json.Unmarshal(m.Result.StructuredContent, &env); err != nil {
		t.Fatalf("envelope: %v", err)
	}
	return *m.Result, env
}
