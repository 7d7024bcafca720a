package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// actHandler answers browser_read (readHandler), browser_click (touching
// a page and landing on another host) and browser_sequence (a read and a
// click as child steps, through the pipeline's child path).
type actHandler struct {
	readHandler
	clicks int
	// linesAtStep counts the audit lines on disk when the sequence's second
	// step starts: the first step's line must already be there.
	path        string
	linesAtStep int
}

const secretQuery = "token=s3cr3t"

func (h *actHandler) BrowserClick(ctx context.Context, a *surface.BrowserClickArgs) (*surface.BrowserClickFacts, surface.Outcome) {
	h.clicks++
	FromContext(ctx).Touched("https://page.example:8443/form?" + secretQuery)
	return &surface.BrowserClickFacts{Tab: "tab_1", Activated: true, Landing: &surface.Landing{URL: "https://landing.example/done?" + secretQuery, Title: "Done"}},
		surface.Outcome{Effect: surface.EffectApplied, Summary: "Clicked a button on page.example."}
}

func (h *actHandler) BrowserSequence(ctx context.Context, a *surface.BrowserSequenceArgs) (*surface.BrowserSequenceFacts, surface.Outcome) {
	inv := FromContext(ctx)
	read, _ := DecodeChild("browser_read", []byte(`{}`))
	r1 := inv.Child(ctx, "browser_read", read)
	h.linesAtStep = countLines(h.path)
	click, _ := DecodeChild("browser_click", []byte(`{"target":"target_1"}`))
	r2 := inv.Child(ctx, "browser_click", click)
	st := surface.StatusSucceeded
	if r2.Envelope.Status != surface.StatusSucceeded {
		st = surface.StatusFailed
	}
	_ = r1
	return &surface.BrowserSequenceFacts{Tab: "tab_1", TotalSteps: 2}, surface.Outcome{Status: st, Summary: "Ran 2 steps."}
}

// countLines counts the call lines on disk (a file header is not one).
func countLines(p string) int {
	b, _ := os.ReadFile(p)
	return strings.Count(string(b), "\n") - strings.Count(string(b), `"kind":"file"`)
}

func readLines(t *testing.T, p string) []audit.Record {
	t.Helper()
	entries, skipped, err := audit.Tail(p, 0, audit.Filter{})
	if err != nil || skipped != 0 {
		t.Fatalf("tail: %v, %d skipped", err, skipped)
	}
	out := make([]audit.Record, len(entries))
	for i, e := range entries {
		out[i] = e.Record
	}
	return out
}

func journaled(t *testing.T, h surface.Handler, path string) (*Pipeline, *audit.Writer) {
	w := audit.Open(audit.Config{Path: path}, nil)
	t.Cleanup(func() { w.Close() })
	return New(Options{Handler: h, Authority: func() *governance.Authority { return governance.AllOpen("auto") }, Journal: w}), w
}

