package pipeline

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// readHandler answers browser_read without a browser: these tests are about
// the pipeline (decode, authorize, author, audit), not page work. Every other
// method is the nil interface and would panic, which the pipeline turns into
// an internal failure.
type readHandler struct {
	surface.Handler
	calls int
	inv   *Invocation
}

func (h *readHandler) BrowserRead(ctx context.Context, a *surface.BrowserReadArgs) (*surface.BrowserReadFacts, surface.Outcome) {
	h.calls++
	h.inv = FromContext(ctx)
	return &surface.BrowserReadFacts{Tab: "tab_1", URL: "https://example.com/", Title: "Example", Text: "hello", Mode: "article", DocumentGeneration: 1},
		surface.Outcome{Readiness: surface.ReadinessComplete, RepeatSafe: true, Summary: "Read 5 characters from example.com."}
}

func newTest(h surface.Handler, audit *[]AuditRecord) *Pipeline {
	return New(Options{Handler: h, Authority: func() *governance.Authority { return governance.AllOpen("auto") }, Audit: func(r AuditRecord) { *audit = append(*audit, r) }})
}

func TestRefusesBadArgumentsBeforeDispatch(t *testing.T) {
	var audit []AuditRecord
	h := &readHandler{}
	p := newTest(h, &audit)
	r := p.Call(context.Background(), "s1", "browser_read", []byte(`{"max_chars":499}`), nil)
	if h.calls != 0 {
		t.Fatal("handler ran on refused arguments")
	}
	if r.Envelope.Status != surface.StatusFailed || !r.IsError() {
		t.Fatalf("status %s", r.Envelope.Status)
	}
	var f map[string]any
	json.Unmarshal(r.Envelope.Facts, &f)
	if f["reason"] != "invalid_arguments" || f["pointer"] != "/max_chars" || f["rule"] != "minimum" || f["limit"] != "500" {
		t.Fatalf("facts %v", f)
	}
	if !strings.Contains(r.Envelope.Summary, "/max_chars") || len(r.Envelope.NextSteps) == 0 {
		t.Fatalf("summary does not name the field: %q %v", r.Envelope.Summary, r.Envelope.NextSteps)
	}
	if len(audit) != 1 || audit[0].Reason != surface.ReasonInvalidArguments {
		t.Fatalf("audit %+v", audit)
	}
}

func TestRestrictionBlocks(t *testing.T) {
	var audit []AuditRecord
	h := &readHandler{}
	p := newTest(h, &audit)
	r := p.Call(context.Background(), "s1", "browser_read", []byte(`{"restrict_capabilities":["action"]}`), nil)
	if h.calls != 0 || r.Envelope.Status != surface.StatusBlocked {
		t.Fatalf("read ran or was not blocked under restrict_capabilities [action]: %s", r.JSON)
	}
	if !strings.Contains(string(r.Envelope.Facts), `"capability":"read"`) {
		t.Fatalf("facts do not name the capability: %s", r.Envelope.Facts)
	}
	// Restricting hosts on a navigation refuses the URL's host.
	r = p.Call(context.Background(), "s1", "browser_navigate", []byte(`{"url":"https://evil.test/","restrict_hosts":["example.com"]}`), nil)
	if r.Envelope.Status != surface.StatusBlocked || !strings.Contains(string(r.Envelope.Facts), `"host":"evil.test"`) || !strings.Contains(r.Envelope.Summary, "evil.test") {
		t.Fatalf("host refusal: %s", r.JSON)
	}
}

func TestSucceededEnvelopeAndSnapshot(t *testing.T) {
	var audit []AuditRecord
	h := &readHandler{}
	p := newTest(h, &audit)
	r := p.Call(context.Background(), "s9", "browser_read", []byte(`{"restrict_hosts":["example.com"]}`), nil)
	if r.Envelope.Status != surface.StatusSucceeded || r.IsError() || r.Envelope.Readiness != surface.ReadinessComplete {
		t.Fatalf("%s", r.JSON)
	}
	if h.inv == nil || h.inv.Session != "s9" || h.inv.Authority.AdmitHost("other.org") == nil {
		t.Fatal("handler did not see the narrowed authority snapshot")
	}
	if !strings.HasPrefix(r.Envelope.Invocation, "inv_") || len(audit) != 1 || audit[0].Tool != "browser_read" {
		t.Fatalf("invocation/audit: %s %+v", r.Envelope.Invocation, audit)
	}
	if strings.Contains(strings.ToLower(string(mustJSON(audit[0]))), "hello") {
		t.Fatal("audit record carries page text")
	}
}

func TestPanicBecomesInternalFailure(t *testing.T) {
	var audit []AuditRecord
	p := newTest(&readHandler{}, &audit)
	r := p.Call(context.Background(), "s1", "browser_find", []byte(`{"text":"x"}`), nil)
	if r.Envelope.Status != surface.StatusUnknown || r.Envelope.RepeatSafe || !strings.Contains(string(r.Envelope.Facts), "internal") {
		t.Fatalf("%s", r.JSON)
	}
}

func TestUnknownEffectIsNeverRepeatSafe(t *testing.T) {
	var audit []AuditRecord
	p := newTest(&readHandler{}, &audit)
	inv := &Invocation{ID: "inv_x", Tool: "browser_click", p: p}
	r := p.finish(inv, time.Now(), nil, &surface.BrowserClickFacts{Tab: "tab_1"}, surface.Outcome{Status: surface.StatusUnknown, Effect: surface.EffectUnknown, RepeatSafe: true, Summary: "x"})
	if r.Envelope.RepeatSafe {
		t.Fatal("unknown effect marked repeat-safe")
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func BenchmarkPipelineOverhead(b *testing.B) {
	var audit []AuditRecord
	p := New(Options{Handler: &readHandler{}, Authority: func() *governance.Authority { return governance.AllOpen("auto") }, Audit: func(r AuditRecord) { audit = audit[:0] }})
	args := []byte(`{"max_chars":1000}`)
	b.ReportAllocs()
	for b.Loop() {
		p.Call(context.Background(), "s1", "browser_read", args, nil)
	}
}
