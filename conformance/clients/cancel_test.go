package clients

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressLog collects the notifications/progress a client heard.
type progressLog struct {
	mu    sync.Mutex
	got   []progressNote
	first chan struct{}
	once  sync.Once
}

type progressNote struct {
	at       time.Time
	progress float64
	msg      string
}

func newProgressLog() *progressLog { return &progressLog{first: make(chan struct{})} }

func (l *progressLog) add(p *mcp.ProgressNotificationParams) {
	l.mu.Lock()
	l.got = append(l.got, progressNote{time.Now(), p.Progress, p.Message})
	l.mu.Unlock()
	l.once.Do(func() { close(l.first) })
}

func (l *progressLog) notes() []progressNote {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]progressNote(nil), l.got...)
}

// auditLine is what the cancel test reads of the server's audit.
type auditLine struct {
	Invocation string  `json:"invocation"`
	Tool       string  `json:"tool"`
	Status     string  `json:"status"`
	Effect     string  `json:"effect"`
	DurationMs float64 `json:"duration_ms"`
}

// cancelledLine waits for the audit line of a cancelled call of tool.
func cancelledLine(t *testing.T, path, tool string, seen map[string]bool) auditLine {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var l auditLine
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Tool == tool && l.Status == "cancelled" && !seen[l.Invocation] {
				f.Close()
				seen[l.Invocation] = true
				return l
			}
		}
		f.Close()
	}
	b, _ := os.ReadFile(path)
	t.Fatalf("no audit line of a cancelled %s in %s:\n%s", tool, path, tail(string(b)))
	return auditLine{}
}

// TestCancelAndProgress drives a navigation to a page that never answers
// and a wait that never holds, with a progress token, through the Go SDK
// over stdio and HTTP (2025-11-25 and 2026-07-28). The client hears
// progress saying what is happening; cancelling (notifications/cancelled,
// or the end of the request in 2026-07-28) makes the browser drop the hung
// request, the tab serves the next call, and the audit reads cancelled with
// a truthful effect. Cancel latency (cancel sent → the browser dropped the
// request) and the progress interval are logged over the repetitions.
func TestCancelAndProgress(t *testing.T) {
	const reps = 5
	site := newSite(t)
	srv := startHTTP(t)
	var latencies, gaps []time.Duration
	for _, mode := range []struct{ transport, version string }{{stdio, legacy}, {stdio, modern}, {httpMode, legacy}, {httpMode, modern}} {
		t.Run(mode.transport+"/"+mode.version, func(t *testing.T) {
			plog := newProgressLog()
			var cur *progressLog
			var curMu sync.Mutex
			cs, s := connect(t, mode.transport, mode.version, srv, func(p *mcp.ProgressNotificationParams) {
				curMu.Lock()
				l := cur
				curMu.Unlock()
				if l != nil {
					l.add(p)
				}
			})
			nav, _ := call(t, cs, "browser_navigate", map[string]any{"url": site.URL + "/"})
			tab := nav.fact("tab")
			seen := map[string]bool{}
			for i := 0; i < reps; i++ {
				plog = newProgressLog()
				curMu.Lock()
				cur = plog
				curMu.Unlock()
				ctx, cancel := context.WithCancel(context.Background())
				params := &mcp.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"tab": tab, "url": site.URL + "/hang", "timeout_ms": 30000}}
				params.SetProgressToken("nav-" + mode.transport + mode.version)
				done := make(chan error, 1)
				go func() { _, err := cs.CallTool(ctx, params); done <- err }()
				entered := <-site.hangEntered
				_ = entered
				select {
				case <-plog.first:
				case <-time.After(20 * time.Second):
					t.Fatal("no progress within 20 s of a hung navigation")
				}
				sent := time.Now()
				cancel()
				var dropped time.Time
				select {
				case dropped = <-site.hung:
				case <-time.After(20 * time.Second):
					t.Fatal("the browser never dropped the hung request after cancel")
				}
				latencies = append(latencies, dropped.Sub(sent))
				if err := <-done; !errors.Is(err, context.Canceled) {
					t.Fatalf("cancelled call returned %v", err)
				}
				line := cancelledLine(t, s.audit, "browser_navigate", seen)
				// The navigation was sent: the tab may have moved or not.
				if line.Effect != "unknown" && line.Effect != "partial" {
					t.Fatalf("a cancelled navigation says effect %q: %+v", line.Effect, line)
				}
				for _, n := range plog.notes() {
					if !strings.HasPrefix(n.msg, "Navigating to 127.0.0.1") {
						t.Fatalf("progress says %q", n.msg)
					}
				}
				// The tab serves the next call: the browser work stopped.
				if rd, _ := call(t, cs, "browser_read", map[string]any{"tab": tab}); rd.Status != "succeeded" {
					t.Fatalf("read after cancel: %+v", rd)
				}
			}
			// A wait that never holds: progress each beat, then cancel.
			plog = newProgressLog()
			curMu.Lock()
			cur = plog
			curMu.Unlock()
			ctx, cancel := context.WithCancel(context.Background())
			params := &mcp.CallToolParams{Name: "browser_wait", Arguments: map[string]any{"tab": tab, "condition": "text_present", "value": "never on this page", "timeout_ms": 30000}}
			params.SetProgressToken(7)
			done := make(chan error, 1)
			go func() { _, err := cs.CallTool(ctx, params); done <- err }()
			for len(plog.notes()) < 3 {
				time.Sleep(50 * time.Millisecond) // beats come every second
			}
			cancel()
			<-done
			if line := cancelledLine(t, s.audit, "browser_wait", seen); line.Effect != "none" {
				t.Fatalf("a cancelled wait says effect %q", line.Effect)
			}
			notes := plog.notes()
			for i, n := range notes {
				if !strings.HasPrefix(n.msg, "Waiting for text_present, at most 30000 ms") {
					t.Fatalf("wait progress says %q", n.msg)
				}
				if i > 0 {
					gaps = append(gaps, n.at.Sub(notes[i-1].at))
				}
			}
		})
	}
	t.Logf("cancel latency (cancel sent → browser dropped the request), %d runs: %s", len(latencies), spread(latencies))
	t.Logf("progress interval during a wait, %d gaps: %s", len(gaps), spread(gaps))
}

func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return "min " + s[0].Round(time.Millisecond/10).String() + ", median " + s[len(s)/2].Round(time.Millisecond/10).String() + ", max " + s[len(s)-1].Round(time.Millisecond/10).String()
}
