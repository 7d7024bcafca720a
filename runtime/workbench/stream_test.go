package workbench_test

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
)

// TestLiveStreamEndsWithTab: the live view streams frames of the tab, two
// watchers share it, and it ends (an "end" event, the stream closed) when
// the agent closes the tab.
func TestLiveStreamEndsWithTab(t *testing.T) {
	agent := mcpClient(t, nil)
	nav := call(t, agent, "browser_navigate", map[string]any{"url": env.site.URL + "/other", "new_tab": true})
	tab, _ := nav.Facts["tab"].(string)
	c := entered(t)
	open := func() *bufio.Reader {
		req, _ := http.NewRequest("GET", env.ts.URL+"/workbench/api/live?tab="+tab, nil)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("live: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		return bufio.NewReader(resp.Body)
	}
	next := func(r *bufio.Reader) string {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return "closed"
			}
			if ev, ok := strings.CutPrefix(strings.TrimSpace(line), "event: "); ok {
				return ev
			}
		}
	}
	a, b := open(), open()
	if ev := next(a); ev != "frame" {
		t.Fatalf("first event %q", ev)
	}
	if ev := next(b); ev != "frame" {
		t.Fatalf("second watcher's first event %q", ev)
	}
	if r := call(t, agent, "browser_tabs", map[string]any{"action": "close", "tab": tab}); r.Status != "succeeded" {
		t.Fatalf("close: %s", r.Summary)
	}
	for _, r := range []*bufio.Reader{a, b} {
		ev := next(r)
		for ev == "frame" {
			ev = next(r)
		}
		if ev != "end" {
			t.Fatalf("after the close: %q", ev)
		}
	}
}
