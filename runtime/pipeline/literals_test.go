package pipeline

import (
	"reflect"
	"testing"
)

func TestStringLiterals(t *testing.T) {
	src := "// 'not this'\nfetch(\"/c?d=\" + encodeURIComponent('it\\'s \\u0041BC')); /* \"nor this\" */ let s = `tmpl ${x}`"
	want := []string{"/c?d=", "it's ABC", "tmpl ${x}"}
	if got := stringLiterals(src); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestNavigationValueDecodes(t *testing.T) {
	if got := navigationValue("http://127.0.0.2/a%20b?q=x+y&z=%41#frag"); got != "/a b q=x y&z=A frag" {
		t.Fatalf("got %q", got)
	}
}
