// Command bench-live measures Ghostlight against the browser itself, in one
// process on one browser: each routine step through Ghostlight's whole
// pipeline (an in-process MCP client on the edge's stdio transport) and as
// the fewest raw DevTools calls doing the same work (the floor), then a small
// shop task step by step and as one browser_flow. It prints the figures and
// writes them to docs/performance.md (make bench-live).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/server"
	"github.com/ghostlight-dev/ghostlight/tools/bench-live/shop"
)

func main() {
	reps := flag.Int("n", 40, "repetitions of each routine step, each way")
	taskReps := flag.Int("task", 5, "repetitions of the shop task, each way")
	out := flag.String("out", "docs/performance.md", "where to write the figures (empty: nowhere)")
	corpus := flag.Int("corpus", 0, "instead: run the widget corpus this many times on Ghostlight and on chrome-devtools-mcp, and splice the byte table into -out")
	flag.Parse()
	var err error
	if *corpus > 0 {
		err = runCorpus(*corpus, *out)
	} else {
		err = run(*reps, *taskReps, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-live:", err)
		os.Exit(1)
	}
}

// thinkTime stands for a model's time between calls after a new tab: long
// enough for the session to go idle and its spare window to be made.
const thinkTime = 2*time.Duration(surface.SpareIdleMsMax)*time.Millisecond + 300*time.Millisecond

// stepRow is one routine step's figures.
type stepRow struct {
	name               string
	ghost, floor       time.Duration // medians
	same               time.Duration // median of the same calls at their smallest (0: not measured)
	wire               time.Duration // median time Ghostlight had a DevTools call outstanding in the step
	textBytes, rawByte int
	calls              int64 // DevTools calls Ghostlight made (median)
}

// taskRow is one way of running the shop task.
type taskRow struct {
	way       string
	calls     int
	wall      time.Duration // median
	textBytes int
}

func run(reps, taskReps int, out string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	site := httptest.NewServer(shop.Handler())
	defer site.Close()
	base := site.URL

	// One browser: Ghostlight launches it, as it does when served, and the
	// floor drives an incognito context of the same browser.
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(server.Config{Logger: log, Version: "bench",
		// The benchmark drives the same browser beside Ghostlight, through a
		// DevTools port the server itself never opens.
		Browser: browser.Config{Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER"),
			ExposeDevToolsPort: true}})
	if err != nil {
		return err
	}
	defer func() { _ = srv.Close(context.Background()) }()
	c, err := startClient(ctx, srv.Edge())
	if err != nil {
		return err
	}
	if _, err := c.must("browser_navigate", `{"url":"`+base+`/page","reuse":"never"}`); err != nil {
		return err
	}
	wsURL := srv.Browser().DevToolsURL()
	if wsURL == "" {
		return fmt.Errorf("the browser is not connected")
	}
	rb := rod.New().ControlURL(wsURL)
	if err := rb.Connect(); err != nil {
		return err
	}
	inc, err := rb.Incognito()
	if err != nil {
		return err
	}
	fp, err := inc.Page(protoBlank())
	if err != nil {
		return err
	}
	fp.EnableDomain(&proto.PageEnable{}) // once, as a client keeps it
	f := &floor{b: inc, p: fp, base: base}
	if _, err := f.navigate(); err != nil {
		return err
	}
	rows, err := routine(c, f, base, reps, srv.Browser().ProtocolCalls, srv.Browser().ProtocolBusy)
	if err != nil {
		return err
	}
	tasks, err := shopTask(c, base, taskReps)
	if err != nil {
		return err
	}
	fixed, err := fixedCost(c, reps)
	if err != nil {
		return err
	}
	report := render(rows, tasks, fixed, reps, taskReps)
	fmt.Print(report)
	if out != "" {
		// Only its own block: the corpus table (-corpus) and the sections
		// written by hand from other benchmarks stay as they are.
		return spliceBlock(out, "routine", report)
	}
	return nil
}

// routine runs every step reps times each way, alternating, so both ways
// meet the same load.
func routine(c *client, f *floor, base string, reps int, calls func() int64, busy func() time.Duration) ([]stepRow, error) {
	target := func(text string) (string, error) {
		r, err := c.must("browser_find", `{"text":`+jsonString(text)+`}`)
		if err != nil {
			return "", err
		}
		t, _ := fact(r, "matches", 0, "target").(string)
		if t == "" {
			return "", fmt.Errorf("find %q: no match: %s", text, r.Text)
		}
		return t, nil
	}
	type step struct {
		name  string
		setup func() error          // untimed, once
		pre   func() error          // untimed, before each Ghostlight run
		ghost func() (reply, error) // timed
		floor func() (int, error)   // timed
		same  func() (int, error)   // timed: the same calls at their smallest (floor.go), when the step makes several
		after func(r reply) error   // untimed, after each Ghostlight run
		// offPhase: each run (both ways) starts at a random point of the
		// browser's frame interval, as a model's calls do after it thinks.
		// Run back to back, each would start just after the frame the
		// previous one ended at, and wait out nearly a whole frame more.
		offPhase bool
	}
	var far, save, name string
	var rows []stepRow
	steps := []step{
		{name: "navigate", ghost: func() (reply, error) { return c.must("browser_navigate", `{"url":"`+base+`/page"}`) }, floor: f.navigate},
		{name: "execute `document.title`", setup: f.world, ghost: func() (reply, error) { return c.must("browser_execute", `{"script":"document.title"}`) }, floor: f.title, same: f.titleSame},
		{name: "open a link in a new tab and list tabs", ghost: func() (reply, error) {
			a, err := c.must("browser_navigate", `{"url":"`+base+`/other","new_tab":true}`)
			if err != nil {
				return a, err
			}
			b, err := c.must("browser_tabs", `{"action":"list"}`)
			b.Took += a.Took
			b.TextBytes += a.TextBytes
			b.Structure = a.Structure // the new tab's handle, to close it
			return b, err
		}, after: func(r reply) error {
			tab, _ := fact(r, "tab").(string)
			_, err := c.must("browser_tabs", `{"action":"close","tab":"`+tab+`"}`)
			// A model thinks between calls; meanwhile Ghostlight makes the
			// spare window its next new tab takes (runtime/browser/spare.go),
			// and the floor, measured next, does not run beside that.
			time.Sleep(thinkTime)
			return err
		}, floor: f.newTab},
		{name: "scroll to a target and read back", setup: func() (err error) {
			if _, err = c.must("browser_navigate", `{"url":"`+base+`/page"}`); err != nil {
				return err
			}
			far, err = target("The far paragraph")
			return err
		}, pre: func() error {
			_, err := c.must("browser_execute", `{"script":"scrollTo(0, 0)"}`)
			if err == nil {
				_, err = f.eval(`scrollTo(0, 0)`, false)
			}
			return err
		}, ghost: func() (reply, error) { return c.must("browser_scroll", `{"target":"`+far+`"}`) }, floor: f.scroll, same: f.scrollSame},
		{name: "inspect a 12-control form", pre: func() error {
			_, err := c.must("browser_execute", `{"script":"scrollTo(0, 0)"}`)
			return err
		}, ghost: func() (reply, error) { return c.must("browser_inspect", `{}`) }, floor: f.inspect, same: f.inspectSame},
		{name: "click Save", offPhase: true, setup: func() (err error) {
			save, err = target("Save")
			if err == nil {
				// The scroll step left the floor's page down at its far
				// paragraph, where a click at Save's box meets nothing.
				_, err = f.eval(`scrollTo(0, 0)`, false)
			}
			return err
		}, ghost: func() (reply, error) { return c.must("browser_click", `{"target":"`+save+`"}`) }, floor: f.click},
		{name: "type", setup: func() (err error) {
			name, err = target("Name")
			return err
		}, ghost: func() (reply, error) {
			return c.must("browser_type_text", `{"target":"`+name+`","text":"Ada Lovelace","clear_first":true}`)
		}, floor: f.typeText},
	}
	for _, s := range steps {
		if s.setup != nil {
			if err := s.setup(); err != nil {
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
		}
		var g, fl, sm, wi []time.Duration
		var n []int64
		row := stepRow{name: s.name}
		for range reps {
			if s.pre != nil {
				if err := s.pre(); err != nil {
					return nil, fmt.Errorf("%s: %w", s.name, err)
				}
			}
			if s.offPhase {
				offPhase()
			}
			before, busyBefore := calls(), busy()
			r, err := s.ghost()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
			g = append(g, r.Took)
			wi = append(wi, busy()-busyBefore)
			n = append(n, calls()-before)
			row.textBytes = r.TextBytes
			if s.after != nil {
				if err := s.after(r); err != nil {
					return nil, fmt.Errorf("%s: %w", s.name, err)
				}
			}
			if s.offPhase {
				offPhase()
			}
			fr, err := timed(s.floor)
			if err != nil {
				return nil, fmt.Errorf("%s floor: %w", s.name, err)
			}
			fl = append(fl, fr.took)
			row.rawByte = fr.bytes
			if s.same != nil {
				sr, err := timed(s.same)
				if err != nil {
					return nil, fmt.Errorf("%s same calls: %w", s.name, err)
				}
				sm = append(sm, sr.took)
			}
		}
		row.ghost, row.floor, row.wire = median(g), median(fl), median(wi)
		if len(sm) > 0 {
			row.same = median(sm)
		}
		slices.Sort(n)
		row.calls = n[len(n)/2]
		rows = append(rows, row)
	}
	return rows, nil
}

// frameInterval is the browser's animation-frame interval at 60 Hz.
const frameInterval = time.Second / 60

// offPhase sleeps a random part of a frame interval.
func offPhase() { time.Sleep(rand.N(frameInterval)) }

// fixedRow is a call that makes no DevTools call: what the transport and the
// pipeline cost on their own.
type fixedRow struct {
	name string
	took time.Duration // median
}

func fixedCost(c *client, reps int) ([]fixedRow, error) {
	var ping, explain []time.Duration
	for range reps {
		start := time.Now()
		if _, err := c.request("ping", map[string]any{}); err != nil {
			return nil, err
		}
		ping = append(ping, time.Since(start))
		r, err := c.must("policy_explain", `{}`)
		if err != nil {
			return nil, err
		}
		explain = append(explain, r.Took)
	}
	return []fixedRow{{"MCP `ping` (the stdio framing alone)", median(ping)},
		{"`policy_explain` (decode, admit, handler, envelope, fsynced audit line, text block)", median(explain)}}, nil
}

func shopTask(c *client, base string, reps int) ([]taskRow, error) {
	steps := shop.Steps(base)
	confirmed := func(text string) error {
		if !shop.Confirmed(text) {
			return fmt.Errorf("the order was not confirmed with 2 items: %.400s", text)
		}
		return nil
	}
	each := taskRow{way: "Ghostlight, one call per step", calls: len(steps)}
	flow := taskRow{way: "Ghostlight, one `browser_flow`", calls: 1}
	var we, wf []time.Duration
	for range reps {
		start, bytes, last := time.Now(), 0, reply{}
		for _, s := range steps {
			r, err := c.must(s[0], s[1])
			if err != nil {
				return nil, fmt.Errorf("shop step by step: %w", err)
			}
			bytes += r.TextBytes
			last = r
		}
		we = append(we, time.Since(start))
		each.textBytes = bytes
		if err := confirmed(last.Text); err != nil {
			return nil, err
		}
		var fs []string
		for i, s := range steps {
			fs = append(fs, fmt.Sprintf(`{"id":"s%d","tool":"%s","arguments":%s}`, i+1, s[0], s[1]))
		}
		r, err := c.must("browser_flow", `{"timeout_ms":10000,"steps":[`+strings.Join(fs, ",")+`]}`)
		if err != nil {
			return nil, fmt.Errorf("shop flow: %w", err)
		}
		wf = append(wf, r.Took)
		flow.textBytes = r.TextBytes
		if err := confirmed(r.Text); err != nil {
			// Past the capture budget the read is not recorded: check the page.
			e, err2 := c.must("browser_execute", `{"script":"document.body.innerText"}`)
			if err2 != nil || confirmed(e.Text) != nil {
				return nil, err
			}
		}
	}
	each.wall, flow.wall = median(we), median(wf)
	return []taskRow{each, flow}, nil
}

func render(rows []stepRow, tasks []taskRow, fixed []fixedRow, reps, taskReps int) string {
	var b strings.Builder
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(&b, "Generated by `make bench-live` (tools/bench-live) between its markers; do not edit by hand.\n\n")
	fmt.Fprintf(&b, "Run %s on %s/%s, %d CPUs, load average %s; one headless Chromium (launched by Ghostlight as when served, the floor in an incognito context of it), pages served on 127.0.0.1.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	fmt.Fprintf(&b, "## Routine steps\n\nMedians of %d runs each way, alternating. **Ghostlight** is the whole pipeline: an in-process MCP client on the stdio transport, decode, admit, audit, execute, settle, render. **Floor** is the fewest raw DevTools calls doing the same work on the same browser (a click's floor includes the same settling evidence Ghostlight waits for, the DOM unchanged across two animation frames). DevTools calls are those Ghostlight made for the step (some in flight at once); the floor's are in floor.go. **Same calls** is, for a step of several DevTools calls the browser answers in about a millisecond, those calls at their smallest (a probe of a few lines for Ghostlight's settling probe), sent at once without Ghostlight: what the browser itself takes for the step's work and its evidence. **On DevTools** is how long, within Ghostlight's step, at least one of its DevTools calls was outstanding (runtime/browser protocolclock.go): the part of the step spent waiting on the browser, the rest being Ghostlight's own work; **DevTools to them** sets it beside the same calls. Text bytes are the MCP text block a model reads; raw bytes are the floor's protocol result. The verdict says the browser is the floor when Ghostlight takes at most 1.5x the same calls, or when at least two thirds of its step waits on DevTools and its calls take at most 1.5x the same calls (tools/bench-live verdict.go).\n\n", reps)
	b.WriteString("| step | Ghostlight ms | on DevTools ms | floor ms | ratio | same calls ms | DevTools to them | DevTools calls | text bytes | raw bytes | verdict |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, r := range rows {
		same, sameRatio := "", ""
		if r.same > 0 {
			same, sameRatio = fmt.Sprintf("%.1f", ms(r.same)), fmt.Sprintf("%.2f", float64(r.wire)/float64(r.same))
		}
		fmt.Fprintf(&b, "| %s | %.1f | %.1f | %.1f | %.2f | %s | %s | %d | %d | %d | %s |\n", r.name, ms(r.ghost), ms(r.wire), ms(r.floor),
			float64(r.ghost)/float64(r.floor), same, sameRatio, r.calls, r.textBytes, r.rawByte, verdict(r.ghost, r.floor, r.same, r.wire))
	}
	fmt.Fprintf(&b, "\n## Fixed cost\n\nCalls that make no DevTools call, medians of %d: what every step pays before the browser does anything.\n\n| call | ms |\n| --- | ---: |\n", reps)
	for _, f := range fixed {
		fmt.Fprintf(&b, "| %s | %.2f |\n", f.name, ms(f.took))
	}
	fmt.Fprintf(&b, "\n## Shop task\n\nSearch, open two products, add both to the cart, check out, fill the form, place the order, read the confirmation (typed selectors, no find calls). Medians of %d runs each way.\n\n", taskReps)
	b.WriteString("| way | calls | wall ms | text bytes |\n| --- | ---: | ---: | ---: |\n")
	for _, t := range tasks {
		fmt.Fprintf(&b, "| %s | %d | %.0f | %d |\n", t.way, t.calls, ms(t.wall), t.textBytes)
	}
	if len(tasks) == 2 && tasks[0].textBytes > 0 {
		fmt.Fprintf(&b, "\nOne flow's text is %.2f of the step-by-step text.\n", float64(tasks[1].textBytes)/float64(tasks[0].textBytes))
	}
	b.WriteString(`
## Reading the figures

- Where Ghostlight is within 1.5x of the floor on a step that takes tens of milliseconds or more
  (navigate, a click, typing), the browser itself is the floor: loading, the animation frames the
  DOM is watched across, the key events.
- A new tab is under its floor: the session's next new tab takes a blank window Ghostlight made
  while the session was idle (runtime/browser/spare.go), so the call pays for its page and not for
  a new window. The floor makes its window then and there. Between runs the benchmark leaves the
  session idle as a model's thinking would, and the floor does not run beside the window being made.
- A click that changes the DOM waits for two animation frames after the last mutation: at 60 Hz
  that is 17-33 ms after the mutation whatever the tool does (25 ms on average; 23 ms measured
  from the click handler to the second frame callback, median of 40 clicks on headless Chromium
  156), after a press and a release the browser acknowledges in 1.5-3 ms each. The floor waits
  for the same frames. Each click, both ways, starts at a random point of the frame interval, as
  a model's clicks do after it thinks. Chromium's one switch that unpaces frames
  (--disable-frame-rate-limit) was measured and not taken: it halves some clicks, and a page's
  main-thread CSS animation then takes more than a core (BenchmarkFramePacing;
  docs/decisions/frame-clock-stays-the-displays.md).
- An action owes settling one animation frame (docs/decisions/settling-owes-one-frame.md): a
  scroll's event, resize and intersection observers and what a virtualized list renders from them
  run only in the next frame. So an execute that changed nothing waits for the page's next frame
  (up to 16.7 ms at 60 Hz), and a scroll then waits two quiet frames after its scroll event; the
  floor waits for neither, so both are far over 1.5x of it by design (before that rule, at
  2026-12-01: execute 2.3 ms, scroll 3.2 ms, and a find after a scripted scroll could read the rows
  of the scroll before). A click or a keystroke first looks at its target twice, one frame apart
  (pagejs.AwaitActionable: attached, visible, stable, enabled, not covered).
- Steps the browser answers in about a millisecond (inspect; execute and scroll but for their
  frame) are over 1.5x of the floor, which makes one round trip and collects no settling evidence. Ghostlight's execute
  sends three commands at once: the DOM baseline ahead of the script and the probe that proves
  the page quiet right behind it, on the same session (settle.StartAhead, Watch.Behind). A
  scroll sends its reveal the same way; an inspect reads the frame tree beside its walk. The
  renderer answers one session's commands one after another, so the same-calls column (those
  commands at their smallest, sent at once without Ghostlight) is what the browser takes for the
  step's work and its evidence. The on-DevTools column is the part of Ghostlight's step spent
  waiting on the browser. The rest is Ghostlight's own Go work: in an in-process trace of 2,000
  executes, about 0.19 ms passed before the first command was written (MCP framing and mcp-go
  0.09 ms; the handler arming settling 0.1 ms), and about 0.26 ms after the last reply (settling's
  decision, envelope, fsynced audit line, text block, JSON-RPC encoding). Two changes measured
  here cut it: the text block's projection parses the envelope in one pass (render 29 to 11 us),
  and a world sends its long page code once per document, then a stub that names it
  (runtime/browser/pagejs kept.go: an execute's DevTools time 1.93-2.05 to 1.81-1.85 ms).
  Ghostlight's page code still costs more than the smallest probes. Its settling probe also
  counts animation frames, navigations and downloads, its runner bounds a script's result inside
  the page, and its reveal checks the element is rendered before scrolling to it. Runs on this
  2-core machine move these figures by 20-30%, so a verdict near a boundary can flip between runs.
- A flow's structuredContent carries each step's envelope while its capture budget
  (flow_capture_bytes) lasts, as the contract says; its text block gives a succeeded action step
  its row and summary sentence and keeps the envelopes of read-only, failed and last steps (runtime/mcpedge
  textsteps.go), so it saves bytes as well as round trips (held to flow_text_share_pct by
  conformance TestFlowTextShare).
`)
	return b.String()
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }
