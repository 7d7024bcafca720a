package policyfile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestParseData(t *testing.T) {
	cases := []struct{ src, json string }{
		{`capabilities: execute: "deny"`, `{"capabilities":{"execute":"deny"}}`},
		{"package acme\n\n// a comment\ncapabilities: read: \"allow\"\ncapabilities: write: \"deny\" // trailing\n", `{"capabilities":{"read":"allow","write":"deny"}}`},
		{"hosts: {\n\tallow: [\n\t\t\"a.example\"\n\t\t\"*.b.example\",\n\t]\n\trequests: \"all\"\n}\n", `{"hosts":{"allow":["a.example","*.b.example"],"requests":"all"}}`},
		{`"quoted-label": {x: true, y: null}, n: 1_000, m: 10Mi, k: 2K, neg: -3`, `{"quoted-label":{"x":true,"y":null},"n":1000,"m":10485760,"k":2000,"neg":-3}`},
		{`s: "a\tb\u00e9\U0001F600\"\\"`, `{"s":"a\tbé😀\"\\"}`},
		{"a: b: 1\na: b: 1\na: {c: [1, 2]}\na: c: [1, 2]", `{"a":{"b":1,"c":[1,2]}}`},
		{"", `{}`},
		{"tabs: preserve: true,", `{"tabs":{"preserve":true}}`},
	}
	for _, c := range cases {
		d, err := Parse("t.cue", []byte(c.src))
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if string(d.JSON) != c.json {
			t.Errorf("%q: got %s, want %s", c.src, d.JSON, c.json)
		}
	}
}

func TestParsePositions(t *testing.T) {
	src := "package p\n\ncapabilities: {\n  read: \"deny\"\n}\nhosts: allow: [\"a\", \"b\"]\n"
	d, err := Parse("/etc/p.cue", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for ptr, want := range map[string]string{
		"/capabilities/read": "/etc/p.cue:4:3", "/hosts/allow/1": "/etc/p.cue:6:21", "/hosts/allow": "/etc/p.cue:6:8",
		"/capabilities/nope": "/etc/p.cue:3:1", "": "/etc/p.cue:1:1",
	} {
		if got := d.Where(ptr); got != want {
			t.Errorf("Where(%q) = %s, want %s", ptr, got, want)
		}
	}
}

// TestParseRefusesNonData names file:line:col and says layers are data.
func TestParseRefusesNonData(t *testing.T) {
	cases := []struct{ src, at, says string }{
		{`capabilities: read: "allow" | "deny"`, "1:29", "expressions are not allowed"},
		{`capabilities: read: *"allow" | "deny"`, "1:21", "defaults are not allowed"},
		{"x: 1\ncapabilities: read: x", "2:21", "reference"},
		{`#P: {a: 1}`, "1:1", "definitions"},
		{`import "strings"`, "1:1", "imports"},
		{"let x = 1\n", "1:1", "let"},
		{`a: "\(b)"`, "1:5", "interpolation"},
		{`a?: 1`, "1:2", "constraints, not data"},
		{`a: {b: 1, ...}`, "1:11", "`...`"},
		{`a: 1.5`, "1:4", "whole decimal"},
		{`a: 1e3`, "1:4", "whole decimal"},
		{`a: 0x10`, "1:4", "whole decimal"},
		{`a: 1 + 2`, "1:6", "expressions"},
		{`a: int`, "1:4", "reference"},
		{`a: 1 @tag()`, "1:6", "attributes"},
		{`_hidden: 1`, "1:1", "hidden"},
		{"a: 1\na: 2", "2:4", "conflicting values for a: 1 and 2 (first at 1:4)"},
		{"a: b: 1\na: 2", "2:4", "conflicting values"},
		{"a: \"x", "1:4", "unterminated"},
		{"a: [1, 2", "1:4", "unclosed ["},
		{"a: {b: 1", "1:4", "unclosed {"},
		{"a: 1 b: 2", "1:6", "unexpected"},
		{"a: \"\"\"\nx\n\"\"\"", "1:4", "multi-line"},
		{"a: 'x'", "1:4", "byte strings"},
		{"a\n", "1:1", "reference, not a field"},
		{"a: 1\npackage p", "2:1", "package clause must come first"},
		{"a: \xff", "1:4", "UTF-8"},
		{"a: 007", "1:4", "leading zero"},
		{"a: 99999999999999999999", "1:4", "out of range"},
	}
	for _, c := range cases {
		_, err := Parse("w.cue", []byte(c.src))
		if err == nil {
			t.Errorf("%q parsed", c.src)
			continue
		}
		e, ok := err.(*Error)
		if !ok || e.Pos.String() != c.at || !strings.Contains(e.Msg, c.says) || !strings.HasPrefix(err.Error(), "w.cue:"+c.at+": ") {
			t.Errorf("%q: got %v, want w.cue:%s: …%s…", c.src, err, c.at, c.says)
		}
	}
}

func TestParseBounds(t *testing.T) {
	deep := strings.Repeat("a: {", MaxDepth+2) + strings.Repeat("}", MaxDepth+2)
	if _, err := Parse("d.cue", []byte(deep)); err == nil || !strings.Contains(err.Error(), "nests at most") {
		t.Errorf("deep nesting: %v", err)
	}
	if _, err := Parse("b.cue", make([]byte, MaxBytes+1)); err == nil {
		t.Error("oversized file parsed")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`capabilities: execute: "deny"`, "hosts: {allow: [\"a\"], deny: [], requests: \"all\"}\naudit: keep: 3", "organization: name: \"x\"", "hosts: allow: [\"a\", \"b\"]\n", "a: {b: [1, {c: null}]}", `"x": "\u0041"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse("f.cue", src)
		if err != nil {
			return
		}
		if !jsonValid(d.JSON) {
			t.Fatalf("invalid JSON %s from %q", d.JSON, src)
		}
		// The generated decoder takes whatever the parser yields without
		// panicking, and every error it names has a line in the file.
		if _, derr := surface.DecodePolicy(d.JSON); derr != nil && d.Pos(derr.Pointer).Line < 1 {
			t.Fatalf("no position for %s", derr.Pointer)
		}
	})
}

func jsonValid(b []byte) bool { return json.Valid(b) }
