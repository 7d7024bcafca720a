package input

import "testing"

// TestStrokeOf: which keys a guard is told insert text, paste, or are the
// Enter and Space that submit a form.
func TestStrokeOf(t *testing.T) {
	v := CharKey('v')
	space := KeyDef{Key: " ", Code: "Space", KeyCode: 32, Text: " "}
	insert := KeyDef{Key: "Insert", Code: "Insert", KeyCode: 45}
	for _, c := range []struct {
		name                        string
		k                           KeyDef
		held                        int
		inserts, paste, enter, spac bool
	}{
		{"a", CharKey('a'), 0, true, false, false, false},
		{"Shift+a", CharKey('a'), modShift, true, false, false, false},
		{"Control+a", CharKey('a'), modControl, false, false, false, false},
		{"Control+v", v, modControl, false, true, false, false},
		{"Meta+v", v, modMeta, false, true, false, false},
		{"Control+Alt+v", v, modControl | modAlt, false, false, false, false},
		{"Shift+Insert", insert, modShift, false, true, false, false},
		{"Insert", insert, 0, false, false, false, false},
		{"Enter", enterKey, 0, false, false, true, false},
		{"Control+Enter", enterKey, modControl, false, false, true, false},
		{"Space", space, 0, true, false, false, true},
	} {
		s := strokeOf(c.k, c.held)
		if s.Inserts != c.inserts || s.Paste != c.paste || s.Enter != c.enter || s.Space != c.spac {
			t.Errorf("%s: %+v", c.name, s)
		}
	}
}
