package tools

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

func TestSequenceRunsStepsThroughThePipeline(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": actFormPage, "/done": `<title>Thanks</title><p>received</p>`}, nil)
	tab := h.actOpen(srv.URL + "/")
	name, send := h.actTarget(tab, "Full name"), h.actTarget(tab, "Send")
	r := h.must("browser_sequence", `{"steps":[`+
		`{"action":"fill","target":"`+name+`","value":"Ada"},`+
		`{"action":"type_text","selector":{"name":"Email"},"text":"a@b.c"},`+
		`{"action":"hover","target":"`+send+`"},`+
		`{"action":"click","target":"`+send+`"},`+
		`{"action":"wait","condition":"text_present","value":"received"}]}`)
	var f surface.BrowserSequenceFacts
	h.facts(r, &f)
	if f.CompletedSteps != 5 || f.TotalSteps != 5 || len(f.Steps) != 5 || f.Tab != tab || r.Envelope.Effect != surface.EffectApplied || r.Envelope.RepeatSafe {
		t.Fatalf("sequence: %s", r.JSON)
	}
	for i, want := range []string{"fill", "type_text", "hover", "click", "wait"} {
		if f.Steps[i].Action != want || f.Steps[i].Status != "succeeded" || f.Steps[i].Summary == "" {
			t.Fatalf("step %d: %+v", i, f.Steps[i])
		}
	}
	if !strings.Contains(f.Steps[3].Summary, "landed on") {
		t.Fatalf("the click step's receipt lost its landing: %q", f.Steps[3].Summary)
	}
	// Each step was audited on its own, as a child of the sequence.
	auditMu <- struct{}{}
	var children []string
	for _, a := range audited {
		if a.Parent == r.Envelope.Invocation {
			children = append(children, a.Tool)
		}
	}
	<-auditMu
	if strings.Join(children, ",") != "browser_fill_form,browser_type_text,browser_hover,browser_click,browser_wait" {
		t.Fatalf("audited children: %v", children)
	}
}

func TestSequenceStopsAtFirstFailure(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": actFormPage}, nil)
	tab := h.actOpen(srv.URL + "/")
	name := h.actTarget(tab, "Full name")
	r := h.call("browser_sequence", `{"timeout_ms":3000,"steps":[`+
		`{"action":"fill","target":"`+name+`","value":"Ada"},`+
		`{"action":"click","selector":{"name":"Nothing is called this"}},`+
		`{"action":"press_key","key":"Enter"}]}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectPartial, surface.ReasonStepFailed)
	var f surface.BrowserSequenceFacts
	h.facts(r, &f)
	if f.CompletedSteps != 1 || f.TotalSteps != 3 || len(f.Steps) != 2 || f.Steps[1].Status != "failed" || r.Envelope.RepeatSafe {
		t.Fatalf("stopped sequence: %s", r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, "Step 2 of 3 (click)") {
		t.Fatalf("summary: %q", r.Envelope.Summary)
	}
	actNoReplay(t, r)
	// Restrictions narrow every step: a click step needs action.
	r = h.call("browser_sequence", `{"restrict_capabilities":["read"],"steps":[{"action":"hover","target":"`+name+`"},{"action":"click","target":"`+name+`"}]}`)
	h.facts(r, &f)
	if r.Envelope.Status != surface.StatusBlocked || f.CompletedSteps != 1 || !strings.Contains(r.Envelope.Summary, "action capability") {
		t.Fatalf("restricted sequence: %s", r.JSON)
	}
	// A step that opens a dialog succeeds; the dialog then blocks the next
	// step, which stops the sequence part way with the dialog named.
	h.must("browser_execute", `{"script":"document.body.insertAdjacentHTML('beforeend', '<button onclick=\"alert(1)\">Alarm</button>')"}`)
	r = h.call("browser_sequence", `{"steps":[{"action":"click","selector":{"name":"Alarm"}},{"action":"press_key","key":"Enter"}]}`)
	actExpect(t, r, surface.StatusBlocked, surface.EffectPartial, surface.ReasonStepFailed)
	if !strings.Contains(string(r.Envelope.Facts), `"dialog_type":"alert"`) || !strings.Contains(strings.Join(r.Envelope.NextSteps, " "), "browser_dialog") {
		t.Fatalf("dialog in a sequence: %s", r.JSON)
	}
	h.must("browser_dialog", `{"action":"accept"}`)
}

// TestPayloadsStayOutOfLogsAndAudit runs the calls that carry payloads
// (typed text, filled values, scripts and results, dialog text, file names)
// through a pipeline whose logs and audit are captured.
func TestPayloadsStayOutOfLogsAndAudit(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	hd, err := New(Options{Browser: testBrowser, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer hd.Close()
	var records []pipeline.AuditRecord
	p := pipeline.New(pipeline.Options{Handler: hd, Logger: log, Authority: func() *governance.Authority { return governance.AllOpen("auto") },
		Audit: func(r pipeline.AuditRecord) { records = append(records, r) }})
	sess := "payloads_" + t.Name()
	defer hd.Release(context.Background(), sess)
	srv := actSite(t, map[string]string{"/": actTypePage + `<button onclick="alert('zq-dialog-zq')">Alarm</button><input type="file" aria-label="Doc">`}, nil)
	call := func(tool, args string) pipeline.Result {
		r := p.Call(context.Background(), sess, tool, []byte(args), nil)
		checkEnvelope(t, tool, r)
		return r
	}
	call("browser_navigate", `{"url":`+quote(srv.URL+"/")+`,"reuse":"never","timeout_ms":30000}`)
	call("browser_type_text", `{"selector":{"name":"Search"},"text":"zq-typed-zq"}`)
	call("browser_fill_form", `{"fields":[{"selector":{"name":"Query"},"value":"zq-filled-zq"}]}`)
	call("browser_type_text", `{"selector":{"name":"Secret"},"text":"zq-password-zq"}`)
	call("browser_execute", `{"script":"'zq-script-zq'"}`)
	call("browser_upload", `{"selector":{"name":"Doc"},"files":[{"name":"zq-name-zq.txt","data_base64":"`+"enEtY29udGVudC16cQ=="+`"}]}`)
	call("browser_click", `{"selector":{"name":"Alarm"}}`)
	call("browser_dialog", `{"action":"respond","text":"zq-answer-zq"}`)
	call("browser_dialog", `{"action":"accept"}`)
	if len(records) < 9 {
		t.Fatalf("%d audit records", len(records))
	}
	var audit strings.Builder
	for _, r := range records {
		audit.WriteString(r.Tool + string(r.Reason) + strings.Join(r.Hosts, ",") + r.Session)
	}
	for _, where := range []string{logs.String(), audit.String()} {
		if strings.Contains(where, "zq-") {
			t.Fatalf("a payload leaked: %s", where)
		}
	}
}
