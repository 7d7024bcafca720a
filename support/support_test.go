package support

import (
	"strings"
	"testing"
)

// decodeObject runs Members over keys a, b and reports the error, if any.
func decodeObject(doc string) (spans [2]Span, err *Error) {
	err = Members([]byte(doc), nil, []string{"a", "b"}, spans[:], "")
	return spans, err
}

func TestMembers(t *testing.T) {
	cases := []struct {
		doc, pointer, rule string
	}{
		{`{"a":1,"b":"x"}`, "", ""},
		{` { "b" : [1,{"c":null}] } `, "", ""},
		{`{"a":1,"a":2}`, "/a", RuleDuplicateField},
		{`{"a":1,"c":2}`, "/c", RuleUnknownField},
		{`{"a~/b":1}`, "/a~0~1b", RuleUnknownField},
		{`{"\u0061":1,"a":2}`, "/a", RuleDuplicateField},
		{`[]`, "", RuleType},
		{`{"a":1} {}`, "", RuleSyntax},
		{`{"a":tru}`, "", RuleSyntax},
		{`{"a":"` + "\x01" + `"}`, "", RuleSyntax},
		{`{"a":"` + "\xff" + `"}`, "", RuleUtf8},
		{`{"a":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}`, "", RuleSyntax},
	}
	for _, c := range cases {
		_, err := decodeObject(c.doc)
		switch {
		case c.rule == "" && err != nil:
			t.Errorf("%s: %v", c.doc, err)
		case c.rule != "" && (err == nil || err.Rule != c.rule || err.Pointer != c.pointer):
			t.Errorf("%s: got %+v, want %s at %q", c.doc, err, c.rule, c.pointer)
		}
	}
	spans, _ := decodeObject(`{"b":"x"}`)
	if spans[0].Set() || !spans[1].Set() || `{"b":"x"}`[spans[1].Start:spans[1].End] != `"x"` {
		t.Errorf("spans %+v", spans)
	}
}

func TestStrings(t *testing.T) {
	p := Key(nil, "name")
	if s, err := DecString([]byte(`"h\u00e9llo \ud83d\ude00"`), p, 1, 7); err != nil || s != "héllo 😀" {
		t.Errorf("escapes: %q %v", s, err)
	}
	if _, err := DecString([]byte(`"\ud800"`), p, 0, -1); err == nil || err.Rule != RuleUtf8 {
		t.Errorf("lone surrogate: %v", err)
	}
	// Lengths count characters, not bytes.
	if _, err := DecString([]byte(`"ééé"`), p, 0, 3); err != nil {
		t.Errorf("three characters: %v", err)
	}
	if _, err := DecString([]byte(`"éééé"`), p, 0, 3); err == nil || err.Rule != RuleMaxLength || err.Limit != "3" || err.Pointer != "/name" {
		t.Errorf("four characters: %+v", err)
	}
	if _, err := DecString([]byte(`""`), p, 1, 3); err == nil || err.Rule != RuleMinLength || err.Message != "name must not be empty" {
		t.Errorf("empty: %+v", err)
	}
	if _, err := DecString([]byte(`7`), p, 0, 3); err == nil || err.Rule != RuleType || err.Message != "name must be a string, not a number" {
		t.Errorf("type: %+v", err)
	}
}

func TestNumbers(t *testing.T) {
	p := Index(Key(nil, "xs"), 2)
	for raw, want := range map[string]int{"5": 5, "-3": -3, "1.0": 1, "2e1": 20} {
		if n, err := DecInt([]byte(raw), p, -10, 30); err != nil || n != want {
			t.Errorf("%s: %d %v", raw, n, err)
		}
	}
	for raw, rule := range map[string]string{"1.5": RuleInteger, "31": RuleMaximum, "-11": RuleMinimum, "1e400": RuleFinite, `"1"`: RuleType, "1e300": RuleMaximum} {
		if _, err := DecInt([]byte(raw), p, -10, 30); err == nil || err.Rule != rule || err.Pointer != "/xs/2" {
			t.Errorf("%s: %+v, want %s", raw, err, rule)
		}
	}
}

func TestArrays(t *testing.T) {
	var got []string
	item := func(i int, raw []byte, p *Path) *Error {
		s, err := DecString(raw, p, 1, -1)
		got = append(got, s)
		return err
	}
	if err := DecArray([]byte(`["a", "b"]`), Key(nil, "l"), 1, 2, item); err != nil || strings.Join(got, ",") != "a,b" {
		t.Errorf("%v %v", got, err)
	}
	if err := DecArray([]byte(`["a","b","c"]`), Key(nil, "l"), 1, 2, item); err == nil || err.Rule != RuleMaxItems {
		t.Errorf("too many: %v", err)
	}
	if err := DecArray([]byte(`[]`), Key(nil, "l"), 1, 2, item); err == nil || err.Rule != RuleMinItems {
		t.Errorf("too few: %v", err)
	}
	if err := DecArray([]byte(`["a",""]`), Key(nil, "l"), 1, 2, item); err == nil || err.Pointer != "/l/1" {
		t.Errorf("bad item: %+v", err)
	}
}

