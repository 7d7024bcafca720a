package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
)

// startStdioEnv starts the binary over stdio with extra environment (a
// policy layer) and hands back the process, so a test can kill it.
func startStdioEnv(t *testing.T, env []string, args ...string) (*liveServer, *exec.Cmd) {
	t.Helper()
	tmp := shortTempDir(t)
	t.Cleanup(func() { killUnder(t, tmp) })
	stderr := &lockedWriter{w: &bytes.Buffer{}}
	var cmd *exec.Cmd
	spawn := func(ctx context.Context, command string, e, args []string) (*exec.Cmd, error) {
		cmd = exec.Command(command, args...)
		cmd.Env = append(os.Environ(), e...)
		return cmd, nil
	}
	c, err := client.NewStdioMCPClientWithOptions(serverBinary(t), append([]string{"TMPDIR=" + tmp}, env...), append([]string{"serve"}, args...),
		transport.WithCommandStderrWriter(stderr), transport.WithCommandFunc(spawn))
	if err != nil {
		t.Fatal(err)
	}
	return initialized(t, c, tmp, stderr), cmd
}

// immutable sets or clears the file's immutable flag (chattr): writes
// through the server's open descriptor then fail with EPERM, as a file
// made unwritable under a running server does. chmod would not do: the
// descriptor stays writable, and the tests run as root.
func immutable(t *testing.T, path string, on bool) {
	t.Helper()
	flag := "-i"
	if on {
		flag = "+i"
	}
	if out, err := exec.Command("chattr", flag, path).CombinedOutput(); err != nil {
		t.Fatalf("chattr %s %s: %v %s (the test needs CAP_LINUX_IMMUTABLE)", flag, path, err, out)
	}
}

// answer is one call as the client saw it answered.
type answer struct {
	tool, inv, status, reason, summary string
	phase                              int // 0 healthy, 1 the audit unwritable
}

// invocationsOnDisk reads every line of every audit file (begin lines and
// outcomes) for the invocations they name.
func invocationsOnDisk(t *testing.T, path string) map[string]bool {
	t.Helper()
	files, _ := audit.Files(path)
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			var r audit.Record
			if json.Unmarshal(line, &r) == nil && r.Invocation != "" {
				seen[r.Invocation] = true
			}
		}
	}
	return seen
}

// TestLiveAuditAcknowledgedCallsSurviveSIGKILL: three clients fire clicks,
// reads and navigations at the real binary while the audit rotates every
// few lines (max_bytes 4096); the live audit file is then made immutable
// and the server is SIGKILLed with calls in flight. With audit.required,
// every call that ran (every answer but an audit_unavailable refusal) is on
// disk, and the chain verifies. Without it, clicks are refused while the
// audit is down but reads and navigations run with their lines held in
// memory, which the kill loses: the answers said so.
func TestLiveAuditAcknowledgedCallsSurviveSIGKILL(t *testing.T) {
	page := auditPage(t)
	for _, required := range []bool{true, false} {
		t.Run(fmt.Sprintf("required=%v", required), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state", "audit.jsonl")
			user := filepath.Join(dir, "user.cue")
			os.WriteFile(user, []byte(fmt.Sprintf("audit: {required: %v, max_bytes: %d, keep: %d}\n", required, surface.AuditMaxBytesMin, surface.AuditKeepMax)), 0o600)
			s, cmd := startStdioEnv(t, []string{"GHOSTLIGHT_USER_POLICY=" + user}, "--audit-path", path)
			if _, nav := s.call(t, "browser_navigate", map[string]any{"url": page.URL + "/", "timeout_ms": surface.TimeoutMsMax}); nav.Status != surface.StatusSucceeded {
				t.Fatalf("navigate: %+v", nav)
			}
			const healthy, down = 45, 24 // answers in each phase before the switch
			var mu sync.Mutex
			var answers []answer
			phase := 0
			counts := [2]int{}
			reached := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
			stop := make(chan struct{})
			var wg sync.WaitGroup
			calls := []struct {
				tool string
				args map[string]any
			}{
				{"browser_click", map[string]any{"selector": map[string]any{"name": "Save"}}},
				{"browser_read", map[string]any{}},
				{"browser_navigate", map[string]any{"url": page.URL + "/"}},
			}
			for g := range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						c := calls[(g+i)%len(calls)]
						req := mcp.CallToolRequest{}
						req.Params.Name, req.Params.Arguments = c.tool, c.args
						mu.Lock()
						ph := phase
						mu.Unlock()
						ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
						res, err := s.c.CallTool(ctx, req)
						cancel()
						if err != nil {
							return // the server was killed: this call was never answered
						}
						raw, _ := json.Marshal(res.StructuredContent)
						var env surface.Envelope
						json.Unmarshal(raw, &env)
						var f struct {
							Reason string `json:"reason"`
						}
						json.Unmarshal(env.Facts, &f)
						mu.Lock()
						if phase != ph {
							ph = -1 // began before the switch, answered after: counted in neither phase
						}
						answers = append(answers, answer{c.tool, env.Invocation, string(env.Status), f.Reason, env.Summary, ph})
						if ph >= 0 {
							counts[ph]++
							if counts[ph] == map[int]int{0: healthy, 1: down}[ph] {
								close(reached[ph])
							}
						}
						mu.Unlock()
					}
				}()
			}
			<-reached[0]
			mu.Lock()
			immutable(t, path, true)
			phase = 1
			mu.Unlock()
			t.Cleanup(func() { immutable(t, path, false) })
			<-reached[1]
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			close(stop)
			wg.Wait()
			immutable(t, path, false)

			onDisk := invocationsOnDisk(t, path)
			files, _ := audit.Files(path)
			var ran, refused, missing, missingHeld, downActions, downActionsRun int
			for _, a := range answers {
				if a.reason == string(surface.ReasonAuditUnavailable) {
					refused++
					continue
				}
				ran++
				if a.phase == 1 && a.tool == "browser_click" {
					downActionsRun++
				}
				if !onDisk[a.inv] {
					missing++
					if strings.Contains(a.summary, "held in memory") {
						missingHeld++
					}
				}
			}
			for _, a := range answers {
				if a.phase == 1 && a.tool == "browser_click" {
					downActions++
				}
			}
			rep, err := audit.Verify(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("required=%v: %d answers (%d healthy, %d with the audit unwritable, %d across the switch) over %d audit files; %d ran, %d refused audit_unavailable; %d of the calls that ran are on disk, %d are not (%d of those answers said their line was held in memory); clicks while unwritable: %d, %d of them ran; verify: %d lines, %d records, %d begin lines, %d problems",
				required, len(answers), counts[0], counts[1], len(answers)-counts[0]-counts[1], len(files), ran, refused, ran-missing, missing, missingHeld, downActions, downActionsRun, rep.Lines, rep.Records, rep.Begun, len(rep.Problems))
			if len(files) < 4 {
				t.Fatalf("only %d audit files: the run must cross rotations", len(files))
			}
			if !rep.OK() {
				t.Fatalf("the chain breaks after SIGKILL: %+v", rep.Problems)
			}
			if !strings.Contains(s.stderr.String(), "audit cannot be written") || !strings.Contains(s.stderr.String(), "operation not permitted") {
				t.Fatalf("stderr does not name the cause:\n%s", s.stderr.String())
			}
			if required {
				if missing != 0 {
					t.Fatalf("%d calls that ran are on no line", missing)
				}
				if refused < down {
					t.Fatalf("only %d refusals while the audit was unwritable", refused)
				}
				return
			}
			// Not required: clicks are refused while the audit is down (at
			// most one per goroutine ran before the failure was seen), and
			// every call lost to the kill had said its line was held.
			if missing == 0 || missing != missingHeld || downActionsRun > 3 || refused == 0 {
				t.Fatalf("not required: %d missing, %d said held, %d clicks ran while down, %d refused", missing, missingHeld, downActionsRun, refused)
			}
		})
	}
}

