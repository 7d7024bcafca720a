package tools

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// open navigates the harness's session to url and returns the landing facts.
// reuse:never: a tab another test's released session is still closing would
// otherwise be adopted (same host) and vanish under the call.
func (h *harness) open(url string) surface.BrowserNavigateFacts {
	h.t.Helper()
	var f surface.BrowserNavigateFacts
	h.facts(h.must("browser_navigate", `{"url":`+quote(url)+`,"reuse":"never","timeout_ms":`+fmt.Sprint(surface.TimeoutMsMax)+`}`), &f)
	return f
}

// refuse calls and fails the test unless the call was refused with reason.
func (h *harness) refuse(tool, args string, reason surface.Reason) pipeline.Result {
	h.t.Helper()
	r := h.call(tool, args)
	var f struct {
		Reason surface.Reason `json:"reason"`
	}
	h.facts(r, &f)
	if f.Reason != reason || r.Envelope.Status == surface.StatusSucceeded {
		h.t.Fatalf("%s %s: want refusal %s, got %s", tool, args, reason, r.JSON)
	}
	return r
}

func (h *harness) inspect(args string) (surface.BrowserInspectFacts, pipeline.Result) {
	h.t.Helper()
	r := h.must("browser_inspect", args)
	var f surface.BrowserInspectFacts
	h.facts(r, &f)
	return f, r
}

func (h *harness) screenshot(args string) (surface.BrowserScreenshotFacts, pipeline.Result) {
	h.t.Helper()
	r := h.must("browser_screenshot", args)
	var f surface.BrowserScreenshotFacts
	h.facts(r, &f)
	return f, r
}

// itemNamed returns the first item with that role and name.
func itemNamed(t testing.TB, items []*surface.Item, role, name string) *surface.Item {
	t.Helper()
	for _, it := range items {
		if string(it.Role) == role && it.Name == name {
			return it
		}
	}
	t.Fatalf("no %s named %q among %d items", role, name, len(items))
	return nil
}

func names(items []*surface.Item) string {
	var b []string
	for _, it := range items {
		b = append(b, string(it.Role)+":"+it.Name)
	}
	return strings.Join(b, ", ")
}

// imageSize decodes a PNG's dimensions.
func imageSize(t testing.TB, data []byte) (int, int) {
	t.Helper()
	c, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || format != "png" {
		t.Fatalf("not a PNG (%s): %v", format, err)
	}
	return c.Width, c.Height
}

// bigPage has 2,000 buttons and 500 links: the token-economy page.
func bigPage() string {
	var b strings.Builder
	b.WriteString(`<title>Big</title><header><h1>Big page</h1></header><nav><ul>`)
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(&b, `<li><a href="#l%d">Link %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></nav><main><p>Many controls follow.</p>`)
	for i := 1; i <= 2000; i++ {
		if i%10 == 1 {
			b.WriteString(`<div class="row">`)
		}
		fmt.Fprintf(&b, `<span><button type="button">Button %d</button></span> `, i)
		if i%10 == 0 {
			b.WriteString(`</div>`)
		}
	}
	b.WriteString(`</main>`)
	return b.String()
}

// article is a page with a long article among page chrome.
func article(paragraphs int) string {
	var b strings.Builder
	b.WriteString(`<title>Story</title><header><nav><a href="/">Home</a></nav></header><main><article><h1>The mill</h1>`)
	for i := 0; i < paragraphs; i++ {
		fmt.Fprintf(&b, `<p>Paragraph %d. The river runs past the old mill — café crème, naïve façade ✓ — and the miller counts sacks of flour.</p>`, i)
	}
	b.WriteString(`</article></main><footer><p>Footer chrome</p></footer>`)
	return b.String()
}
