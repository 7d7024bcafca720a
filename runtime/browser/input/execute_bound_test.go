package input

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A page-controlled huge value is cut inside the page: the Go side never allocates anything near
// its size, whatever shape it takes and whatever the page did to the builtins the cut could use.
func TestExecuteBoundedAtSource(t *testing.T) {
	p := newPage(t, doc(`<div id=big></div><script>
		window.huge = 'x'.repeat(100e6);
		window.hugeArr = [window.huge];
		window.hugeErr = new Error(window.huge);
		document.getElementById('big').className = 'c'.repeat(20e6);
		window.hugeFn = new Function('return 1 /*' + 'f'.repeat(20e6) + '*/');
	</script>`))
	hostile := newPage(t, doc(`<script>
		window.huge = 'y'.repeat(100e6);
		String.prototype.slice = function () { return String(this); };
		String.prototype.substring = String.prototype.slice;
		JSON.stringify = () => window.huge + window.huge;
		window.eval = () => { throw new EvalError('no'); };
	</script>`))
	cases := []struct {
		name   string
		page   int
		script string
		thrown bool
		prefix string
	}{
		{"string", 0, "huge", false, `"xxx`},
		{"array", 0, "hugeArr", false, `["xxx`},
		{"promise", 0, "Promise.resolve(huge)", false, `"xxx`},
		{"top-level await", 0, "await null;\nconst h = huge;\nh;", false, `"xxx`},
		{"thrown error", 0, "throw hugeErr", true, "Error: xxx"},
		{"thrown string", 0, "throw huge", true, `Uncaught "xxx`},
		{"rejection", 0, "Promise.reject(huge)", true, `Uncaught "xxx`},
		{"element", 0, "document.getElementById('big')", false, "div#big.ccc"},
		{"function source", 0, "hugeFn", false, "function anonymous"},
		{"tampered builtins, eval refused", 1, "huge", false, "yyy"},
	}
	for _, c := range cases {
		pg := p
		if c.page == 1 {
			pg = hostile
		}
		rss0 := rssKB()
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		// The bound here is on memory, not time: a rejection of a 100 M-character value costs the
		// renderer 150 ms to report when idle, and once took over 10 s with two suites on 2 cores.
		res, err := Execute(tctx(t, 40*time.Second), pg, c.script, 30*time.Second, 1000)
		runtime.ReadMemStats(&m1)
		alloc := m1.TotalAlloc - m0.TotalAlloc
		t.Logf("%s: Go allocated %d KB during the call; RSS %d -> %d KB", c.name, alloc/1024, rss0, rssKB())
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := res.Value
		if c.thrown {
			got = res.Message
		}
		if res.Thrown != c.thrown || !res.Truncated || utf8.RuneCountInString(got) != 1000 || !strings.HasPrefix(got, c.prefix) {
			t.Errorf("%s: thrown=%v truncated=%v %d chars, prefix %q", c.name, res.Thrown, res.Truncated, utf8.RuneCountInString(got), got[:min(len(got), 20)])
		}
		// 100 M characters cost at least 100 MB to read; the bound is 1,000 characters.
		if alloc > 4<<20 {
			t.Errorf("%s: Go allocated %d bytes for a 1000-character result: the value crossed the wire", c.name, alloc)
		}
	}
}

// Scripts with top-level await keep the console's completion value through the splice.
func TestExecuteTopLevelAwaitCompletion(t *testing.T) {
	p := newPage(t, doc(`<p>x</p>`))
	for script, want := range map[string]string{
		"const a = await Promise.resolve(2); a * 3":                                        "6",
		"let q = await 1;\nq + 1;\n":                                                       "2",
		"await null; document.querySelector('p').id = 'z'; document.querySelector('p').id": `"z"`,
		"await Promise.resolve({v: [1, 'é']})":                                             `{"v":[1,"é"]}`,
		"for (const x of [1]) { await x }":                                                 "undefined",
		"const s = 'a;b'; await s.split(';').length":                                       "2",
	} {
		res, err := Execute(tctx(t, 5*time.Second), p, script, 2*time.Second, 1000)
		if err != nil || res.Value != want || res.Thrown {
			t.Errorf("%q: %+v, %v; want %s", script, res, err, want)
		}
	}
	// A syntax error is the script's, reported as a throw; nothing ran.
	res, err := Execute(tctx(t, 5*time.Second), p, "window.ran = 1; await (", 2*time.Second, 1000)
	if err != nil || !res.Thrown || !strings.Contains(res.Message, "SyntaxError") {
		t.Errorf("syntax error: %+v, %v", res, err)
	}
	if evalStr(t, p, "String(window.ran)") != "undefined" {
		t.Error("a script that does not compile ran")
	}
}

// A page whose eval is refused (replaced, or a policy) still runs scripts, bounded, exactly once.
func TestExecuteWithoutEval(t *testing.T) {
	p := newPage(t, doc(`<script>window.n = 0; window.eval = () => { throw new EvalError('refused'); };</script>`))
	res, err := Execute(tctx(t, 5*time.Second), p, "window.n++; window.n", 2*time.Second, 100)
	if err != nil || res.Value != "1" {
		t.Fatalf("without eval: %+v, %v", res, err)
	}
	res, err = Execute(tctx(t, 5*time.Second), p, "throw new EvalError('mine')", 2*time.Second, 100)
	if err != nil || !res.Thrown || !strings.Contains(res.Message, "mine") {
		t.Fatalf("a script's own EvalError: %+v, %v", res, err)
	}
}

func rssKB() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:")), " kB"))
			return n
		}
	}
	return 0
}
