package input

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// valueCases are scripts and the results they answer, through the source and through a kept runner.
var valueCases = []struct{ script, want string }{
	{"1 + 1", "2"},
	{"document.title", `"t"`},
	{"pageVar + 1", "42"}, // main world: the page's own globals
	{"({a: 1, b: [true, null, 'x']})", `{"a":1,"b":[true,null,"x"]}`},
	{"[1, 2, 3]", "[1,2,3]"},
	{"undefined", "undefined"},
	{"null", "null"},
	{"NaN", "NaN"},
	{"12n", "12n"},
	{"Symbol('s')", "Symbol(s)"},
	{"document.getElementById('d')", "div#d.a.b"},
	{"window", "Window"},
	{"(function f() { return 1 })", "function f() { return 1 }"},
	{"new Promise(r => setTimeout(() => r({ok: true}), 20))", `{"ok":true}`},
	{"await new Promise(r => setTimeout(() => r('late'), 20))", `"late"`},
	{"const c = 5; c * 2", "10"},
	{"const c = 6; c * 2", "12"}, // REPL mode: a second run may redeclare
	{"let o = {}; o.self = o; o", "Object"},
}

func TestExecuteValues(t *testing.T) {
	p := newPage(t, doc(`<div id=d class="a b">x</div><script>window.pageVar = 41;</script>`))
	for _, c := range valueCases {
		res, err := Execute(tctx(t, 5*time.Second), p, c.script, 2*time.Second, 1000)
		if err != nil {
			t.Errorf("%s: %v", c.script, err)
			continue
		}
		if res.Value != c.want || res.Thrown || res.Truncated {
			t.Errorf("%s: got %+v, want value %s", c.script, res, c.want)
		}
	}
}

func TestExecuteTruncates(t *testing.T) {
	p := newPage(t, doc(`<p>x</p>`))
	res, err := Execute(tctx(t, 5*time.Second), p, "'😀'.repeat(500)", time.Second, 100)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || utf8.RuneCountInString(res.Value) != 100 || !strings.HasPrefix(res.Value, `"😀😀`) {
		t.Errorf("string result: truncated=%v, %d chars", res.Truncated, utf8.RuneCountInString(res.Value))
	}
	res, err = Execute(tctx(t, 5*time.Second), p, "Array.from({length: 5000}, (_, i) => 'é' + i)", time.Second, 100)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || utf8.RuneCountInString(res.Value) != 100 || !strings.HasPrefix(res.Value, `["é0","é1"`) {
		t.Errorf("array result: truncated=%v, %q", res.Truncated, res.Value)
	}
	res, err = Execute(tctx(t, 5*time.Second), p, "'abc'", time.Second, 5)
	if err != nil || res.Truncated || res.Value != `"abc"` {
		t.Errorf("exact fit: %+v, %v", res, err)
	}
}

func TestExecuteThrown(t *testing.T) {
	p := newPage(t, doc(`<p>x</p>`))
	for _, script := range []string{
		"throw new Error('boom')",
		"Promise.reject(new Error('boom'))",
		"await Promise.reject(new Error('boom'))",
		"null.boom",
	} {
		res, err := Execute(tctx(t, 5*time.Second), p, script, time.Second, 1000)
		if err != nil {
			t.Errorf("%s: %v", script, err)
			continue
		}
		want := "boom"
		if !res.Thrown || !strings.Contains(res.Message, want) || res.Value != "" {
			t.Errorf("%s: %+v", script, res)
		}
	}
	res, err := Execute(tctx(t, 5*time.Second), p, "throw 'x'.repeat(500)", time.Second, 100)
	if err != nil || !res.Thrown || !res.Truncated || utf8.RuneCountInString(res.Message) != 100 {
		t.Errorf("long throw: %+v, %v", res, err)
	}
	if _, err := Execute(tctx(t, 5*time.Second), p, "1", 0, 100); KindOf(err) != KindInvalidArgument {
		t.Errorf("zero timeout: %v", err)
	}
}

func TestExecuteTimeoutStopsScript(t *testing.T) {
	p := newPage(t, doc(`<p>x</p>`))
	for _, script := range []string{
		"while (true) {}",
		"await null; while (true) {}",
		"new Promise(() => {})",
	} {
		start := time.Now()
		_, err := Execute(tctx(t, 10*time.Second), p, script, 300*time.Millisecond, 1000)
		took := time.Since(start)
		t.Logf("%s: returned after %v", script, took)
		if KindOf(err) != KindTimeout {
			t.Fatalf("%s: error %v, want timeout", script, err)
		}
		// Liveness: the script's 300 ms timeout ended it, not the 10 s context.
		if took > 5*time.Second {
			t.Errorf("%s: returned after %v: the script timeout did not stop it", script, took)
		}
		res, err := Execute(tctx(t, 5*time.Second), p, "document.querySelector('p').textContent", time.Second, 100)
		if err != nil || res.Value != `"x"` {
			t.Fatalf("%s: page unusable afterwards: %+v, %v", script, res, err)
		}
	}
}

func TestExecuteKeepsCharacters(t *testing.T) {
	p := newPage(t, doc(`<p>x</p>`))
	for script, want := range map[string]string{
		"'héllo 😀 <b>&'":    `"héllo 😀 <b>&"`,
		"0.1 + 0.2":         "0.30000000000000004",
		"1e21":              "1e+21",
		"({s: 'ü<'})":       `{"s":"ü<"}`,
		"'line\\nbreak\"q'": `"line\nbreak\"q"`,
	} {
		res, err := Execute(tctx(t, 5*time.Second), p, script, time.Second, 1000)
		if err != nil || res.Value != want {
			t.Errorf("%s: %+v, %v; want %s", script, res, err, want)
		}
	}
}

func TestExecuteNavigating(t *testing.T) {
	pages.Store("/elsewhere", doc("<p>elsewhere</p>"))
	p := newPage(t, doc(`<p>x</p>`))
	_, err := Execute(tctx(t, 5*time.Second), p, "setTimeout(() => location.href = '/elsewhere', 10); await new Promise(() => {})", 3*time.Second, 100)
	if KindOf(err) != KindNavigated {
		t.Fatalf("error %v, want KindNavigated", err)
	}
	if !waitJS(t, p, "location.pathname === '/elsewhere' && document.readyState === 'complete'", 2*time.Second) {
		t.Fatal("page did not navigate")
	}
}
