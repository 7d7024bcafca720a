package input

import "testing"

func TestCharKey(t *testing.T) {
	cases := []struct {
		r     rune
		want  KeyDef
		shift bool
	}{
		{'a', KeyDef{Key: "a", Code: "KeyA", KeyCode: 65, Text: "a"}, false},
		{'Z', KeyDef{Key: "Z", Code: "KeyZ", KeyCode: 90, Text: "Z"}, true},
		{'0', KeyDef{Key: "0", Code: "Digit0", KeyCode: 48, Text: "0"}, false},
		{'!', KeyDef{Key: "!", Code: "Digit1", KeyCode: 49, Text: "!"}, true},
		{' ', KeyDef{Key: " ", Code: "Space", KeyCode: 32, Text: " "}, false},
		{',', KeyDef{Key: ",", Code: "Comma", KeyCode: 188, Text: ","}, false},
		{'?', KeyDef{Key: "?", Code: "Slash", KeyCode: 191, Text: "?"}, true},
		{'"', KeyDef{Key: "\"", Code: "Quote", KeyCode: 222, Text: "\""}, true},
		{'~', KeyDef{Key: "~", Code: "Backquote", KeyCode: 192, Text: "~"}, true},
		{'\n', KeyDef{Key: "Enter", Code: "Enter", KeyCode: 13, Text: "\r"}, false},
		{'é', KeyDef{Key: "é", Text: "é"}, false},
		{'😀', KeyDef{Key: "😀", Text: "😀"}, false},
	}
	for _, c := range cases {
		got := CharKey(c.r)
		if got != c.want {
			t.Errorf("CharKey(%q) = %+v, want %+v", c.r, got, c.want)
		}
		if needsShift(got) != c.shift {
			t.Errorf("needsShift(CharKey(%q)) = %v, want %v", c.r, !c.shift, c.shift)
		}
	}
}

func TestKeyEvents(t *testing.T) {
	down, up := keyEvents(CharKey('a'), modShift)
	if down.Key != "A" || down.Text != "A" || down.Modifiers != modShift || down.Type != "keyDown" || up.Type != "keyUp" || up.Text != "" {
		t.Errorf("Shift+a: down %+v up %+v", down, up)
	}
	down, _ = keyEvents(CharKey('!'), 0)
	if down.Modifiers != modShift || down.Code != "Digit1" {
		t.Errorf("'!' should carry Shift: %+v", down)
	}
	down, _ = keyEvents(CharKey('a'), modControl)
	if down.Type != "rawKeyDown" || down.Text != "" || down.Key != "a" {
		t.Errorf("Control+a should insert nothing: %+v", down)
	}
	down, _ = keyEvents(KeyDef{Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37}, 0)
	if down.Type != "rawKeyDown" {
		t.Errorf("ArrowLeft: %+v", down)
	}
	down, _ = keyEvents(KeyDef{Key: "1", Code: "Numpad1", KeyCode: 97, Text: "1", Location: 3}, 0)
	if !down.IsKeypad || down.Location == nil || *down.Location != 3 {
		t.Errorf("Numpad1: %+v", down)
	}
	if _, _, err := parseModifiers("x", []string{"Control", "Hyper"}); KindOf(err) != KindInvalidArgument {
		t.Errorf("unknown modifier accepted: %v", err)
	}
	order, mask, err := parseModifiers("x", []string{"Shift", "Control", "Shift"})
	if err != nil || len(order) != 2 || mask != modShift|modControl {
		t.Errorf("parseModifiers = %v %v %v", order, mask, err)
	}
}

func TestBound(t *testing.T) {
	if s, cut := bound("héllo😀x", 6); s != "héllo😀" || !cut {
		t.Errorf("bound = %q %v", s, cut)
	}
	if s, cut := bound("abc", 3); s != "abc" || cut {
		t.Errorf("bound = %q %v", s, cut)
	}
}
