package workbench_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// personPage opens the workbench link in the person's browser, as they
// would from the line Ghostlight printed.
func personPage(t *testing.T) *rod.Page {
	t.Helper()
	p, err := env.person.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	p = p.Timeout(120 * time.Second)
	if err := p.Navigate(env.wb.Link()); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	if u := p.MustInfo().URL; strings.Contains(u, "token=") {
		t.Fatalf("the token stayed in the address: %s", u)
	}
	return p
}

// openPage opens a workbench address in a new tab of the person's browser.
func openPage(t *testing.T, u string) *rod.Page {
	t.Helper()
	p, err := env.person.Page(proto.TargetCreateTarget{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	p = p.Timeout(120 * time.Second)
	if err := p.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	return p
}

func text(t *testing.T, p *rod.Page, js string) string {
	t.Helper()
	r, err := p.Eval(js)
	if err != nil {
		t.Fatal(err)
	}
	return r.Value.String()
}

// clickAt clicks the person's page at a place of the live image that shows
// the agent's viewport point (x, y) CSS px: a real mouse click, as the
// person makes it.
func clickAt(t *testing.T, p *rod.Page, x, y, vw, vh float64) {
	t.Helper()
	// The frame is decoded and laid out at its own aspect.
	eventually(t, "the frame laid out", func() bool {
		return text(t, p, `() => { const i = document.getElementById('live-image'); return String(i.complete && i.naturalWidth > 0 && Math.abs(i.clientHeight / i.clientWidth - i.naturalHeight / i.naturalWidth) < 0.01) }`) == "true"
	})
	box := p.MustElement("#live-image").MustShape().Box()
	px, py := box.X+x/vw*box.Width, box.Y+y/vh*box.Height
	if err := p.Mouse.MoveTo(proto.Point{X: px, Y: py}); err != nil {
		t.Fatal(err)
	}
	if err := p.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
}

func seq(t *testing.T, p *rod.Page) int {
	n, _ := strconv.Atoi(text(t, p, `() => document.getElementById('live-image').dataset.seq`))
	return n
}

// TestWorkbenchEndToEnd drives the workbench in a real Chromium as a person
// would, beside an agent working through a real MCP client: Policy shows
// policy_explain's capability lines (with the layer file), Activity the
// calls just made, the live view follows a navigation, and a credential
// handoff is completed by typing into the live view. The password typed
// reaches the site and no audit line, log line or result.
func TestWorkbenchEndToEnd(t *testing.T) {
	agent := mcpClient(t, nil)
	nav := call(t, agent, "browser_navigate", map[string]any{"url": env.site.URL + "/login"})
	if nav.Status != "succeeded" {
		t.Fatalf("navigate: %s %s", nav.Status, nav.Summary)
	}
	tab, _ := nav.Facts["tab"].(string)
	explained := call(t, agent, "policy_explain", map[string]any{})

	p := personPage(t)

	// Policy: the same capability lines as policy_explain, each decided by
	// the file the person owns.
	p.MustElement(`nav a[data-dest="policy"]`).MustClick()
	p.MustElement(`#policy-capabilities tr[data-capability]`)
	var facts surface.PolicyExplainFacts
	remarshal(t, explained.Facts, &facts)
	var want []string
	for _, l := range governance.Render(&facts, nil) {
		if strings.HasPrefix(l, "capability ") {
			want = append(want, l)
		}
	}
	located := regexp.MustCompile(`\s+\[[^\]]+\]$`)
	var got []string
	for _, li := range p.MustElements("#policy-lines li") {
		if l := li.MustText(); strings.HasPrefix(l, "capability ") {
			got = append(got, located.ReplaceAllString(l, ""))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) != len(surface.CapabilityValues) {
		t.Fatalf("Policy capability lines:\n%s\npolicy_explain:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	exec := p.MustElement(`#policy-capabilities tr[data-capability="execute"]`).MustText()
	if !strings.Contains(exec, "denied") || !strings.Contains(exec, "workspace") || !strings.Contains(exec, "policy.cue:2:") {
		t.Fatalf("execute row does not name its file: %q", exec)
	}
	if files := p.MustElement("#policy-files").MustText(); !strings.Contains(files, env.policyDir) {
		t.Fatalf("layer files: %q", files)
	}

	// Activity: the calls just made, live.
	p.MustElement(`nav a[data-dest="activity"]`).MustClick()
	for _, inv := range []string{nav.Invocation, explained.Invocation} {
		p.MustElement(`#activity-rows tr[data-invocation="` + inv + `"]`)
	}
	// Filtered by tool.
	p.MustElement("#filter-tool").MustInput("policy_explain")
	eventually(t, "the tool filter applies", func() bool {
		rows := p.MustElements("#activity-rows tr")
		if len(rows) == 0 {
			return false
		}
		for _, r := range rows {
			if *r.MustAttribute("data-tool") != "policy_explain" {
				return false
			}
		}
		return true
	})

	// Tabs: the agent's tab, and its live view.
	p.MustElement(`nav a[data-dest="tabs"]`).MustClick()
	clickListed(t, p, `#tab-list li[data-tab="`+tab+`"]`)
	eventually(t, "a first frame", func() bool { return seq(t, p) >= 1 })
	if p.MustElement("#live-handoff").MustVisible() {
		t.Fatal("a handoff is shown before any")
	}
	before := seq(t, p)
	if r := call(t, agent, "browser_navigate", map[string]any{"tab": tab, "url": env.site.URL + "/other"}); r.Status != "succeeded" {
		t.Fatalf("navigate: %s", r.Summary)
	}
	eventually(t, "a new frame after the navigation", func() bool { return seq(t, p) > before })
	eventually(t, "the new title", func() bool { return p.MustElement("#live-title").MustText() == "Other page" })
	if r := call(t, agent, "browser_navigate", map[string]any{"tab": tab, "url": env.site.URL + "/login"}); r.Status != "succeeded" {
		t.Fatalf("navigate: %s", r.Summary)
	}

	// The handoff: the agent stops at the password field.
	const marker = "Gl-marker-7Q4zK9"
	stop := call(t, agent, "browser_fill_form", map[string]any{"tab": tab,
		"fields": []any{map[string]any{"selector": map[string]any{"name": "Password"}, "value": "not-the-password"}}})
	if stop.Status != "attention_required" || stop.Facts["reason"] != "credential_handoff" {
		t.Fatalf("fill: %s %v %s", stop.Status, stop.Facts["reason"], stop.Summary)
	}
	link, _ := stop.Facts["handoff_url"].(string)
	if link != env.ts.URL+"/workbench/#"+tab || !strings.Contains(stop.Summary, link) || strings.Contains(link, "token") {
		t.Fatalf("handoff link %q, summary %q", link, stop.Summary)
	}
	// The person follows the link (a new tab of their browser, which holds
	// the workbench cookie): the tab is marked as waiting on them.
	p = openPage(t, link)
	p.MustElement(`#tab-list li[data-tab="` + tab + `"][data-handoff]`)
	eventually(t, "the handoff banner", func() bool { return p.MustElement("#live-handoff").MustVisible() })
	eventually(t, "a frame of the sign-in page", func() bool { return seq(t, p) >= 1 })

	// They click the password field in the live image, type, and click
	// the button in the image.
	vw, vh := float64(surface.ViewportWidthDefault), float64(surface.ViewportHeightDefault)
	clickAt(t, p, pwX, pwY, vw, vh)
	if err := p.Keyboard.Type(keys(marker)...); err != nil {
		t.Fatal(err)
	}
	clickAt(t, p, goX, goY, vw, vh)
	select {
	case got := <-env.site.posted:
		if got != marker {
			t.Fatalf("the site received password %q, want the marker", got)
		}
	case <-time.After(20 * time.Second):
		t.Logf("status %q focus %q seq %d", p.MustElement("#live-status").MustText(), text(t, p, `() => document.activeElement.id`), seq(t, p))
		r := call(t, agent, "browser_screenshot", map[string]any{"tab": tab})
		t.Logf("%s", r.Summary)
		t.Fatal("the form was never submitted")
	}
	p.MustElement("#handback").MustClick()
	eventually(t, "the handoff closes", func() bool { return !p.MustElement("#live-handoff").MustVisible() })

	// The model's next call finds the page moved on, and is told.
	read := call(t, agent, "browser_read", map[string]any{"tab": tab})
	if read.Status != "succeeded" || !strings.Contains(read.Summary, "completed the credential handoff") {
		t.Fatalf("read after the handoff: %s %s", read.Status, read.Summary)
	}
	if title, _ := read.Facts["title"].(string); title != "Welcome" {
		t.Fatalf("the page did not move on: title %q", title)
	}
	again := call(t, agent, "browser_read", map[string]any{"tab": tab})
	if strings.Contains(again.Summary, "handoff") {
		t.Fatalf("the handoff note was said twice: %s", again.Summary)
	}

	// The password is in no audit line, log line or result.
	audit, err := os.ReadFile(env.auditPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(audit), marker) {
		t.Fatal("the password is in the audit")
	}
	if strings.Contains(env.logs.String(), marker) {
		t.Fatal("the password is in a log line")
	}
	results.mu.Lock()
	defer results.mu.Unlock()
	for _, r := range results.all {
		if strings.Contains(r, marker) {
			t.Fatal("the password is in a result")
		}
	}
	if !strings.Contains(string(audit), `"browser_fill_form"`) {
		t.Fatal("the audit holds no line of the stopped fill")
	}
}

func keys(s string) []input.Key {
	out := make([]input.Key, 0, len(s))
	for _, r := range s {
		out = append(out, input.Key(r))
	}
	return out
}

func remarshal(t *testing.T, from any, to any) {
	t.Helper()
	b, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, to); err != nil {
		t.Fatal(err)
	}
}
