package policyfile

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type kind uint8

const (
	tEOF kind = iota
	tIdent
	tString
	tInt
	tLBrace
	tRBrace
	tLBrack
	tRBrack
	tColon
	tComma // explicit, or inserted at a newline as CUE does
)

type token struct {
	kind kind
	pos  Pos
	text string // identifier, decoded string, or canonical integer
	auto bool   // a comma inserted at a newline
}

// lexer scans CUE's data subset. Anything outside it is an error that says
// what was found, so a person learns that layers are data.
type lexer struct {
	file string
	src  []byte
	i    int
	line int
	col  int
	// last is the previous token's kind: a newline after an identifier, a
	// literal, ] or } ends the field (CUE's comma insertion).
	last kind
	have bool
}

func newLexer(file string, src []byte) *lexer {
	return &lexer{file: file, src: src, line: 1, col: 1}
}

func (l *lexer) pos() Pos { return Pos{Line: l.line, Col: l.col} }

func (l *lexer) errAt(p Pos, format string, a ...any) *Error {
	return &Error{File: l.file, Pos: p, Msg: sprintf(format, a...)}
}

func (l *lexer) advance(n int) {
	for k := 0; k < n && l.i < len(l.src); k++ {
		if l.src[l.i] == '\n' {
			l.line++
			l.col = 1
		} else if l.src[l.i] < utf8.RuneSelf || utf8.RuneStart(l.src[l.i]) {
			l.col++
		}
		l.i++
	}
}

func (l *lexer) peekByte(k int) byte {
	if l.i+k < len(l.src) {
		return l.src[l.i+k]
	}
	return 0
}

// next returns the next token.
func (l *lexer) next() (token, *Error) {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\n':
			p := l.pos()
			l.advance(1)
			if l.have && (l.last == tIdent || l.last == tString || l.last == tInt || l.last == tRBrace || l.last == tRBrack) {
				l.last = tComma
				return token{kind: tComma, pos: p, auto: true}, nil
			}
		case c == ' ' || c == '\t' || c == '\r':
			l.advance(1)
		case c == '/' && l.peekByte(1) == '/':
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.advance(1)
			}
		default:
			t, err := l.scan()
			if err != nil {
				return t, err
			}
			l.last, l.have = t.kind, true
			return t, nil
		}
	}
	return token{kind: tEOF, pos: l.pos()}, nil
}

var punct = map[byte]kind{'{': tLBrace, '}': tRBrace, '[': tLBrack, ']': tRBrack, ':': tColon, ',': tComma}

func (l *lexer) scan() (token, *Error) {
	p := l.pos()
	c := l.src[l.i]
	if k, ok := punct[c]; ok {
		l.advance(1)
		return token{kind: k, pos: p}, nil
	}
	switch {
	case c == '"':
		if strings.HasPrefix(string(l.src[l.i:min(l.i+3, len(l.src))]), `"""`) {
			return token{}, l.errAt(p, "multi-line strings are not supported in policy layers; write the string on one line")
		}
		s, err := l.str()
		return token{kind: tString, pos: p, text: s}, err
	case c == '\'':
		return token{}, l.errAt(p, "byte strings are not data a policy layer takes; use a double-quoted string")
	case c == '#':
		if l.peekByte(1) == '"' {
			return token{}, l.errAt(p, "raw strings are not supported in policy layers; use a double-quoted string")
		}
		return token{}, l.errAt(p, "definitions are not allowed: policy layers are data")
	case c == '-' || c >= '0' && c <= '9':
		return l.number()
	case c == '.' && l.peekByte(1) == '.' && l.peekByte(2) == '.':
		return token{}, l.errAt(p, "`...` is not allowed: policy layers are data (the schema is closed)")
	case c == '.' && l.peekByte(1) >= '0' && l.peekByte(1) <= '9':
		return token{}, l.errAt(p, "policy numbers are whole decimal numbers")
	case c == '@':
		return token{}, l.errAt(p, "attributes are not allowed: policy layers are data")
	case c == '*':
		return token{}, l.errAt(p, "defaults are not allowed: policy layers are data")
	case c == '?' || c == '!':
		if c == '!' && l.peekByte(1) == '=' {
			return token{}, l.errAt(p, "expressions are not allowed: policy layers are data (found %q)", "!=")
		}
		return token{}, l.errAt(p, "optional and required markers (%q) are constraints, not data: write the field plainly", string(c))
	}
	r, n := utf8.DecodeRune(l.src[l.i:])
	if r == utf8.RuneError && n <= 1 {
		return token{}, l.errAt(p, "the file is not valid UTF-8")
	}
	if isIdentStart(r) {
		start := l.i
		for l.i < len(l.src) {
			r, n := utf8.DecodeRune(l.src[l.i:])
			if !isIdentStart(r) && !unicode.IsDigit(r) {
				break
			}
			l.advance(n)
		}
		id := string(l.src[start:l.i])
		if strings.HasPrefix(id, "_") {
			return token{}, l.errAt(p, "hidden fields and _ are not allowed: policy layers are data")
		}
		return token{kind: tIdent, pos: p, text: id}, nil
	}
	return token{}, l.errAt(p, "expressions are not allowed: policy layers are data (found %q)", string(r))
}

