package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// auditInvocations reads the invocation and tool of every line of an audit file.
func auditInvocations(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct{ Kind, Tool, Policy string }
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		if l.Kind == audit.KindFile || l.Kind == audit.KindBegin {
			continue // a file header; a required audit's begin line
		}
		out = append(out, l.Tool+" "+l.Policy)
	}
	return out
}

// writeWhole replaces a layer file the way editors do: a new file renamed
// over the old.
func writeWhole(t *testing.T, path, src string) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestLivePolicyReloadAuditAndStartup: a layer file edited between calls
// moves the audit (audit.path, max_bytes, keep) from the next call on, and
// the snapshot's digest changes; a changed browser.startup leaves the
// running browser as it started, and policy_explain says which posture is in
// force and which is pending.
func TestLivePolicyReloadAuditAndStartup(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Page</title><p>page</p>`)
	}))
	defer page.Close()
	dir := shortTempDir(t)
	first, second := filepath.Join(dir, "first.jsonl"), filepath.Join(dir, "second.jsonl")
	env := policyEnv(t, dir, "", "", fmt.Sprintf("audit: path: %q\n", first))
	ws := filepath.Join(dir, "ws.cue")
	s := startPolicy(t, env, "--log-level", "info")

	before := explainFacts(t, s)
	if before.Startup != "auto" || before.Note != "" {
		t.Fatalf("before the edit: startup %q, note %q", before.Startup, before.Note)
	}
	if _, e := s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/one"}); e.Status != surface.StatusSucceeded {
		t.Fatalf("navigate: %+v", e)
	}
	writeWhole(t, ws, fmt.Sprintf("audit: {path: %q, max_bytes: %d, keep: 2}\nbrowser: startup: \"manual\"\n", second, surface.AuditMaxBytesMin))

	after := explainFacts(t, s)
	if after.Digest == before.Digest {
		t.Fatalf("the digest did not change with the layers: %s", after.Digest)
	}
	// browser.startup: the layers now say manual; the browser in use started
	// under auto, and keeps serving.
	if after.Startup != "manual" || !strings.Contains(after.Note, "browser.startup is manual now, but the browser in use started under auto: manual applies from the next browser start") {
		t.Fatalf("after the edit: startup %q, note %q", after.Startup, after.Note)
	}
	if _, e := s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/two"}); e.Status != surface.StatusSucceeded {
		t.Fatalf("the running browser stopped serving after the startup change: %+v", e)
	}
	// audit.*: every call before the edit is in the first file, every call
	// from the first one after it in the second, each with its digest.
	one, two := auditInvocations(t, first), auditInvocations(t, second)
	want1 := []string{"policy_explain " + before.Digest, "browser_navigate " + before.Digest}
	want2 := []string{"policy_explain " + after.Digest, "browser_navigate " + after.Digest}
	if strings.Join(one, "|") != strings.Join(want1, "|") || strings.Join(two, "|") != strings.Join(want2, "|") {
		t.Fatalf("audit lines: first %v, second %v", one, two)
	}
	if fi, err := os.Stat(second); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the reopened audit: %v %v", fi, err)
	}
	if !strings.Contains(s.stderr.String(), "audit settings changed by the policy") {
		t.Errorf("the log does not say the audit moved:\n%s", s.stderr.String())
	}
	// The new max_bytes holds: the second file rotates at it, keeping 2.
	for i := 0; i < 40; i++ {
		s.call(t, "policy_explain", map[string]any{})
	}
	if _, err := os.Stat(second + ".1"); err != nil {
		t.Fatalf("the second file did not rotate at the reloaded max_bytes: %v", err)
	}
	if _, err := os.Stat(second + ".3"); err == nil {
		t.Fatal("more rotated files than the reloaded keep")
	}
}
