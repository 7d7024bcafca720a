package input

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// The page-side half of Execute. The model's script runs inside runnerFn, which turns whatever it
// produced (a value, a promise, a throw) into one primitive string cut to a bound inside the page:
// a page-controlled 100-million-character value never crosses the wire. Only syntax and primitive
// string indexing do the cut, so a page that replaced String.prototype.slice or JSON.stringify can
// lie about its own values but cannot lift the bound.
//
// The reply is "<kind><cut><text>": kind v (a value: JSON text or a DevTools-style description),
// t (the script threw; text is the bounded message) or E (eval is refused here: nothing ran); cut
// is 1 when the page cut text. V and T are v and t for a script that awaited (a promise result,
// or a top-level await): it did not finish in the task the evaluation started.
//
// runnerFn takes (mode, src, fn, units): mode 0 runs src with indirect eval, which keeps a script's exact
// completion value and its global declarations, as the console does. Chromium allows that eval
// synchronously inside a DevTools evaluation even under a CSP without 'unsafe-eval'. Mode 1 calls
// fn, an async arrow the script was spliced into (top-level await; a page whose eval is refused).
// units is how many UTF-16 units of text the page keeps (runnerUnits). The source is the same for
// every call, so a document can keep it (execute_kept.go).
const runnerFn = `function (mode, src, fn, units) {
	const cut = (s) => {
		if (typeof s !== "string") s = "";
		if (s.length <= units) return "0" + s;
		let o = "";
		for (let i = 0; i < units; i++) o += s[i];
		return "1" + o;
	};
	const tag = (o) => { try { return Object.prototype.toString.call(o).slice(8, -1); } catch (e) { return ""; } };
	const special = new Set(["Window", "Map", "Set", "WeakMap", "WeakSet", "Date", "RegExp", "Promise",
		"ArrayBuffer", "SharedArrayBuffer", "DataView", "Generator", "AsyncGenerator", "WeakRef"]);
	const isNode = (v) => { try { return typeof v.nodeType === "number" && typeof v.nodeName === "string"; } catch (e) { return false; } };
	const isError = (v) => { try { return v instanceof Error || tag(v) === "Error"; } catch (e) { return false; } };
	const describe = (v) => {
		try {
			switch (typeof v) {
			case "undefined": return "undefined";
			case "number": return Object.is(v, -0) ? "-0" : String(v);
			case "bigint": return String(v) + "n";
			case "symbol": return String(v);
			case "function": return Function.prototype.toString.call(v);
			}
			if (v === null) return "null";
			if (isNode(v)) {
				if (v.nodeType !== 1) return String(v.nodeName);
				let d = String(v.localName || v.nodeName);
				if (v.id) d += "#" + String(v.id);
				if (v.classList) for (const c of v.classList) d += "." + c;
				return d;
			}
			if (isError(v)) return String(v);
			const t = tag(v);
			if (t === "Map" || t === "Set") return t + "(" + v.size + ")";
			if (t === "Date" || t === "RegExp") return String(v);
			if (Array.isArray(v)) return "Array(" + v.length + ")";
			if (t === "Window" || special.has(t)) return t;
			const c = v.constructor;
			return (c && typeof c.name === "string" && c.name) || t || "Object";
		} catch (e) {
			return "Object";
		}
	};
	const json = (v) => {
		if (typeof v === "string" && v.length > units) v = cut(v).slice(1);
		try {
			const s = JSON.stringify(v);
			return typeof s === "string" ? s : undefined;
		} catch (e) {
			return undefined;
		}
	};
	const text = (v) => {
		switch (typeof v) {
		case "string": case "boolean": return json(v);
		case "number": return Number.isFinite(v) && !Object.is(v, -0) ? json(v) : describe(v);
		case "object":
			if (v === null) return "null";
			if (isNode(v) || isError(v) || special.has(tag(v))) return describe(v);
			const s = json(v);
			return s === undefined ? describe(v) : s;
		}
		return describe(v);
	};
	const thrown = (late, e) => {
		if (isError(e)) return (late ? "T" : "t") + cut(String(e));
		const t = typeof e === "object" && e !== null && !isNode(e) && !special.has(tag(e)) ? json(e) : undefined;
		return (late ? "T" : "t") + cut("Uncaught " + (t === undefined ? text(e) : t));
	};
	let v;
	try {
		if (mode === 0) {
			let ok = false;
			try { ok = (0, eval)("1") === 1; } catch (e) {}
			if (!ok) return "E0";
			v = (0, eval)(src);
		} else {
			v = fn();
		}
	} catch (e) {
		return thrown(mode === 1, e);
	}
	// A value is answered in the task that ran the script, so a command sent
	// right behind this one is answered after it; only a promise waits.
	if (!(v instanceof Promise)) return (mode === 1 ? "V" : "v") + cut(text(v));
	return (async () => {
		try {
			return "V" + cut(text(await v));
		} catch (e) {
			return thrown(true, e);
		}
	})();
}`

// runnerUnits is how many UTF-16 units the page keeps for maxChars code points: every code point
// is at most two units, so more than maxChars points survive and a cut is still detected after the
// Go-side bound to code points.
func runnerUnits(maxChars int) int { return 2*maxChars + 2 }

// evalExpr runs script by indirect eval (mode 0).
func evalExpr(script string, maxChars int) string {
	src, _ := json.Marshal(script)
	return "(" + runnerFn + ")(0, " + string(src) + ", null, " + strconv.Itoa(runnerUnits(maxChars)) + ")"
}

// splicedExprs are the mode-1 forms of script, tried in order until one compiles: the script as one
// expression; then split before its last top-level statement, which becomes the return value (a
// script's completion value), at the last maxSplits semicolons or line breaks; then the script as
// a body whose value is undefined. Only a syntax error of the splice moves on to the next form,
// and a form that does not compile runs nothing.
func splicedExprs(script string, maxChars int) []string {
	body := strings.TrimRight(script, " \t\r\n;")
	units := strconv.Itoa(runnerUnits(maxChars))
	wrap := func(fn string) string { return "(" + runnerFn + ")(1, null, " + fn + ", " + units + ")" }
	out := []string{wrap("async () => (\n" + body + "\n)")}
	for i, n := len(body)-1, 0; i > 0 && n < maxSplits; i-- {
		if body[i] != ';' && body[i] != '\n' {
			continue
		}
		last := strings.TrimSpace(body[i+1:])
		if last == "" {
			continue
		}
		n++
		out = append(out, wrap("async () => {\n"+body[:i+1]+"\nreturn (\n"+last+"\n);\n}"))
	}
	return append(out, wrap("async () => {\n"+script+"\n}"))
}

// maxSplits bounds the statement splits tried for a script with top-level await.
const maxSplits = limits.AwaitSplitsMax

// hasAwait reports whether script may use top-level await, which indirect eval cannot parse.
func hasAwait(script string) bool {
	for i := 0; ; {
		j := strings.Index(script[i:], "await")
		if j < 0 {
			return false
		}
		j += i
		end := j + len("await")
		if (j == 0 || !identChar(script[j-1])) && (end == len(script) || !identChar(script[end])) {
			return true
		}
		i = end
	}
}

func identChar(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
