package mcpedge

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// parse reads one JSON value from b, which json.Compact has checked, in a
// single pass over the bytes: a scalar keeps its input bytes when they are
// already what the text block writes (every number, literal and string
// without escapes), and only a string with escapes is decoded and written
// again. It replaced json.Decoder.Token, which every call paid for: render
// took 29 µs with it and takes 11 µs with parse (BenchmarkRender), and a
// policy_explain's projection of its larger envelope about 100 µs less.
// FuzzTextParse holds it to the former reader's output byte for byte.
func parse(b []byte) (*value, error) {
	p := parser{b: b}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, errors.New("trailing data after the envelope")
	}
	return v, nil
}

type parser struct {
	b []byte
	i int
}

var errSyntax = errors.New("malformed JSON")

func (p *parser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (*value, error) {
	p.space()
	if p.i >= len(p.b) {
		return nil, errSyntax
	}
	switch p.b[p.i] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		raw, err := p.str()
		if err != nil {
			return nil, err
		}
		s, err := textString(raw)
		return &value{raw: s}, err
	default:
		start := p.i
		for p.i < len(p.b) && !delimiter(p.b[p.i]) {
			p.i++
		}
		lit := p.b[start:p.i]
		if !json.Valid(lit) {
			return nil, errSyntax
		}
		return &value{raw: lit}, nil
	}
}

// delimiter ends a number or a literal.
func delimiter(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

func (p *parser) object() (*value, error) {
	v := &value{kind: '{'}
	p.i++ // {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return v, nil
	}
	for {
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, errSyntax
		}
		raw, err := p.str()
		if err != nil {
			return nil, err
		}
		k, err := key(raw)
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, errSyntax
		}
		p.i++
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		v.keys, v.vals = append(v.keys, k), append(v.vals, e)
		if done, err := p.after('}'); done || err != nil {
			return v, err
		}
	}
}

func (p *parser) array() (*value, error) {
	v := &value{kind: '['}
	p.i++ // [
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return v, nil
	}
	for {
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		v.elems = append(v.elems, e)
		if done, err := p.after(']'); done || err != nil {
			return v, err
		}
	}
}

// after reads what follows a member or an element: a comma (more come) or
// the container's close.
func (p *parser) after(close byte) (done bool, err error) {
	p.space()
	if p.i >= len(p.b) {
		return false, errSyntax
	}
	switch p.b[p.i] {
	case ',':
		p.i++
		return false, nil
	case close:
		p.i++
		return true, nil
	}
	return false, errSyntax
}

// str returns the string starting at p.i, quotes included.
func (p *parser) str() ([]byte, error) {
	start := p.i
	for p.i++; p.i < len(p.b); p.i++ {
		switch p.b[p.i] {
		case '\\':
			p.i++
		case '"':
			p.i++
			return p.b[start:p.i], nil
		default:
			if p.b[p.i] < 0x20 {
				return nil, errSyntax
			}
		}
	}
	return nil, errSyntax
}

// plain says a quoted string is written as it came: no escapes, valid UTF-8,
// and none of the two line separators the encoder escapes.
func plain(raw []byte) bool {
	body := raw[1 : len(raw)-1]
	return bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) &&
		!bytes.Contains(body, []byte("\u2028")) && !bytes.Contains(body, []byte("\u2029"))
}

// textString is a string as the text block writes it: compact, with <, >
// and & left as they are.
func textString(raw []byte) ([]byte, error) {
	if plain(raw) {
		return raw, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	return scalar(s)
}

func key(raw []byte) (string, error) {
	if plain(raw) {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// writeKey writes an object key as scalar would, without an encoder for the
// common key of plain ASCII.
func writeKey(w *bytes.Buffer, k string) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			kb, _ := scalar(k)
			w.Write(kb)
			return
		}
	}
	w.WriteByte('"')
	w.WriteString(k)
	w.WriteByte('"')
}
