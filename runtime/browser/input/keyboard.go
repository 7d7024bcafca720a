package input

import (
	"context"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// keyEvents builds the down and up events for k with the modifier bits mods held. Shift held turns a
// US-layout character into its shifted one; a shifted character sets the Shift bit itself. With Alt,
// Control or Meta held the key inserts nothing (as on Linux and Windows): the keydown still fires and
// runs the browser's editing shortcut, such as Control+A selecting all.
func keyEvents(k KeyDef, mods int) (down, up proto.InputDispatchKeyEvent) {
	if mods&modShift != 0 {
		k = shifted(k)
	}
	if needsShift(k) {
		mods |= modShift
	}
	text := k.Text
	if mods&(modAlt|modControl|modMeta) != 0 {
		text = ""
	}
	down = proto.InputDispatchKeyEvent{
		Type:                  proto.InputDispatchKeyEventTypeRawKeyDown,
		Modifiers:             mods,
		Key:                   k.Key,
		Code:                  k.Code,
		WindowsVirtualKeyCode: k.KeyCode,
		NativeVirtualKeyCode:  k.KeyCode,
		IsKeypad:              k.Location == 3,
	}
	if k.Location != 0 {
		down.Location = intp(k.Location)
	}
	up = down
	up.Type = proto.InputDispatchKeyEventTypeKeyUp
	if text != "" {
		// A keyDown carrying text makes Blink fire keydown, keypress and the text input from one
		// message, so no separate char event is needed.
		down.Type = proto.InputDispatchKeyEventTypeKeyDown
		down.Text, down.UnmodifiedText = text, text
	}
	return down, up
}

// parseModifiers turns contract modifier names into their bits, keeping first-seen order for the
// key-down sequence; a repeated name is pressed once.
func parseModifiers(op string, names []string) ([]string, int, error) {
	order := make([]string, 0, len(names))
	mask := 0
	for _, n := range names {
		m, ok := modifierKeys[n]
		if !ok {
			return nil, 0, invalid(op, "unknown modifier %q", n)
		}
		if mask&m.bit == 0 {
			order = append(order, n)
			mask |= m.bit
		}
	}
	return order, mask, nil
}

// PressKey presses k repeat times while holding modifiers ("Alt", "Control", "Meta", "Shift"): each
// modifier goes down (in the order given) before the first press and up (in reverse) after the last,
// and every event carries the modifier bitmask. repeat must be at least 1.
func PressKey(ctx context.Context, page *rod.Page, k KeyDef, modifiers []string, repeat int) (Effect, error) {
	return strokes(ctx, page, "press_key", []KeyDef{k}, modifiers, repeat)
}

// Strokes presses keys in order, the whole sequence repeat times, with modifiers held throughout as
// in PressKey.
func Strokes(ctx context.Context, page *rod.Page, keys []KeyDef, modifiers []string, repeat int) (Effect, error) {
	return strokes(ctx, page, "strokes", keys, modifiers, repeat)
}

func strokes(ctx context.Context, page *rod.Page, op string, keys []KeyDef, modifiers []string, repeat int) (Effect, error) {
	switch {
	case len(keys) == 0:
		return EffectNone, invalid(op, "no keys")
	case repeat < 1:
		return EffectNone, invalid(op, "repeat %d below 1", repeat)
	}
	for _, k := range keys {
		if k.Key == "" {
			return EffectNone, invalid(op, "key definition without a key")
		}
	}
	order, _, err := parseModifiers(op, modifiers)
	if err != nil {
		return EffectNone, err
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return EffectNone, err
	}
	// The first key is asked about before its modifiers go down: a key the
	// guard refuses leaves nothing at all in the page, not a held Control.
	_, mask, _ := parseModifiers(op, modifiers)
	if err := r.check(strokeOf(keys[0], mask)); err != nil {
		return EffectNone, err
	}
	held := 0
	for _, name := range order {
		m := modifierKeys[name]
		held |= m.bit
		down, _ := keyEvents(m.key, held)
		if err := r.send(down); err != nil {
			return r.effect(err), err
		}
	}
	for i := 0; i < repeat; i++ {
		for j, k := range keys {
			down, up := keyEvents(k, held)
			if i+j == 0 {
				// asked above
			} else if err := r.check(strokeOf(k, held)); err != nil {
				return r.effect(err), err
			}
			if err := r.send(down); err != nil {
				return r.effect(err), err
			}
			last := len(order) == 0 && i == repeat-1 && j == len(keys)-1
			if err := r.sendOrPost(up, last); err != nil {
				return r.effect(err), err
			}
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		m := modifierKeys[order[i]]
		held &^= m.bit
		_, up := keyEvents(m.key, held)
		if err := r.sendOrPost(up, i == 0); err != nil {
			return r.effect(err), err
		}
	}
	return EffectApplied, nil
}

// TypeText types text into the focused element with real key events, one keydown (carrying the
// character) and keyup per character, so keydown, keypress and input listeners fire per character.
// A newline ("\n", "\r" or "\r\n") presses Enter. Characters with no key on the US layout (emoji, CJK,
// accented letters, tab) are inserted with Input.insertText, one call per consecutive run, which
// fires beforeinput/input but no key events.
//
// typed counts the characters (code points) whose text-bearing message the browser acknowledged, so
// a cancelled or timed-out call reports how much of text reached the page.
func TypeText(ctx context.Context, page *rod.Page, text string) (typed int, eff Effect, err error) {
	const op = "type_text"
	r, err := newRun(ctx, page, op)
	if err != nil {
		return 0, EffectNone, err
	}
	runes := []rune(text)
	if len(runes) == 0 {
		return 0, EffectNone, nil
	}
	for i := 0; i < len(runes); {
		c := runes[i]
		switch {
		case c == '\r' || c == '\n':
			n := 1
			if c == '\r' && i+1 < len(runes) && runes[i+1] == '\n' {
				n = 2
			}
			if err := r.check(strokeOf(enterKey, 0)); err != nil {
				return typed, r.effect(err), err
			}
			down, err := pressTyped(r, enterKey, i+n == len(runes))
			if down {
				typed += n
			}
			if err != nil {
				return typed, r.effect(err), err
			}
			i += n
		case typable(c):
			if err := r.check(strokeOf(CharKey(c), 0)); err != nil {
				return typed, r.effect(err), err
			}
			down, err := pressTyped(r, CharKey(c), i+1 == len(runes))
			if down {
				typed++
			}
			if err != nil {
				return typed, r.effect(err), err
			}
			i++
		default:
			j := i + 1
			for j < len(runes) && !typable(runes[j]) && runes[j] != '\r' && runes[j] != '\n' {
				j++
			}
			if err := r.check(Stroke{Inserts: true}); err != nil {
				return typed, r.effect(err), err
			}
			if err := r.send(proto.InputInsertText{Text: string(runes[i:j])}); err != nil {
				return typed, r.effect(err), err
			}
			typed += j - i
			i = j
		}
	}
	return typed, r.effect(nil), nil
}

// pressTyped sends one key's down and up, awaiting the up only for the last character (the next
// keydown's reply confirms it otherwise). down reports whether the keydown, which inserts the
// character, was acknowledged: a failure on the keyup still leaves the character in the page.
func pressTyped(r *run, k KeyDef, last bool) (down bool, err error) {
	d, u := keyEvents(k, 0)
	if err := r.send(d); err != nil {
		return false, err
	}
	return true, r.sendOrPost(u, last)
}
