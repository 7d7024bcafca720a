package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// api serves the JSON (and SSE, GIF) endpoints under api/.
// scope is the session's tab ("" for the whole workbench): a tab's session
// lists that tab alone.
func (w *Workbench) api(rw http.ResponseWriter, r *http.Request, name, scope string) {
	get := r.Method == http.MethodGet
	switch {
	case name == "config" && get:
		writeJSON(rw, map[string]any{"poll_ms": w.o.Limits.PollMs})
	case name == "policy" && get:
		writeJSON(rw, policyView(w.o.Policy()))
	case name == "status" && get:
		writeJSON(rw, map[string]any{"audit": w.o.AuditStatus()})
	case name == "activity" && get:
		w.activity(rw, r)
	case name == "tabs" && get:
		tabs := []Tab{}
		for _, t := range w.o.Browser.Tabs() {
			if scope == "" || t.Tab == scope {
				tabs = append(tabs, t)
			}
		}
		writeJSON(rw, map[string]any{"tabs": tabs})
	case name == "recordings" && get:
		recs := w.o.Browser.Recordings()
		if recs == nil {
			recs = []Recording{}
		}
		writeJSON(rw, map[string]any{"recordings": recs})
	case name == "recording.gif" && get:
		w.gif(rw, r)
	case name == "live" && get:
		w.stream(rw, r)
	case name == "input" && r.Method == http.MethodPost:
		w.input(rw, r)
	case name == "handback" && r.Method == http.MethodPost:
		tab := r.URL.Query().Get("tab")
		if !handleLike(tab) {
			refuse(rw, http.StatusBadRequest, "/tab", "handle", "tab must be a tab handle")
			return
		}
		// answer: a confirmation's once, page or refuse (absent: once).
		answer := r.URL.Query().Get("answer")
		ok := false
		switch an, can := w.o.Browser.(Answerer); {
		case answer == "":
			ok = w.o.Browser.HandBack(tab)
		case !answers[answer]:
			refuse(rw, http.StatusBadRequest, "/answer", "enum", "answer must be once, page or refuse")
			return
		case can:
			ok = an.Answer(tab, answer)
		}
		if !ok {
			refuse(rw, http.StatusNotFound, "/tab", "handoff", "that tab has no credential handoff open")
			return
		}
		rw.WriteHeader(http.StatusNoContent)
	case name == "clear-site" && r.Method == http.MethodPost:
		tab := r.URL.Query().Get("tab")
		if !handleLike(tab) {
			refuse(rw, http.StatusBadRequest, "/tab", "handle", "tab must be a tab handle")
			return
		}
		sc, ok := w.o.Browser.(SiteClearer)
		if !ok {
			http.NotFound(rw, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), w.o.Limits.InputTimeout)
		defer cancel()
		if err := sc.ClearSite(ctx, tab); err != nil {
			if errors.Is(err, ErrNotFound) {
				refuse(rw, http.StatusNotFound, "/tab", "handle", "no such tab")
				return
			}
			refuse(rw, http.StatusBadGateway, "/tab", "unavailable", "the site could not be cleared")
			return
		}
		rw.WriteHeader(http.StatusNoContent)
	case name == "release" && r.Method == http.MethodPost:
		tab := r.URL.Query().Get("tab")
		if !handleLike(tab) {
			refuse(rw, http.StatusBadRequest, "/tab", "handle", "tab must be a tab handle")
			return
		}
		if !w.o.Browser.Release(tab) {
			refuse(rw, http.StatusNotFound, "/tab", "release", "that tab holds no credential of yours")
			return
		}
		rw.WriteHeader(http.StatusNoContent)
	default:
		http.NotFound(rw, r)
	}
}

// capabilityLine is one capability as the Policy destination shows it.
type capabilityLine struct {
	Capability string `json:"capability"`
	Allowed    bool   `json:"allowed"`
	Layer      string `json:"layer"`
	Where      string `json:"where,omitempty"` // file:line:col of the deciding layer
}

// policyView is the same compilation policy_explain returns
// (Authority.Explain), rendered for a person with the files that decided
// each line, as `ghostlight explain` prints it.
func policyView(a *governance.Authority) map[string]any {
	f := a.Explain()
	where := a.Locate()
	caps := make([]capabilityLine, 0, len(f.Capabilities))
	for _, c := range f.Capabilities {
		caps = append(caps, capabilityLine{Capability: string(c.Capability), Allowed: c.Allowed, Layer: c.Layer, Where: where(c.Layer, "/capabilities/"+string(c.Capability))})
	}
	files := []map[string]string{}
	for _, fl := range a.Files() {
		files = append(files, map[string]string{"layer": fl[0], "path": fl[1]})
	}
	return map[string]any{"situation": f.Situation, "capabilities": caps, "lines": governance.Render(f, where), "files": files}
}

// activityEntry is one audit line as Activity shows it: the record's
// fields, which never hold a payload.
type activityEntry struct {
	audit.Record
}

func (w *Workbench) activity(rw http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := audit.Filter{Workspace: q.Get("session"), Tool: q.Get("tool"), Status: q.Get("status")}
	for ptr, v := range map[string]string{"/session": f.Workspace, "/tool": f.Tool, "/status": f.Status} {
		if len(v) > 200 || !utf8.ValidString(v) {
			refuse(rw, http.StatusBadRequest, ptr, "max_length", "filters are at most 200 characters of UTF-8")
			return
		}
	}
	path := w.o.AuditPath()
	out := map[string]any{"path": path, "entries": []activityEntry{}}
	if path == "" {
		out["error"] = "this server writes no audit file"
		writeJSON(rw, out)
		return
	}
	entries, skipped, err := audit.Tail(path, w.o.Limits.ActivityLines, f)
	if err != nil {
		out["error"] = "the audit file cannot be read"
		w.log.Warn("workbench: audit unreadable", "err", err)
	}
	list := make([]activityEntry, 0, len(entries))
	for i := len(entries) - 1; i >= 0; i-- { // newest first
		list = append(list, activityEntry{entries[i].Record})
	}
	out["entries"], out["skipped"] = list, skipped
	writeJSON(rw, out)
}

func (w *Workbench) gif(rw http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	data, err := w.o.Browser.RecordingGIF(q.Get("session"), q.Get("handle"))
	if errors.Is(err, ErrNotFound) {
		http.Error(rw, "That recording is no longer in memory.", http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(rw, "The recording cannot be encoded.", http.StatusInternalServerError)
		return
	}
	rw.Header().Set("Content-Type", "image/gif")
	_, _ = rw.Write(data)
}

func writeJSON(rw http.ResponseWriter, v any) {
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(v)
}

// refuse answers a refused request: the field (JSON Pointer) and the rule,
// never the value sent.
func refuse(rw http.ResponseWriter, status int, pointer, rule, msg string) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	_ = json.NewEncoder(rw).Encode(map[string]string{"error": msg, "pointer": pointer, "rule": rule})
}