// Every invocation leaves one line, on disk when the call returns, with
// the fields the audit promises and none of the payload.
func TestAuditLineFields(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	h := &actHandler{path: p}
	pl, _ := journaled(t, h, p)
	ctx := context.Background()

	r := pl.Call(ctx, "sess-1", "browser_read", []byte(`{}`), nil)
	got := readLines(t, p)
	if len(got) != 1 {
		t.Fatalf("%d lines after one call", len(got))
	}
	l := got[0]
	if l.Invocation != r.Envelope.Invocation || l.Workspace != "sess-1" || l.Tool != "browser_read" || l.Status != "succeeded" ||
		l.Effect != "none" || l.Decision != audit.DecisionAllow || strings.Join(l.Capabilities, ",") != "read" ||
		strings.Join(l.Hosts, ",") != "example.com" || l.Policy != governance.AllOpen("auto").Digest() || l.Time.IsZero() || l.V != audit.Version {
		t.Fatalf("read line %+v", l)
	}

	r = pl.Call(ctx, "sess-1", "browser_click", []byte(`{"target":"target_1"}`), nil)
	l = readLines(t, p)[1]
	if l.Invocation != r.Envelope.Invocation || l.Effect != "applied" || strings.Join(l.Capabilities, ",") != "action" ||
		l.Branch != surface.BrowserClickBranchTarget || strings.Join(l.Hosts, ",") != "page.example:8443,landing.example" {
		t.Fatalf("click line %+v", l)
	}

	// Denials name the deciding layer; bad arguments never reach a decision.
	pl.Call(ctx, "sess-2", "browser_click", []byte(`{"target":"target_1","restrict_capabilities":["read"]}`), nil)
	pl.Call(ctx, "sess-2", "browser_navigate", []byte(`{"url":"https://denied.example/?`+secretQuery+`","restrict_hosts":["example.com"]}`), nil)
	pl.Call(ctx, "sess-2", "browser_read", []byte(`{"max_chars":1}`), nil)
	got = readLines(t, p)
	if d := got[2]; d.Decision != audit.DecisionDeny || d.Layer != "restriction" || d.Reason != "capability_denied" || d.Status != "blocked" {
		t.Fatalf("capability denial %+v", d)
	}
	if d := got[3]; d.Decision != audit.DecisionDeny || d.Layer != "restriction" || d.Reason != "host_denied" || strings.Join(d.Hosts, ",") != "denied.example" {
		t.Fatalf("host denial %+v", d)
	}
	if d := got[4]; d.Decision != audit.DecisionNone || d.Reason != "invalid_arguments" || len(d.Capabilities) != 0 {
		t.Fatalf("bad arguments %+v", d)
	}
	if h.clicks != 1 {
		t.Fatalf("%d clicks ran", h.clicks)
	}
	raw, _ := os.ReadFile(p)
	for _, secret := range []string{"s3cr3t", "hello", "Example", "Done", "target_1", "/form", "max_chars"} {
		if strings.Contains(string(raw), secret) {
			t.Fatalf("the audit holds %q:\n%s", secret, raw)
		}
	}
}

// A composite's steps are audited on their own, linked to it, each before
// the next step starts; the composite's line follows them.
func TestAuditCompositeSteps(t *testing.T) {
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	h := &actHandler{path: p}
	pl, _ := journaled(t, h, p)
	r := pl.Call(context.Background(), "s", "browser_sequence", []byte(`{"steps":[{"action":"click","target":"target_1"},{"action":"click","target":"target_2"}]}`), nil)
	got := readLines(t, p)
	if len(got) != 3 || h.linesAtStep != 1 {
		t.Fatalf("%d lines (%d when step 2 started)", len(got), h.linesAtStep)
	}
	parent := r.Envelope.Invocation
	if got[0].Tool != "browser_read" || got[0].Parent != parent || got[1].Tool != "browser_click" || got[1].Parent != parent ||
		got[2].Invocation != parent || got[2].Parent != "" || got[2].Tool != "browser_sequence" {
		t.Fatalf("composite lines %+v", got)
	}
}