func TestFormats(t *testing.T) {
	p := Key(nil, "f")
	ok := func(err *Error) bool { return err == nil }
	checks := []struct {
		name string
		err  *Error
		want bool
	}{
		{"url https", CheckURL("https://example.com/x", p), true},
		{"url ftp", CheckURL("ftp://example.com/", p), false},
		{"url relative", CheckURL("/x", p), false},
		{"handle", CheckHandle("tab_A1", "tab", p), true},
		{"handle foreign", CheckHandle("target_1", "tab", p), false},
		{"handle bare", CheckHandle("tab_", "tab", p), false},
		{"handle punctuation", CheckHandle("tab_a-b", "tab", p), false},
		{"path", CheckAbsolutePath("/tmp/x", p), true},
		{"path windows", CheckAbsolutePath(`C:\x`, p), true},
		{"path relative", CheckAbsolutePath("x/y", p), false},
		{"base64", CheckBase64("QUJD", p), true},
		{"base64 padded", CheckBase64("QQ==", p), true},
		{"base64 length", CheckBase64("QUJ", p), false},
		{"key char", CheckKey("a", p, func(string) bool { return false }), true},
		{"key named", CheckKey("Enter", p, func(s string) bool { return s == "Enter" }), true},
		{"key unknown", CheckKey("Nope", p, func(string) bool { return false }), false},
		{"host", CheckHostPattern("*.example.com", p), true},
		{"host bad", CheckHostPattern("exa mple.com", p), false},
		{"identifier", CheckIdentifier("step_1-a", p), true},
		{"identifier bad", CheckIdentifier("a.b", p), false},
	}
	for _, c := range checks {
		if ok(c.err) != c.want {
			t.Errorf("%s: %v", c.name, c.err)
		}
	}
	if n := Base64Size("QQ=="); n != 1 {
		t.Errorf("Base64Size = %d", n)
	}
}

func TestScalarAndSplice(t *testing.T) {
	v, err := DecScalar([]byte(`true`), nil, "string,boolean", 0, -1, 0, 0)
	if err != nil || v.Kind != ScalarBool || !v.Bool {
		t.Errorf("bool scalar: %+v %v", v, err)
	}
	if _, err := DecScalar([]byte(`{}`), Key(nil, "v"), "string,boolean", 0, -1, 0, 0); err == nil || err.Message != "v must be a string or boolean, not an object" {
		t.Errorf("object scalar: %+v", err)
	}
	if got := string(SpliceKey("action", "fill", []byte(`{"a":1}`))); got != `{"action":"fill","a":1}` {
		t.Errorf("splice: %s", got)
	}
	if got := string(SpliceKey("action", "x", []byte(`{}`))); got != `{"action":"x"}` {
		t.Errorf("splice empty: %s", got)
	}
	if got := string(Member([]byte(`{"a":{"x":1},"b":"y"}`), "b")); got != `"y"` {
		t.Errorf("member: %s", got)
	}
}

func TestRulesAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r] || r == "" {
			t.Errorf("rule %q repeated or empty", r)
		}
		seen[r] = true
	}
}

func TestStringsKeepsNil(t *testing.T) {
	type capability string
	if Strings[capability](nil) != nil {
		t.Error("nil became non-nil")
	}
	if got := Strings([]capability{"read"}); len(got) != 1 || got[0] != "read" {
		t.Errorf("got %v", got)
	}
	if got := Strings([]capability{}); got == nil || len(got) != 0 {
		t.Errorf("empty: %v", got)
	}
}

func TestMembersIgnoring(t *testing.T) {
	var spans [2]Span
	if err := MembersIgnoring([]byte(`{"a":1,"wait_for_previous":true,"b":2}`), nil, []string{"a", "b"}, spans[:], "", []string{"wait_for_previous"}); err != nil {
		t.Fatalf("client-added field refused: %v", err)
	}
	if !spans[0].Set() || !spans[1].Set() {
		t.Fatal("members around the ignored one were lost")
	}
	var again [2]Span
	if err := Members([]byte(`{"a":1,"wait_for_previous":true}`), nil, []string{"a", "b"}, again[:], ""); err == nil || err.Rule != RuleUnknownField {
		t.Fatalf("without the ignore list, got %v, want unknown_field", err)
	}
}

func TestUnset(t *testing.T) {
	doc := []byte(`{"a":null,"b":"","c":[ ],"d":false,"e":"x","f":null}`)
	var spans [6]Span
	if err := Members(doc, nil, []string{"a", "b", "c", "d", "e", "f"}, spans[:], ""); err != nil {
		t.Fatal(err)
	}
	all := OmitNull | OmitEmptyString | OmitEmptyArray | OmitFalse
	Unset(doc, spans[:], []Omit{OmitNull, all, all, all, all, 0})
	for i, want := range []bool{false, false, false, false, true, true} {
		if spans[i].Set() != want {
			t.Errorf("member %d set = %v, want %v", i, spans[i].Set(), want)
		}
	}
	for _, c := range []struct {
		v    string
		o    Omit
		want bool
	}{{`""`, OmitNull, false}, {`[1]`, OmitEmptyArray, false}, {`true`, OmitFalse, false}, {`0`, OmitNull | OmitFalse, false}, {`[]`, OmitEmptyArray, true}} {
		if got := Omitted([]byte(c.v), c.o); got != c.want {
			t.Errorf("Omitted(%s, %d) = %v, want %v", c.v, c.o, got, c.want)
		}
	}
}
