package input

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// globalNames is what a page script can enumerate on its global object.
const globalNames = `JSON.stringify([Object.getOwnPropertyNames(globalThis).sort(), Object.getOwnPropertySymbols(globalThis).map(String)])`

// awaitKept waits for run to hold a runner for generation gen.
func awaitKept(t *testing.T, run *Runner, gen uint64) proto.RuntimeRemoteObjectID {
	t.Helper()
	deadline := time.Now().Add(runnerKeepWait + 5*time.Second)
	for time.Now().Before(deadline) {
		if fn := run.held(gen); fn != "" {
			return fn
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no runner kept for generation %d", gen)
	return ""
}

// onObject calls fn on the remote object id and returns its value.
func onObject(t *testing.T, p *rod.Page, id proto.RuntimeRemoteObjectID, fn string) string {
	t.Helper()
	res, err := proto.RuntimeCallFunctionOn{ObjectID: id, FunctionDeclaration: fn, ReturnByValue: true}.Call(p)
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("call on %s: %v %+v", id, err, res)
	}
	return res.Result.Value.JSON("", "")
}

func TestKeptRunnerIsMadeBehindAnExecuteAndHidden(t *testing.T) {
	p := newPage(t, doc(`<p>x</p>`))
	before := evalStr(t, p, globalNames)
	run := NewRunner()
	res, err := ExecuteKept(tctx(t, 5*time.Second), p, run, 3, "document.title", time.Second, 100, "")
	if err != nil || res.Value != `"t"` {
		t.Fatalf("first execute: %+v, %v", res, err)
	}
	fn := awaitKept(t, run, 3)
	if got := onObject(t, p, fn, `function () { return typeof this }`); got != `"function"` {
		t.Errorf("kept runner is a %s", got)
	}
	if run.held(2) != "" || run.held(4) != "" {
		t.Error("the runner is held for another document generation")
	}
	// Nothing a page script can enumerate names it.
	if after := evalStr(t, p, globalNames); after != before {
		t.Errorf("page globals changed:\nbefore %s\nafter  %s", before, after)
	}
}

// spy keeps, as run's runner for generation gen, a function that counts its
// calls and hands them to the real runner.
func spy(t *testing.T, p *rod.Page, run *Runner, gen uint64) proto.RuntimeRemoteObjectID {
	t.Helper()
	res, err := proto.RuntimeEvaluate{Expression: `(() => { const real = (` + runnerFn + `); const s = function (m, src, f, u) { s.n++; return real(m, src, f, u) }; s.n = 0; return s })()`, ObjectGroup: runnerGroup}.Call(p)
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("spy: %v %+v", err, res)
	}
	run.mu.Lock()
	run.fn, run.gen = res.Result.ObjectID, gen+1
	run.mu.Unlock()
	return res.Result.ObjectID
}

func TestKeptRunnerAnswersAsTheSource(t *testing.T) {
	p := newPage(t, doc(`<div id=d class="a b">x</div><script>window.pageVar = 41;</script>`))
	run := NewRunner()
	s := spy(t, p, run, 0)
	kept := 0
	for _, c := range valueCases {
		res, err := ExecuteKept(tctx(t, 5*time.Second), p, run, 0, c.script, 2*time.Second, 1000, "")
		if err != nil || res.Value != c.want || res.Thrown || res.Truncated {
			t.Errorf("%s: %+v, %v; want value %s", c.script, res, err, c.want)
		}
		if !hasAwait(c.script) {
			kept++
			// A script that awaits nothing finished in its call's task, as through the source.
			if sync := !strings.Contains(c.script, "Promise"); res.Synchronous != sync {
				t.Errorf("%s: synchronous %v", c.script, res.Synchronous)
			}
		}
	}
	res, err := ExecuteKept(tctx(t, 5*time.Second), p, run, 0, "throw new TypeError('no')", time.Second, 1000, "")
	if err != nil || !res.Thrown || res.Message != "TypeError: no" {
		t.Errorf("throw: %+v, %v", res, err)
	}
	res, err = ExecuteKept(tctx(t, 5*time.Second), p, run, 0, "'ab'.repeat(50)", time.Second, 7, "")
	if err != nil || !res.Truncated || res.Value != `"ababab` {
		t.Errorf("cut: %+v, %v", res, err)
	}
	kept += 2
	if n := onObject(t, p, s, `function () { return this.n }`); n != fmt.Sprint(kept) {
		t.Errorf("the kept runner ran %s scripts, want %d", n, kept)
	}
}

