package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/ghostlight-dev/ghostlight/conformance/corpussite"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/server"
)

// corpusDriver turns a task's steps into one server's calls.
type corpusDriver interface {
	name() string
	open(url string) error
	do(act) error
}

// taskRun is one run of one task by one driver.
type taskRun struct {
	ok    bool
	err   string
	calls []loggedCall
}

// browserPath is Debian's Chromium from PATH unless GHOSTLIGHT_BROWSER names
// another; both servers run the same one.
func browserPath() (string, error) {
	if p := os.Getenv("GHOSTLIGHT_BROWSER"); p != "" {
		return p, nil
	}
	for _, n := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium on PATH (make browser installs it)")
}

// runCorpus runs every corpus task runs times on each server, alternating
// which goes first, and prints (and splices into out) the byte table.
func runCorpus(runs int, out string) error {
	dist, err := corpussite.Build("conformance/corpus")
	if err != nil {
		return err
	}
	site, err := corpussite.New(dist)
	if err != nil {
		return err
	}
	defer site.Close()
	path, err := browserPath()
	if err != nil {
		return err
	}
	srv, err := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Version: "bench",
		Browser: browser.Config{Headless: true, Path: path}})
	if err != nil {
		return err
	}
	defer func() { _ = srv.Close(context.Background()) }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gc, err := startClient(ctx, srv.Edge())
	if err != nil {
		return err
	}
	pc, stop, err := startPeer(path)
	if err != nil {
		return err
	}
	defer stop()
	glog, plog := &callLog{}, &callLog{}
	drivers := []corpusDriver{&ghostDriver{c: gc, log: glog}, &peerDriver{c: pc, log: plog}}
	logs := []*callLog{glog, plog}
	tasks := corpusTasks()
	results := make([][][]taskRun, len(tasks)) // task, driver, run
	for i := range results {
		results[i] = make([][]taskRun, len(drivers))
	}
	for run := 0; run < runs; run++ {
		for ti, task := range tasks {
			for k := range drivers {
				di := (k + run) % len(drivers)
				d, l := drivers[di], logs[di]
				l.reset()
				site.Reset()
				tr := runTask(site, d, task)
				tr.calls = slices.Clone(l.calls)
				results[ti][di] = append(results[ti][di], tr)
				status := "ok"
				if !tr.ok {
					status = "FAILED: " + tr.err
				}
				fmt.Fprintf(os.Stderr, "run %d %-55s %-20s %2d calls %6d B  %s\n", run+1, task.name, d.name(), len(tr.calls), textOf(tr.calls), status)
			}
		}
	}
	report := renderCorpus(tasks, drivers, results, runs)
	fmt.Print(report)
	if out == "" {
		return nil
	}
	return spliceBlock(out, "corpus", report)
}

func runTask(site *corpussite.Site, d corpusDriver, task corpusTask) taskRun {
	page := task.report
	if page == "" {
		page = task.page
	}
	if err := d.open(site.A + "/" + task.page); err != nil {
		return taskRun{err: err.Error()}
	}
	// The page's first report says its bundle ran; a model's first call
	// after a navigate meets the page in the same state.
	if _, err := site.Wait(page, "its first state", 10*time.Second, func(map[string]any) bool { return true }); err != nil {
		return taskRun{err: err.Error()}
	}
	for _, a := range task.steps {
		if err := d.do(a); err != nil {
			return taskRun{err: clip(err.Error(), 300)}
		}
	}
	if _, err := site.Wait(page, "the task done", 5*time.Second, task.done); err != nil {
		return taskRun{err: clip(err.Error(), 300)}
	}
	return taskRun{ok: true}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func textOf(calls []loggedCall) (n int) {
	for _, c := range calls {
		n += c.text
	}
	return n
}

func structuredOf(calls []loggedCall) (n int) {
	for _, c := range calls {
		n += c.structured
	}
	return n
}

func medianInt(v []int) int {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func renderCorpus(tasks []corpusTask, drivers []corpusDriver, results [][][]taskRun, runs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Widget corpus beside chrome-devtools-mcp\n\n")
	fmt.Fprintf(&b, "The %d tasks of the widget corpus (conformance/corpus: real UI libraries from npm, pinned), each run %d times on each server, alternating which goes first, in one process on this machine's Chromium (`make bench-corpus`, tools/bench-live corpus*.go). Each server is driven as its tools invite: Ghostlight inspects once and acts by semantic selectors (role and name), finds text that is not a control, waits for what an action brings up; chrome-devtools-mcp %s takes a snapshot, acts by the snapshot's uid, takes a new one when the element is not in the last (or the uid is refused), and waits for text. A task passes when the page itself reported the end state to the test server. **Text** is the MCP text blocks a model reads (medians over runs, summed over tasks); Ghostlight's structuredContent, which Claude Code reads instead of the text, is in its own column.\n\n", len(tasks), runs, peerVersion)
	fmt.Fprintf(&b, "| Task | Ghostlight passed | calls | text B | structured B | chrome-devtools-mcp passed | calls | text B | text ratio |\n|---|---|---|---|---|---|---|---|---|\n")
	var totG, totGS, totP, callsG, callsP, passG, passP int
	for ti, t := range tasks {
		row := make([][4]int, len(drivers)) // passed, calls, text, structured
		for di := range drivers {
			var calls, text, st []int
			for _, r := range results[ti][di] {
				if r.ok {
					row[di][0]++
				}
				calls = append(calls, len(r.calls))
				text = append(text, textOf(r.calls))
				st = append(st, structuredOf(r.calls))
			}
			row[di][1], row[di][2], row[di][3] = medianInt(calls), medianInt(text), medianInt(st)
		}
		g, p := row[0], row[1]
		totG, totGS, totP = totG+g[2], totGS+g[3], totP+p[2]
		callsG, callsP, passG, passP = callsG+g[1], callsP+p[1], passG+g[0], passP+p[0]
		fmt.Fprintf(&b, "| %s | %d/%d | %d | %d | %d | %d/%d | %d | %d | %.2fx |\n", t.name, g[0], runs, g[1], g[2], g[3], p[0], runs, p[1], p[2], ratio(g[2], p[2]))
	}
	fmt.Fprintf(&b, "| **All** | %d/%d | %d | **%d** | %d | %d/%d | %d | **%d** | **%.2fx** |\n\n", passG, runs*len(tasks), callsG, totG, totGS, passP, runs*len(tasks), callsP, totP, ratio(totG, totP))

	fmt.Fprintf(&b, "Per call, by step (median text bytes of one call over every run of every task; a receipt is the answer to an action without a landing):\n\n| Step | Ghostlight calls | Ghostlight B | chrome-devtools-mcp calls | chrome-devtools-mcp B |\n|---|---|---|---|---|\n")
	kinds := []string{"click", "select", "type", "key", "fill", "drag", "observe", "find", "wait", "scroll", "open"}
	for _, k := range kinds {
		var per [2][]int
		for ti := range tasks {
			for di := range drivers {
				for _, r := range results[ti][di] {
					for _, c := range r.calls {
						if c.kind == k {
							per[di] = append(per[di], c.text)
						}
					}
				}
			}
		}
		if len(per[0])+len(per[1]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", k, len(per[0]), medianInt(per[0]), len(per[1]), medianInt(per[1]))
	}
	fmt.Fprintf(&b, "\nA receipt is where the two differ most, by design. The contract (the result envelope) puts the summary and the whole envelope, as compact JSON, in the text block, so that a client ignoring structuredContent still receives every fact: the control and host acted on, the effect, the page's readiness, whether a repeat is safe, the tab. chrome-devtools-mcp's answer to a click is one sentence naming none of these (\"Successfully clicked on the element\"). Ghostlight's receipts therefore stay above the peer's per call; the task set comes under the peer's because Ghostlight observes in a compact table, waits inside the action instead of in a separate call, and needs no second observation to act on what an action brought up.\n")
	var fails []string
	for ti, t := range tasks {
		for di, d := range drivers {
			for run, r := range results[ti][di] {
				if !r.ok {
					fails = append(fails, fmt.Sprintf("- %s, %s, run %d: %s", d.name(), t.name, run+1, strings.ReplaceAll(r.err, "\n", " ")))
				}
			}
		}
	}
	if len(fails) > 0 {
		fmt.Fprintf(&b, "\nFailed runs:\n\n%s\n", strings.Join(fails, "\n"))
	}
	return b.String()
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// spliceBlock writes block into the file between its markers, replacing
// what they held, or appends it with its markers.
func spliceBlock(path, name, block string) error {
	begin, end := "<!-- bench-live "+name+" begin -->", "<!-- bench-live "+name+" end -->"
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	s := string(old)
	framed := begin + "\n" + block + end + "\n"
	if i, j := strings.Index(s, begin), strings.Index(s, end); i >= 0 && j > i {
		s = s[:i] + framed + strings.TrimPrefix(s[j+len(end):], "\n")
	} else {
		s = strings.TrimRight(s, "\n") + "\n\n" + framed
	}
	return os.WriteFile(path, []byte(s), 0o644)
}
