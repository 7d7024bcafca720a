package workbench_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// entered is an HTTP client holding the workbench cookie (the entry link's
// token traded for it), sending what the workbench's own page sends.
func entered(t *testing.T) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(env.wb.Link())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ck := resp.Header.Get("Set-Cookie")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/workbench/" ||
		!strings.Contains(ck, "HttpOnly") || !strings.Contains(ck, "SameSite=Strict") || !strings.Contains(ck, "Path=/workbench") {
		t.Fatalf("entry: %d %q %q", resp.StatusCode, resp.Header.Get("Location"), ck)
	}
	return c
}

func do(t *testing.T, c *http.Client, method, path, body string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, env.ts.URL+path, strings.NewReader(body))
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestWorkbenchGuards: the token, the cookie, Host and Origin as on the MCP
// endpoint, requests from other pages, and the CSP on every answer.
func TestWorkbenchGuards(t *testing.T) {
	c := entered(t)
	own := map[string]string{"Origin": env.ts.URL, "X-Ghostlight-Workbench": "1", "Content-Type": "application/json"}
	cases := []struct {
		name   string
		client *http.Client
		method string
		path   string
		hdr    map[string]string
		want   int
	}{
		{"page with cookie", c, "GET", "/workbench/", nil, 200},
		{"script with cookie", c, "GET", "/workbench/app.js", nil, 200},
		{"page without cookie", http.DefaultClient, "GET", "/workbench/", nil, 401},
		{"api without cookie", http.DefaultClient, "GET", "/workbench/api/tabs", nil, 401},
		{"wrong ticket", http.DefaultClient, "GET", "/workbench/?ticket=nope", nil, 410},
		{"bearer token is not the workbench's", http.DefaultClient, "GET", "/workbench/api/tabs", map[string]string{"Authorization": "Bearer " + bearer}, 401},
		{"api with cookie", c, "GET", "/workbench/api/tabs", nil, 200},
		{"foreign Host", c, "GET", "/workbench/api/tabs", map[string]string{"Host": "evil.example:80"}, 403},
		{"foreign Origin", c, "GET", "/workbench/api/tabs", map[string]string{"Origin": "http://evil.example"}, 403},
		{"another site's fetch", c, "GET", "/workbench/api/policy", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{"post from another loopback origin", c, "POST", "/workbench/api/handback?tab=tab_x", map[string]string{"Origin": "http://127.0.0.1:1", "X-Ghostlight-Workbench": "1"}, 403},
		{"post without the header", c, "POST", "/workbench/api/handback?tab=tab_x", map[string]string{"Origin": env.ts.URL}, 403},
		{"post from the page", c, "POST", "/workbench/api/handback?tab=tab_x", own, 404},
		{"unknown asset", c, "GET", "/workbench/etc/passwd", nil, 404},
		{"mcp still wants its bearer", c, "POST", "/mcp", nil, 401},
	}
	for _, tc := range cases {
		resp, body := do(t, tc.client, tc.method, tc.path, "", tc.hdr)
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d (%.100s)", tc.name, resp.StatusCode, tc.want, body)
		}
		// (A 403 for Host or Origin comes from the MCP edge's own guard,
		// before the workbench: a plain text page.)
		if strings.HasPrefix(tc.path, "/workbench") && resp.StatusCode != http.StatusForbidden && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: no CSP", tc.name)
		}
	}
	// Served on its own address (--workbench), the workbench guards itself.
	alone := httptest.NewServer(env.wb)
	defer alone.Close()
	for name, hdr := range map[string]map[string]string{"Host": {"Host": "evil.example"}, "Origin": {"Origin": "http://evil.example"}} {
		req, _ := http.NewRequest("GET", alone.URL+"/workbench/", nil)
		for k, v := range hdr {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("alone, foreign %s: %d", name, resp.StatusCode)
		}
	}
	resp, _ := do(t, c, "GET", "/workbench/", "", nil)
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "img-src 'self' data: blob:", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP allows inline: %q", csp)
	}
}

// TestWorkbenchInputRefusals: hostile input is refused with the field and
// the rule, and never echoed.
func TestWorkbenchInputRefusals(t *testing.T) {
	c := entered(t)
	own := map[string]string{"Origin": env.ts.URL, "X-Ghostlight-Workbench": "1", "Content-Type": "application/json"}
	big := strings.Repeat("s3cret", 40000)
	cases := []struct {
		body          string
		status        int
		pointer, rule string
	}{
		{`{"type":"click","x":1.5,"y":0.5}`, 400, "/x", "maximum"},
		{`{"type":"click","x":0.5,"y":-1}`, 400, "/y", "maximum"},
		{`{"type":"click","x":0.5,"y":0.5,"button":"fourth"}`, 400, "/button", "enum"},
		{`{"type":"click","x":0.5,"y":0.5,"count":9}`, 400, "/count", "maximum"},
		{`{"type":"wheel","x":0.5,"y":0.5,"dy":1e9}`, 400, "/dy", "maximum"},
		{`{"type":"key","key":""}`, 400, "/key", "max_length"},
		{`{"type":"key","key":"a","modifiers":["Hyper"]}`, 400, "/modifiers/0", "enum"},
		{`{"type":"text","text":"` + strings.Repeat("x", 1001) + `"}`, 400, "/text", "max_length"},
		{`{"type":"launch"}`, 400, "/type", "enum"},
		{`{"type":"text","text":"s3cret","extra":1}`, 400, "", "syntax"},
		{`not json s3cret`, 400, "", "syntax"},
		{`{"type":"text","text":"` + big + `"}`, 413, "", "maximum"},
		{`{"type":"text","text":"s3cret"}`, 409, "/tab", "live_view"},
	}
	for _, tc := range cases {
		resp, body := do(t, c, "POST", "/workbench/api/input?tab=tab_nolive", tc.body, own)
		var r struct{ Error, Pointer, Rule string }
		_ = json.Unmarshal([]byte(body), &r)
		if resp.StatusCode != tc.status || r.Pointer != tc.pointer || r.Rule != tc.rule {
			t.Errorf("%.60s: %d %+v, want %d %s %s", tc.body, resp.StatusCode, r, tc.status, tc.pointer, tc.rule)
		}
		if strings.Contains(body, "s3cret") {
			t.Errorf("%.60s: the refusal echoes the input", tc.body)
		}
	}
	resp, _ := do(t, c, "POST", "/workbench/api/input?tab=../../x", `{"type":"text","text":"a"}`, own)
	if resp.StatusCode != 400 {
		t.Errorf("bad tab handle: %d", resp.StatusCode)
	}
	if strings.Contains(env.logs.String(), "s3cret") {
		t.Error("input reached a log line")
	}
}

// TestLinksCarryNoSecret: the tab link the model reads has no token, and
// nothing is linked before the workbench listens.
func TestLinksCarryNoSecret(t *testing.T) {
	l := env.wb.TabLink("tab_abc")
	if l != env.ts.URL+"/workbench/#tab_abc" {
		t.Fatalf("tab link %q", l)
	}
	w, err := workbench.New(workbench.Options{Browser: nilBrowser{}, Policy: nil, Guard: nil})
	if err == nil || w != nil {
		t.Fatal("a workbench without its parts was made")
	}
	if env.wb.TabLink("../x") != "" || env.wb.Ticket("tab_a b") != "" {
		t.Fatal("a link for something that is not a tab handle")
	}
}

type nilBrowser struct{ workbench.Browser }
