package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

// TestSessionsCannotReachEachOthersTabs: two HTTP sessions on one server with
// a browser it launched (driven over its pipe), the workbench mounted beside
// MCP as `serve --http` mounts it. Session A opens a tab whose URL carries a
// secret. Session B does not see it in browser_tabs, cannot read, act on,
// focus or close it by its handle, and cannot find a DevTools list naming it:
// B's navigations to /json/list on every listening TCP port of this machine
// read no page naming A's secret, and its navigations to the MCP endpoint and
// the workbench API are refused by the ceiling. A's tab is still open after
// all of it.
func TestSessionsCannotReachEachOthersTabs(t *testing.T) {
	s := headlessServer(t)
	wb, err := s.Workbench(WorkbenchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Edge().HTTPHandler(mcpedge.HTTPOptions{Workbench: wb}))
	t.Cleanup(ts.Close)
	wb.SetBase(ts.URL)
	s.Listening(governance.SelfMCP, ts.Listener.Addr().String())
	site := hostileSite(t)
	endpoint := ts.URL + mcpedge.MCPPath
	a, b := initHTTP(t, endpoint), initHTTP(t, endpoint)
	if a == "" || b == "" || a == b {
		t.Fatalf("two sessions wanted, got %q and %q", a, b)
	}

	secret := "secret-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	res, env := mcpCall(t, endpoint, a, 2, "browser_navigate", fmt.Sprintf(`{"url":%q,"new_tab":true,"timeout_ms":30000}`, site.URL+"/page?token="+secret))
	if res.IsError || env.Facts.Tab == "" {
		t.Fatalf("A's navigate: %+v", env)
	}
	tabA := env.Facts.Tab

	// B lists only its own tabs (none yet, then its own).
	res, env = mcpCall(t, endpoint, b, 3, "browser_navigate", fmt.Sprintf(`{"url":%q,"new_tab":true}`, site.URL+"/page?b=1"))
	if res.IsError {
		t.Fatalf("B's navigate: %+v", env)
	}
	_, listB := mcpCall(t, endpoint, b, 4, "browser_tabs", `{"action":"list"}`)
	raw, _ := json.Marshal(listB)
	if resp, body := post(context.Background(), endpoint, b, toolCall(5, "browser_tabs", `{"action":"list"}`)); resp == nil || strings.Contains(body, secret) || strings.Contains(body, `"`+tabA+`"`) {
		t.Fatalf("B's tab list shows A's tab: %.400s", body)
	}
	// B names A's handle in every kind of call.
	for i, c := range []struct{ tool, args string }{
		{"browser_read", fmt.Sprintf(`{"tab":%q}`, tabA)},
		{"browser_tabs", fmt.Sprintf(`{"action":"focus","tab":%q}`, tabA)},
		{"browser_tabs", fmt.Sprintf(`{"action":"close","tab":%q}`, tabA)},
		{"browser_navigate", fmt.Sprintf(`{"url":%q,"tab":%q}`, site.URL+"/page?hijack", tabA)},
		{"browser_execute", fmt.Sprintf(`{"tab":%q,"script":"document.title"}`, tabA)},
		{"browser_screenshot", fmt.Sprintf(`{"tab":%q}`, tabA)},
	} {
		resp, body := post(context.Background(), endpoint, b, toolCall(20+i, c.tool, c.args))
		if resp == nil || strings.Contains(body, secret) {
			t.Fatalf("B's %s on A's tab: %.400s", c.tool, body)
		}
		_, env := mcpCall(t, endpoint, b, 40+i, c.tool, c.args)
		if env.Status == "succeeded" || env.Facts.Reason != "unknown_tab" && env.Facts.Reason != "invalid_arguments" {
			t.Errorf("B's %s on A's tab %s: %s %s: %s", c.tool, tabA, env.Status, env.Facts.Reason, env.Summary)
		}
	}

	// No listening port of this machine serves B a DevTools list naming A's tab.
	ports := listeningTCPPorts(t)
	tried := 0
	for i, p := range ports {
		u := "http://127.0.0.1:" + strconv.Itoa(p) + "/json/list"
		resp, body := post(context.Background(), endpoint, b, toolCall(100+2*i, "browser_navigate", fmt.Sprintf(`{"url":%q,"tab":""}`, u)))
		if resp == nil || strings.Contains(body, secret) {
			t.Fatalf("B's navigate to %s: %.400s", u, body)
		}
		resp, body = post(context.Background(), endpoint, b, toolCall(101+2*i, "browser_read", `{}`))
		if resp == nil || strings.Contains(body, secret) {
			t.Fatalf("B read A's secret at %s: %.400s", u, body)
		}
		tried++
	}
	// B's navigations to the MCP endpoint and the workbench API are refused.
	for i, u := range []string{endpoint, ts.URL + "/workbench/api/tabs", strings.Replace(ts.URL, "127.0.0.1", "localhost", 1) + "/workbench/api/live?tab=" + tabA} {
		_, env := mcpCall(t, endpoint, b, 900+i, "browser_navigate", fmt.Sprintf(`{"url":%q}`, u))
		if env.Status != "blocked" || env.Facts.Reason != "host_denied" || !strings.Contains(env.Summary, "Ghostlight's own MCP endpoint") {
			t.Errorf("B's navigate to %s: %s %s: %s", u, env.Status, env.Facts.Reason, env.Summary)
		}
	}
	// A's tab is there, untouched.
	_, listA := mcpCall(t, endpoint, a, 950, "browser_read", fmt.Sprintf(`{"tab":%q}`, tabA))
	if listA.Status != "succeeded" {
		t.Fatalf("A's tab after B's tries: %+v", listA)
	}
	t.Logf("B's list %s; listening ports tried for /json/list: %d", raw, tried)
}

// listeningTCPPorts lists the ports with a LISTEN socket on this machine
// (tcp and tcp6), the server's own excluded by the caller's ceiling.
func listeningTCPPorts(t *testing.T) []int {
	t.Helper()
	seen := map[int]bool{}
	var out []int
	for _, f := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		for _, line := range strings.Split(string(raw), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 4 || fs[3] != "0A" {
				continue
			}
			_, hexPort, _ := strings.Cut(fs[1], ":")
			if p, err := strconv.ParseInt(hexPort, 16, 32); err == nil && !seen[int(p)] {
				seen[int(p)] = true
				out = append(out, int(p))
			}
		}
	}
	return out
}
