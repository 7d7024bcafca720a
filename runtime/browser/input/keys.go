package input

import "unicode/utf8"

// KeyDef describes one key press as DevTools dispatches it. The named-key table is generated from
// the contract elsewhere; CharKey builds definitions for single characters.
type KeyDef struct {
	// Key is KeyboardEvent.key: "a", "A", "Enter", "ArrowLeft".
	Key string
	// Code is KeyboardEvent.code, the physical key: "KeyA", "Enter". Empty for a character that has
	// no key on the US layout (emoji, CJK, accented letters).
	Code string
	// KeyCode is the Windows virtual key code (KeyboardEvent.keyCode): 65 for A, 13 for Enter.
	KeyCode int
	// Text is what the key inserts: "a", "\r" for Enter, "" for keys that insert nothing.
	Text string
	// Location is KeyboardEvent.location: 0 standard, 1 left, 2 right, 3 numpad.
	Location int
}

// Modifier bits as DevTools counts them.
const (
	modAlt     = 1
	modControl = 2
	modMeta    = 4
	modShift   = 8
)

// modifierKeys are the keys pressed for the contract's modifier names, in bit order.
var modifierKeys = map[string]struct {
	bit int
	key KeyDef
}{
	"Alt":     {modAlt, KeyDef{Key: "Alt", Code: "AltLeft", KeyCode: 18, Location: 1}},
	"Control": {modControl, KeyDef{Key: "Control", Code: "ControlLeft", KeyCode: 17, Location: 1}},
	"Meta":    {modMeta, KeyDef{Key: "Meta", Code: "MetaLeft", KeyCode: 91, Location: 1}},
	"Shift":   {modShift, KeyDef{Key: "Shift", Code: "ShiftLeft", KeyCode: 16, Location: 1}},
}

// enterKey is what a newline types.
var enterKey = KeyDef{Key: "Enter", Code: "Enter", KeyCode: 13, Text: "\r"}

// usKey is one physical key of the US layout: its code, virtual key code, and the characters it
// types without and with Shift.
type usKey struct {
	code         string
	keyCode      int
	plain, shift rune
}

var usKeys = func() []usKey {
	keys := []usKey{
		{"Backquote", 192, '`', '~'}, {"Digit1", 49, '1', '!'}, {"Digit2", 50, '2', '@'},
		{"Digit3", 51, '3', '#'}, {"Digit4", 52, '4', '$'}, {"Digit5", 53, '5', '%'},
		{"Digit6", 54, '6', '^'}, {"Digit7", 55, '7', '&'}, {"Digit8", 56, '8', '*'},
		{"Digit9", 57, '9', '('}, {"Digit0", 48, '0', ')'}, {"Minus", 189, '-', '_'},
		{"Equal", 187, '=', '+'}, {"BracketLeft", 219, '[', '{'}, {"BracketRight", 221, ']', '}'},
		{"Backslash", 220, '\\', '|'}, {"Semicolon", 186, ';', ':'}, {"Quote", 222, '\'', '"'},
		{"Comma", 188, ',', '<'}, {"Period", 190, '.', '>'}, {"Slash", 191, '/', '?'},
		{"Space", 32, ' ', 0},
	}
	for i := 0; i < 26; i++ {
		keys = append(keys, usKey{"Key" + string(rune('A'+i)), 65 + i, rune('a' + i), rune('A' + i)})
	}
	return keys
}()

// usByRune finds the key typing a character; usByCode finds a key by its code.
var usByRune, usByCode = func() (map[rune]usKey, map[string]usKey) {
	byRune, byCode := map[rune]usKey{}, map[string]usKey{}
	for _, k := range usKeys {
		byCode[k.code] = k
		byRune[k.plain] = k
		if k.shift != 0 {
			byRune[k.shift] = k
		}
	}
	return byRune, byCode
}()

// CharKey returns the US-layout key press typing r. Uppercase letters and shifted symbols ("A", "!")
// keep the key's code ("KeyA", "Digit1"); the dispatcher adds the Shift modifier bit for them. A
// character with no key on the layout gets an empty Code and KeyCode 0: PressKey still sends it as a
// key event carrying the text, TypeText inserts it as text.
func CharKey(r rune) KeyDef {
	if r == '\r' || r == '\n' {
		return enterKey
	}
	s := string(r)
	k, ok := usByRune[r]
	if !ok {
		return KeyDef{Key: s, Text: s}
	}
	return KeyDef{Key: s, Code: k.code, KeyCode: k.keyCode, Text: s}
}

// needsShift reports whether k is the shifted character of its US-layout key.
func needsShift(k KeyDef) bool {
	u, ok := usByCode[k.Code]
	if !ok || u.shift == 0 {
		return false
	}
	r, size := utf8.DecodeRuneInString(k.Key)
	return size == len(k.Key) && r == u.shift
}

// shifted returns the character Shift turns k into on the US layout; other keys are unchanged.
func shifted(k KeyDef) KeyDef {
	u, ok := usByCode[k.Code]
	if !ok || u.shift == 0 {
		return k
	}
	r, size := utf8.DecodeRuneInString(k.Key)
	if size != len(k.Key) || r != u.plain {
		return k
	}
	return CharKey(u.shift)
}

// typable reports whether r is typed with a key press (rather than inserted as text).
func typable(r rune) bool {
	_, ok := usByRune[r]
	return ok
}
