package gen_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"github.com/ghostlight-dev/ghostlight/gen/emit"
	"github.com/ghostlight-dev/ghostlight/gen/ir"
	"github.com/ghostlight-dev/ghostlight/gen/load"
)

// fillerWords say nothing of a value on their own.
var fillerWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "to": true, "in": true,
	"ms": true, "px": true, "its": true, "this": true, "that": true, "only": true, "or": true, "and": true}

// restates reports whether a description only restates its field's name:
// every word it has, but filler, is a word of the name (or a form of one:
// "repeats" for repeat, "modifier" for modifiers).
func restates(name, doc string) bool {
	nameWords := strings.Split(name, "_")
	words := strings.FieldsFunc(strings.ToLower(doc), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		if fillerWords[w] {
			continue
		}
		same := false
		for _, n := range nameWords {
			same = same || w == n || len(w) >= 3 && len(n) >= 3 && (strings.HasPrefix(w, n) || strings.HasPrefix(n, w))
		}
		if !same {
			return false
		}
	}
	return true
}

func TestRestates(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      bool
	}{
		{"tab", "Tab.", true},
		{"timeout_ms", "Timeout ms.", true},
		{"repeat", "Repeats.", true},
		{"max_items", "Max items.", true},
		{"x", "px.", true},
		{"target", "Handle from browser_inspect or browser_find.", false},
		{"repeat", "Times to press the stroke list.", false},
	} {
		if got := restates(c.name, c.doc); got != c.want {
			t.Errorf("restates(%q, %q) = %v, want %v", c.name, c.doc, got, c.want)
		}
	}
}

// TestNoDescriptionRestatesItsField walks every input field the real spec
// declares (nested objects, list items' fields and branch narrowings
// included): a description must say what the value is or where it comes
// from, not the field's name again.
func TestNoDescriptionRestatesItsField(t *testing.T) {
	spec, err := load.Dir("../spec", nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	var walk func(tool, at string, f *ir.Field)
	walk = func(tool, at string, f *ir.Field) {
		checked++
		if restates(f.Name, f.Doc) {
			t.Errorf("%s %s: description %q only restates the field's name", tool, at, f.Doc)
		}
		for _, c := range f.Fields {
			walk(tool, at+"."+c.Name, c)
		}
		if f.Items != nil {
			for _, c := range f.Items.Fields {
				walk(tool, at+"[]."+c.Name, c)
			}
		}
	}
	for _, tl := range spec.Tools {
		for _, f := range tl.Inputs {
			walk(tl.Name, f.Name, f)
		}
		for _, b := range tl.Branches {
			for _, o := range b.Override {
				walk(tl.Name, b.Name+":"+o.Name, o)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("walked only %d fields", checked)
	}
}

// TestEvidentFieldsUndescribed renders every tool's definition from the real
// spec and checks each input property (nested objects and list items'
// fields included): it carries a description unless spec/ marks it evident
// (its name, type, enum and range say what it is), and then none. A
// sequence step's fields are its tools' own and carry none (issue 24); a
// profile verb's schema keeps every description.
func TestEvidentFieldsUndescribed(t *testing.T) {
	spec, err := load.Dir("../spec", nil)
	if err != nil {
		t.Fatal(err)
	}
	evident := 0
	var walk func(tool, at string, f *ir.Field, s map[string]any, verb bool)
	walk = func(tool, at string, f *ir.Field, s map[string]any, verb bool) {
		_, has := s["description"]
		if want := verb || !f.Evident; has != want {
			t.Errorf("%s %s: description present %v, want %v (evident %v)", tool, at, has, want, f.Evident)
		}
		if f.Evident {
			evident++
		}
		if f.Variants != nil {
			return
		}
		obj, fields := s, f.Fields
		if f.Items != nil {
			obj, _ = s["items"].(map[string]any)
			fields = f.Items.Fields
		}
		props, _ := obj["properties"].(map[string]any)
		for _, c := range fields {
			p, ok := props[c.Name].(map[string]any)
			if !ok {
				t.Errorf("%s %s.%s: not in the schema", tool, at, c.Name)
				continue
			}
			walk(tool, at+"."+c.Name, c, p, verb)
		}
	}
	for _, tl := range spec.Tools {
		b, err := emit.Definition(spec, tl)
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			InputSchema struct {
				Properties map[string]map[string]any `json:"properties"`
			} `json:"inputSchema"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		for _, f := range tl.Inputs {
			walk(tl.Name, f.Name, f, d.InputSchema.Properties[f.Name], tl.Verb != nil)
		}
	}
	if evident < 50 {
		t.Fatalf("only %d evident fields rendered", evident)
	}
}