func TestKeptRunnerOfAGoneDocument(t *testing.T) {
	pages.Store("/kept-next", doc("<p>next</p>"))
	p := newPage(t, doc(`<p>x</p>`))
	run := NewRunner()
	old := spy(t, p, run, 0)
	if _, err := (proto.PageNavigate{URL: testServer.URL + "/kept-next"}).Call(p); err != nil {
		t.Fatal(err)
	}
	if !waitJS(t, p, "location.pathname === '/kept-next' && document.readyState === 'complete'", 5*time.Second) {
		t.Fatal("page did not navigate")
	}
	// The generation is still the old document's: the handle is tried, found
	// gone before anything ran, and the source runs in the new document.
	res, err := ExecuteKept(tctx(t, 5*time.Second), p, run, 0, "document.querySelector('p').textContent", time.Second, 100, "")
	if err != nil || res.Value != `"next"` || res.Synchronous {
		t.Fatalf("after the navigation: %+v, %v", res, err)
	}
	if fn := awaitKept(t, run, 0); fn == old {
		t.Error("the gone handle is still held")
	}
}

func TestKeptRunnerStopsALoop(t *testing.T) {
	p := newPage(t, doc(`<p>x</p>`))
	run := NewRunner()
	s := spy(t, p, run, 0)
	start := time.Now()
	_, err := ExecuteKept(tctx(t, 10*time.Second), p, run, 0, "while (true) {}", 300*time.Millisecond, 100, "")
	if KindOf(err) != KindTimeout {
		t.Fatalf("error %v, want timeout", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("returned after %v: the script timeout did not stop it", took)
	}
	res, err := ExecuteKept(tctx(t, 5*time.Second), p, run, 0, "document.querySelector('p').textContent", time.Second, 100, "")
	if err != nil || res.Value != `"x"` {
		t.Fatalf("page unusable afterwards: %+v, %v", res, err)
	}
	if n := onObject(t, p, s, `function () { return this.n }`); n != "2" {
		t.Errorf("the kept runner ran %s scripts, want 2", n)
	}
}

func TestKeptRunnerUnderACSPWithoutEval(t *testing.T) {
	p := newPage(t, `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="script-src 'none'"><title>t</title></head><body><p>x</p></body></html>`)
	run := NewRunner()
	spy(t, p, run, 0)
	res, err := ExecuteKept(tctx(t, 5*time.Second), p, run, 0, "var k = 20; k + 1", time.Second, 100, "")
	if err != nil || res.Value != "21" {
		t.Fatalf("%+v, %v", res, err)
	}
	var names []string
	_ = json.Unmarshal([]byte(evalStr(t, p, `JSON.stringify(Object.keys(globalThis).filter(k => k === 'k'))`)), &names)
	// Chromium lets the runner's eval through inside a DevTools call under
	// this CSP too: one call, and the script's global declaration stays.
	if !res.Synchronous || len(names) != 1 {
		t.Errorf("synchronous %v, global declaration kept %v", res.Synchronous, len(names) == 1)
	}
}

func TestKeptRunnerNavigatingWhileAwaited(t *testing.T) {
	pages.Store("/kept-away", doc("<p>away</p>"))
	p := newPage(t, doc(`<p>x</p>`))
	run := NewRunner()
	spy(t, p, run, 0)
	// A promise comes back as a handle and is awaited; the document going
	// away meanwhile is a navigation, as through the source.
	_, err := ExecuteKept(tctx(t, 5*time.Second), p, run, 0, "setTimeout(() => location.href = '/kept-away', 10); new Promise(() => {})", 3*time.Second, 100, "")
	if KindOf(err) != KindNavigated {
		t.Fatalf("error %v, want KindNavigated", err)
	}
	if !waitJS(t, p, "location.pathname === '/kept-away' && document.readyState === 'complete'", 2*time.Second) {
		t.Fatal("page did not navigate")
	}
}