func isIdentStart(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) }

// str decodes a double-quoted string with CUE's escapes, refusing
// interpolation, raw control characters and invalid UTF-8.
func (l *lexer) str() (string, *Error) {
	p := l.pos()
	l.advance(1)
	var b strings.Builder
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '"':
			l.advance(1)
			return b.String(), nil
		case c == '\n':
			return "", l.errAt(p, "unterminated string")
		case c < 0x20:
			return "", l.errAt(l.pos(), "control character in a string")
		case c == '\\':
			ep := l.pos()
			e := l.peekByte(1)
			simple := map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'a': 7, 'b': 8, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11, '\'': '\''}
			if v, ok := simple[e]; ok {
				b.WriteByte(v)
				l.advance(2)
				continue
			}
			if e == '(' {
				return "", l.errAt(ep, "string interpolation is not allowed: policy layers are data")
			}
			n := map[byte]int{'u': 4, 'U': 8}[e]
			if n == 0 || l.i+2+n > len(l.src) {
				return "", l.errAt(ep, "invalid escape in a string")
			}
			v, err := strconv.ParseUint(string(l.src[l.i+2:l.i+2+n]), 16, 32)
			if err != nil || !utf8.ValidRune(rune(v)) {
				return "", l.errAt(ep, "invalid escape in a string")
			}
			b.WriteRune(rune(v))
			l.advance(2 + n)
		default:
			r, n := utf8.DecodeRune(l.src[l.i:])
			if r == utf8.RuneError && n <= 1 {
				return "", l.errAt(l.pos(), "the file is not valid UTF-8")
			}
			b.WriteRune(r)
			l.advance(n)
		}
	}
	return "", l.errAt(p, "unterminated string")
}

var multipliers = map[string]int64{"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50}

// number scans a whole decimal number: an optional minus, digits with _
// between them, and an optional multiplier (K, Ki, M, Mi, …) as CUE writes
// sizes. Fractions, exponents and other bases are refused.
func (l *lexer) number() (token, *Error) {
	p := l.pos()
	start := l.i
	neg := false
	if l.src[l.i] == '-' {
		neg = true
		l.advance(1)
		if l.i >= len(l.src) || l.src[l.i] < '0' || l.src[l.i] > '9' {
			return token{}, l.errAt(p, "expressions are not allowed: policy layers are data (found %q)", "-")
		}
	}
	var digits strings.Builder
	for l.i < len(l.src) {
		c := l.src[l.i]
		if c >= '0' && c <= '9' {
			digits.WriteByte(c)
			l.advance(1)
			continue
		}
		if c == '_' && digits.Len() > 0 && l.peekByte(1) >= '0' && l.peekByte(1) <= '9' {
			l.advance(1)
			continue
		}
		break
	}
	d := digits.String()
	if len(d) > 1 && d[0] == '0' {
		return token{}, l.errAt(p, "policy numbers are whole decimal numbers (found a leading zero)")
	}
	mult := int64(1)
	for _, m := range []string{"Ki", "Mi", "Gi", "Ti", "Pi", "K", "M", "G", "T", "P"} {
		if strings.HasPrefix(string(l.src[l.i:]), m) {
			mult = multipliers[m]
			l.advance(len(m))
			break
		}
	}
	if l.i < len(l.src) {
		c := l.src[l.i]
		if c == '.' || c == 'e' || c == 'E' || c == 'x' || c == 'o' || c == 'b' || c == '_' || isIdentStart(rune(c)) || c >= '0' && c <= '9' {
			return token{}, l.errAt(p, "policy numbers are whole decimal numbers (found %q)", string(l.src[start:min(l.i+1, len(l.src))]))
		}
	}
	n, err := strconv.ParseInt(d, 10, 64)
	if err != nil || n > (1<<53)/mult {
		return token{}, l.errAt(p, "number out of range")
	}
	n *= mult
	if neg {
		n = -n
	}
	return token{kind: tInt, pos: p, text: strconv.FormatInt(n, 10)}, nil
}