// While the audit cannot be written, a call that would change anything is
// refused audit_unavailable (blocked, nothing ran) and reads go on, their
// summary saying the audit is down; a composite is gated step by step.
func TestAuditUnavailableRefusesChanges(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "state")
	os.WriteFile(blocker, []byte("x"), 0o600)
	p := filepath.Join(blocker, "audit.jsonl")
	h := &actHandler{path: p}
	pl, _ := journaled(t, h, p)
	ctx := context.Background()

	r := pl.Call(ctx, "s", "browser_click", []byte(`{"target":"target_1"}`), nil)
	var f map[string]any
	json.Unmarshal(r.Envelope.Facts, &f)
	if h.clicks != 0 || r.Envelope.Status != surface.StatusBlocked || !r.IsError() || f["reason"] != "audit_unavailable" ||
		r.Envelope.Effect != surface.EffectNone || !r.Envelope.RepeatSafe {
		t.Fatalf("click under a broken audit: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, "audit log cannot be written") || !strings.Contains(r.Envelope.Summary, audit.CauseNotDir) ||
		strings.Contains(r.Envelope.Summary, dir) {
		t.Fatalf("summary %q", r.Envelope.Summary)
	}

	r = pl.Call(ctx, "s", "browser_read", []byte(`{}`), nil)
	if h.calls != 1 || r.Envelope.Status != surface.StatusSucceeded || !strings.Contains(r.Envelope.Summary, "audit log cannot be written") {
		t.Fatalf("read under a broken audit: %s", r.JSON)
	}

	r = pl.Call(ctx, "s", "browser_sequence", []byte(`{"steps":[{"action":"click","target":"target_1"},{"action":"click","target":"target_2"}]}`), nil)
	if h.calls != 2 || h.clicks != 0 || r.Envelope.Status != surface.StatusFailed {
		t.Fatalf("sequence under a broken audit: reads %d clicks %d %s", h.calls, h.clicks, r.JSON)
	}

	// Fixed: the held lines (the refusals, the read, the steps) are written
	// first, and changes run again.
	os.Remove(blocker)
	os.Mkdir(blocker, 0o700)
	r = pl.Call(ctx, "s", "browser_click", []byte(`{"target":"target_1"}`), nil)
	if h.clicks != 1 || r.Envelope.Status != surface.StatusSucceeded || strings.Contains(r.Envelope.Summary, "audit") {
		t.Fatalf("click after the fix: %s", r.JSON)
	}
	got := readLines(t, p)
	if len(got) != 6 || got[0].Reason != "audit_unavailable" || got[0].Layer != audit.LayerAudit || got[5].Invocation != r.Envelope.Invocation {
		t.Fatalf("lines after the fix: %+v", got)
	}
}

func TestHostOfKeepsOnlyHosts(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pw@Example.COM:8443/p/a?q=1#f": "example.com:8443",
		"http://127.0.0.1:8080/x":                    "127.0.0.1:8080",
		"http://[::1]:9/":                            "[::1]:9",
		"127.0.0.1:8080":                             "127.0.0.1:8080",
		"localhost:8080":                             "localhost:8080",
		"example.org":                                "example.org",
		"about:blank":                                "",
		"javascript:alert(1)":                        "",
		"data:text/html,hi":                          "",
		"file:":                                      "",
		"file:///etc/shadow":                         "",
		"":                                           "",
		"not a host/with path":                       "",
	} {
		if got := hostOf(in); got != want {
			t.Errorf("hostOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDigestIsStableAndIgnoresRestrictions(t *testing.T) {
	a := governance.AllOpen("auto")
	if a.Digest() != governance.AllOpen("auto").Digest() || a.Digest() == governance.AllOpen("manual").Digest() {
		t.Fatal("digest not a function of the configured authority")
	}
	if n := a.Narrow(surface.Restrictions{Hosts: []string{"example.com"}}); n.Digest() != a.Digest() {
		t.Fatal("a call's restriction changed the policy digest")
	}
	b := governance.New("auto", "org", governance.Layer{Name: "organization", Caps: governance.AllCaps, Hosts: []string{"b.example", "a.example"}})
	c := governance.New("auto", "org", governance.Layer{Name: "organization", Caps: governance.AllCaps, Hosts: []string{"a.example", "b.example"}})
	d := governance.New("auto", "org", governance.Layer{Name: "organization", Caps: governance.AllCaps, Hosts: []string{"a.example"}})
	if b.Digest() != c.Digest() || b.Digest() == d.Digest() {
		t.Fatal("digest depends on host order or ignores hosts")
	}
}

// BenchmarkPipelineJournaled is BenchmarkPipelineOverhead with the durable
// audit: one appended, fsynced line per call.
func BenchmarkPipelineJournaled(b *testing.B) {
	w := audit.Open(audit.Config{Path: filepath.Join(b.TempDir(), "audit.jsonl")}, nil)
	defer w.Close()
	p := New(Options{Handler: &readHandler{}, Authority: func() *governance.Authority { return governance.AllOpen("auto") }, Journal: w})
	args := []byte(`{"max_chars":1000}`)
	b.ReportAllocs()
	for b.Loop() {
		p.Call(context.Background(), "s1", "browser_read", args, nil)
	}
}
