package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// explainHandler answers browser_read (counted) and policy_explain.
type explainHandler struct {
	readHandler
	explains int
}

func (h *explainHandler) PolicyExplain(ctx context.Context, a *surface.PolicyExplainArgs) (*surface.PolicyExplainFacts, surface.Outcome) {
	h.explains++
	return &surface.PolicyExplainFacts{}, surface.Outcome{Summary: "The policy."}
}

// requiring loads an authority whose user layer says audit.required.
func requiring(t *testing.T, required bool) *governance.Authority {
	t.Helper()
	p := filepath.Join(t.TempDir(), "user.cue")
	src := "audit: required: false\n"
	if required {
		src = "audit: required: true\n"
	}
	os.WriteFile(p, []byte(src), 0o600)
	l, err := governance.Load(governance.Config{Files: []governance.File{{Layer: "user", Path: p}}, DefaultStartup: "auto"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l.Current()
}

// With audit.required and an audit that cannot be written, a read (a tool
// that reaches the browser) is refused before its handler runs, and
// policy_explain (which does not) answers. Without it, the read runs and
// its line is held.
func TestAuditRequiredRefusesEveryBrowserCall(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "state")
	os.WriteFile(blocker, []byte("x"), 0o600)
	for _, required := range []bool{true, false} {
		w := audit.Open(audit.Config{Path: filepath.Join(blocker, "audit.jsonl")}, nil)
		defer w.Close()
		a := requiring(t, required)
		h := &explainHandler{}
		p := New(Options{Handler: h, Authority: func() *governance.Authority { return a }, Journal: w})
		r := p.Call(context.Background(), "s", "browser_read", []byte(`{}`), nil)
		if required {
			if h.calls != 0 || r.Refusal == nil || r.Refusal.Reason != surface.ReasonAuditUnavailable || r.Envelope.Effect != surface.EffectNone ||
				!strings.Contains(r.Envelope.Summary, "only policy_explain answers") {
				t.Fatalf("required: read ran (%d) or answered %+v", h.calls, r.Envelope)
			}
		} else if h.calls != 1 || r.Envelope.Status != surface.StatusSucceeded || !strings.Contains(r.Envelope.Summary, "held in memory") {
			t.Fatalf("not required: read %d, %+v", h.calls, r.Envelope)
		}
		r = p.Call(context.Background(), "s", "policy_explain", []byte(`{}`), nil)
		if h.explains != 1 || r.Envelope.Status != surface.StatusSucceeded {
			t.Fatalf("required %v: policy_explain %+v", required, r.Envelope)
		}
	}
}

// With audit.required, a call runs only after its begin line is on disk:
// the handler finds it there, and the outcome line follows.
func TestAuditRequiredBeginLineBeforeTheCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w := audit.Open(audit.Config{Path: path}, nil)
	defer w.Close()
	a := requiring(t, true)
	var onDisk string
	h := &beginSeer{path: path, seen: &onDisk}
	p := New(Options{Handler: h, Authority: func() *governance.Authority { return a }, Journal: w})
	r := p.Call(context.Background(), "s", "browser_read", []byte(`{}`), nil)
	if !strings.Contains(onDisk, `"kind":"begin"`) || !strings.Contains(onDisk, r.Envelope.Invocation) {
		t.Fatalf("on disk when the handler ran:\n%s", onDisk)
	}
	got := readLines(t, path)
	if len(got) != 1 || got[0].Invocation != r.Envelope.Invocation || got[0].Status != "succeeded" {
		t.Fatalf("outcome lines %+v", got)
	}
	rep, err := audit.Verify(path)
	if err != nil || !rep.OK() || rep.Begun != 1 || rep.Records != 1 {
		t.Fatalf("verify %+v %v", rep, err)
	}
}

type beginSeer struct {
	readHandler
	path string
	seen *string
}

func (h *beginSeer) BrowserRead(ctx context.Context, a *surface.BrowserReadArgs) (*surface.BrowserReadFacts, surface.Outcome) {
	b, _ := os.ReadFile(h.path)
	*h.seen = string(b)
	return h.readHandler.BrowserRead(ctx, a)
}