// TestLiveAuditRecordsTraceParent: a W3C traceparent in a request's _meta
// is on the call's audit line (begin and outcome under audit.required, and
// a composite's steps); an invalid one is not recorded.
func TestLiveAuditRecordsTraceParent(t *testing.T) {
	page := auditPage(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	user := filepath.Join(dir, "user.cue")
	os.WriteFile(user, []byte("audit: required: true\n"), 0o600)
	s, _ := startStdioEnv(t, []string{"GHOSTLIGHT_USER_POLICY=" + user}, "--audit-path", path)
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	call := func(tool string, args map[string]any, trace string) string {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{"traceparent": trace}}
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		defer cancel()
		res, err := s.c.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(res.StructuredContent)
		var env surface.Envelope
		json.Unmarshal(raw, &env)
		return env.Invocation
	}
	nav := call("browser_navigate", map[string]any{"url": page.URL + "/", "timeout_ms": surface.TimeoutMsMax}, tp)
	seq := call("browser_sequence", map[string]any{"steps": []any{map[string]any{"action": "click", "selector": map[string]any{"name": "Save"}},
		map[string]any{"action": "wait", "condition": "load_ready"}}}, tp)
	bad := call("policy_explain", map[string]any{}, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0")
	files, _ := audit.Files(path)
	traced := map[string]int{}
	var lines []audit.Record
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var r audit.Record
			json.Unmarshal(l, &r)
			lines = append(lines, r)
			if r.TraceParent == tp {
				traced[r.Invocation]++
				if r.Parent == seq {
					traced["steps"]++
				}
			}
			if r.Invocation == bad && r.TraceParent != "" {
				t.Fatalf("an invalid traceparent was recorded: %s", l)
			}
		}
	}
	// navigate and the sequence: a begin line and an outcome each; its two
	// steps too, linked to the sequence.
	if traced[nav] != 2 || traced[seq] != 2 || traced["steps"] != 4 {
		for _, r := range lines {
			t.Logf("%s %s %s %s %s parent=%s tp=%v", r.Kind, r.Invocation, r.Tool, r.Status, r.Reason, r.Parent, r.TraceParent != "")
		}
		t.Fatalf("traced lines %v (nav %s, sequence %s)", traced, nav, seq)
	}
	t.Logf("%d lines; traceparent on %v", len(lines), traced)

}
