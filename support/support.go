// Package support is the shared runtime of Ghostlight's generated decoders,
// as protobuf-go's protoimpl is of generated messages: the JSON scanning,
// the typed refusals of a field ("which field broke which rule") and the
// format checks every generated package calls. It knows nothing of any
// surface: the rules it names are plain strings that gen/ checks against
// spec/'s rule enum, and each generated package turns an *Error into its
// own DecodeError at its public decoders.
//
// Generated packages import it (github.com/ghostlight-dev/ghostlight/support)
// rather than carrying a copy; it sits beside gen/ and generated/, under
// neither, because gen/ reads its Rules and generated/ calls it, and it
// imports nothing of the module (conformance/deps_test.go holds that).
package support

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The rules the decoders name; gen/ refuses a spec whose rule enum lacks one.
const (
	RuleSyntax          = "syntax"
	RuleType            = "type"
	RuleRequired        = "required"
	RuleUnknownField    = "unknown_field"
	RuleDuplicateField  = "duplicate_field"
	RuleMinimum         = "minimum"
	RuleMaximum         = "maximum"
	RuleInteger         = "integer"
	RuleFinite          = "finite"
	RuleMinLength       = "min_length"
	RuleMaxLength       = "max_length"
	RuleMinItems        = "min_items"
	RuleMaxItems        = "max_items"
	RuleEnum            = "enum"
	RuleUtf8            = "utf8"
	RuleURL             = "url"
	RuleHandle          = "handle"
	RuleFormat          = "format"
	RuleUnique          = "unique"
	RuleConflict        = "conflict"
	RuleBranchRequired  = "branch_required"
	RuleBranchForbidden = "branch_forbidden"
	RuleEmptyText       = "empty_text"
)

// Rules lists every rule the decoders name.
var Rules = []string{RuleSyntax, RuleType, RuleRequired, RuleUnknownField, RuleDuplicateField,
	RuleMinimum, RuleMaximum, RuleInteger, RuleFinite, RuleMinLength, RuleMaxLength, RuleMinItems,
	RuleMaxItems, RuleEnum, RuleUtf8, RuleURL, RuleHandle, RuleFormat, RuleUnique, RuleConflict,
	RuleBranchRequired, RuleBranchForbidden, RuleEmptyText}

// Error says which field broke which rule.
type Error struct {
	Pointer string // JSON Pointer of the field ("" is the whole object)
	Rule    string // one of Rules
	Limit   string // the limit of that rule, when it has one
	Message string
}

func (e *Error) Error() string {
	p := e.Pointer
	if p == "" {
		p = "/"
	}
	return p + ": " + e.Message
}

// Path is a JSON Pointer built lazily: rendered only for an error.
type Path struct {
	Parent *Path
	Key    string
	Index  int // -1 when Key names an object member
}

// Key is the path of member key of parent.
func Key(parent *Path, key string) *Path { return &Path{Parent: parent, Key: key, Index: -1} }

// Index is the path of item i of parent.
func Index(parent *Path, i int) *Path { return &Path{Parent: parent, Index: i} }

func (p *Path) String() string {
	if p == nil {
		return ""
	}
	var seg string
	if p.Index >= 0 {
		seg = strconv.Itoa(p.Index)
	} else {
		seg = strings.ReplaceAll(strings.ReplaceAll(p.Key, "~", "~0"), "/", "~1")
	}
	return p.Parent.String() + "/" + seg
}

func fail(p *Path, rule, limit, msg string) *Error {
	return &Error{Pointer: p.String(), Rule: rule, Limit: limit, Message: msg}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func fieldName(p *Path) string {
	if p == nil {
		return "arguments"
	}
	if p.Index >= 0 {
		return fieldName(p.Parent) + "[" + strconv.Itoa(p.Index) + "]"
	}
	return p.Key
}

// Span is one raw member value inside the decoded document.
type Span struct{ Start, End int }

// Set reports whether the member was present.
func (s Span) Set() bool { return s.End > 0 }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(d []byte, i int) int {
	for i < len(d) && isSpace(d[i]) {
		i++
	}
	return i
}

// Members scans one JSON object, recording each member's raw value Span by the
// index of its key in keys. Unknown and repeated keys are refused; extra (a
// composite step's discriminator, decoded by the caller) is passed over.
func Members(d []byte, p *Path, keys []string, out []Span, extra string) *Error {
	return MembersIgnoring(d, p, keys, out, extra, nil)
}

// MembersIgnoring is Members that also passes over the members named in
// ignore: the fields a client adds to every tool's arguments on its own
// (spec/fields.cue, client_added_fields), accepted and never read.
func MembersIgnoring(d []byte, p *Path, keys []string, out []Span, extra string, ignore []string) *Error {
	i := skipSpace(d, 0)
	if i >= len(d) || d[i] != '{' {
		return fail(p, RuleType, "object", fieldName(p)+" must be an object")
	}
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return trailing(d, i+1, p)
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
		}
		ks, ke, esc, err := scanString(d, i, p)
		if err != nil {
			return err
		}
		var key string
		if esc {
			key, err = unquote(d[ks:ke], p)
			if err != nil {
				return err
			}
		}
		i = skipSpace(d, ke+1)
		if i >= len(d) || d[i] != ':' {
			return fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
		}
		i = skipSpace(d, i+1)
		vs := i
		ve, err := SkipValue(d, i, p, 0)
		if err != nil {
			return err
		}
		if (extra != "" && !esc && string(d[ks+1:ke]) == extra) || ignored(d[ks+1:ke], esc, key, ignore) {
			i = skipSpace(d, ve)
			if i < len(d) && d[i] == ',' {
				i = skipSpace(d, i+1)
				continue
			}
			if i < len(d) && d[i] == '}' {
				return trailing(d, i+1, p)
			}
			return fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
		}
		idx := -1
		for k := range keys {
			if (!esc && string(d[ks+1:ke]) == keys[k]) || (esc && key == keys[k]) {
				idx = k
				break
			}
		}
		if idx < 0 {
			if !esc {
				key = string(d[ks+1 : ke])
			}
			return fail(Key(p, key), RuleUnknownField, "", "unknown field "+strconv.Quote(key))
		}
		if out[idx].Set() {
			return fail(Key(p, keys[idx]), RuleDuplicateField, "", keys[idx]+" appears twice")
		}
		out[idx] = Span{Start: vs, End: ve}
		i = skipSpace(d, ve)
		if i < len(d) && d[i] == ',' {
			i = skipSpace(d, i+1)
			continue
		}
		if i < len(d) && d[i] == '}' {
			return trailing(d, i+1, p)
		}
		return fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
	}
}

func ignored(raw []byte, esc bool, key string, ignore []string) bool {
	for _, n := range ignore {
		if (!esc && string(raw) == n) || (esc && key == n) {
			return true
		}
	}
	return false
}

// Omit says which values of an optional member read as "not given": what a
// strict-mode client sends for a field it means to leave out
// (docs/strict-mode.md). Required members have none.
type Omit uint8

// Values an optional member may hold to mean "not given".
const (
	OmitNull        Omit = 1 << iota // null, on every optional member
	OmitEmptyString                  // "", where a string cannot be empty (handles, formats, queries)
	OmitEmptyArray                   // [], where a list cannot be empty (restrictions, paths, strokes)
	OmitFalse                        // false, on booleans whose only value is true
)

// Unset clears the span of every member whose value reads as not given, so
// the decoder that follows sees it absent: defaults apply, branches and
// conflicts ignore it.
func Unset(d []byte, raw []Span, omit []Omit) {
	for i, r := range raw {
		if r.Set() && omit[i] != 0 && Omitted(d[r.Start:r.End], omit[i]) {
			raw[i] = Span{}
		}
	}
}

// Omitted reports whether a raw member value reads as not given under o.
func Omitted(v []byte, o Omit) bool {
	if len(v) == 0 {
		return false
	}
	switch v[0] {
	case 'n':
		return o&OmitNull != 0
	case '"':
		return o&OmitEmptyString != 0 && len(v) == 2
	case '[':
		return o&OmitEmptyArray != 0 && skipSpace(v, 1) == len(v)-1
	case 'f':
		return o&OmitFalse != 0
	}
	return false
}

// trailing refuses anything but whitespace after the root object.
func trailing(d []byte, i int, p *Path) *Error {
	if p != nil {
		return nil
	}
	if skipSpace(d, i) != len(d) {
		return fail(nil, RuleSyntax, "", "trailing data after the arguments object")
	}
	return nil
}

const maxNesting = 64

// SkipValue returns the end of the JSON value starting at i, checking syntax.
func SkipValue(d []byte, i int, p *Path, depth int) (int, *Error) {
	if depth > maxNesting {
		return 0, fail(p, RuleSyntax, itoa(maxNesting), "JSON nested too deeply")
	}
	if i >= len(d) {
		return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
	}
	switch c := d[i]; {
	case c == '"':
		_, e, _, err := scanString(d, i, p)
		return e + 1, err
	case c == '{' || c == '[':
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		i = skipSpace(d, i+1)
		if i < len(d) && d[i] == closer {
			return i + 1, nil
		}
		for {
			if c == '{' {
				if i >= len(d) || d[i] != '"' {
					return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
				}
				_, ke, _, err := scanString(d, i, p)
				if err != nil {
					return 0, err
				}
				i = skipSpace(d, ke+1)
				if i >= len(d) || d[i] != ':' {
					return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
				}
				i = skipSpace(d, i+1)
			}
			e, err := SkipValue(d, i, p, depth+1)
			if err != nil {
				return 0, err
			}
			i = skipSpace(d, e)
			if i < len(d) && d[i] == ',' {
				i = skipSpace(d, i+1)
				continue
			}
			if i < len(d) && d[i] == closer {
				return i + 1, nil
			}
			return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
		}
	case c == 't':
		return literal(d, i, "true", p)
	case c == 'f':
		return literal(d, i, "false", p)
	case c == 'n':
		return literal(d, i, "null", p)
	default:
		return scanNumber(d, i, p)
	}
}

func literal(d []byte, i int, lit string, p *Path) (int, *Error) {
	if len(d)-i >= len(lit) && string(d[i:i+len(lit)]) == lit {
		return i + len(lit), nil
	}
	return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
}

func scanNumber(d []byte, i int, p *Path) (int, *Error) {
	s := i
	if i < len(d) && d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if digits() == 0 {
		return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
		}
	}
	if i == s {
		return 0, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
	}
	return i, nil
}

// scanString returns the offsets of the opening and closing quotes, and
// whether the string holds escapes. It refuses control characters and invalid
// UTF-8.
func scanString(d []byte, i int, p *Path) (start, end int, escaped bool, err *Error) {
	start = i
	i++
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			return start, i, escaped, nil
		case c == '\\':
			escaped = true
			i += 2
		case c < 0x20:
			return 0, 0, false, fail(p, RuleSyntax, "", "control character in a string in "+fieldName(p))
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n <= 1 {
				return 0, 0, false, fail(p, RuleUtf8, "", fieldName(p)+" is not valid UTF-8")
			}
			i += n
		}
	}
	return 0, 0, false, fail(p, RuleSyntax, "", "unterminated string in "+fieldName(p))
}

// unquote decodes a quoted JSON string with escapes, refusing lone surrogates.
func unquote(q []byte, p *Path) (string, *Error) {
	var b strings.Builder
	b.Grow(len(q))
	for i := 1; i < len(q)-1; {
		c := q[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(q)-1 {
			return "", fail(p, RuleSyntax, "", "invalid escape in "+fieldName(p))
		}
		switch q[i+1] {
		case '"', '\\', '/':
			b.WriteByte(q[i+1])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(q, i+2)
			if !ok {
				return "", fail(p, RuleSyntax, "", "invalid escape in "+fieldName(p))
			}
			i += 6
			if r >= 0xD800 && r < 0xDC00 {
				if i+1 < len(q)-1 && q[i] == '\\' && q[i+1] == 'u' {
					if lo, ok := hex4(q, i+2); ok && lo >= 0xDC00 && lo < 0xE000 {
						b.WriteRune(((r - 0xD800) << 10) + (lo - 0xDC00) + 0x10000)
						i += 6
						continue
					}
				}
				return "", fail(p, RuleUtf8, "", fieldName(p)+" holds a lone surrogate")
			}
			if r >= 0xDC00 && r < 0xE000 {
				return "", fail(p, RuleUtf8, "", fieldName(p)+" holds a lone surrogate")
			}
			b.WriteRune(r)
			continue
		default:
			return "", fail(p, RuleSyntax, "", "invalid escape in "+fieldName(p))
		}
		i += 2
	}
	return b.String(), nil
}

func hex4(q []byte, i int) (rune, bool) {
	if i+4 > len(q) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(q[i:i+4]), 16, 32)
	return rune(n), err == nil
}

func kindOf(raw []byte) string {
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func WrongType(raw []byte, p *Path, want string) *Error {
	return fail(p, RuleType, want, fieldName(p)+" must be "+article(want)+", not "+article(kindOf(raw)))
}

func article(kind string) string {
	switch kind {
	case "integer", "object", "array":
		return "an " + kind
	case "null":
		return "null"
	}
	return "a " + kind
}

// DecString decodes a string member and checks its length in characters.
func DecString(raw []byte, p *Path, min, max int64) (string, *Error) {
	if raw[0] != '"' {
		return "", WrongType(raw, p, "string")
	}
	var s string
	if _, _, esc, err := scanString(raw, 0, p); err != nil {
		return "", err
	} else if esc {
		if s, err = unquote(raw, p); err != nil {
			return "", err
		}
	} else {
		s = string(raw[1 : len(raw)-1])
	}
	n := int64(utf8.RuneCountInString(s))
	if n < min {
		if min == 1 {
			return "", fail(p, RuleMinLength, itoa(min), fieldName(p)+" must not be empty")
		}
		return "", fail(p, RuleMinLength, itoa(min), fieldName(p)+" must have at least "+itoa(min)+" characters")
	}
	if max >= 0 && n > max {
		return "", fail(p, RuleMaxLength, itoa(max), fieldName(p)+" must have at most "+itoa(max)+" characters")
	}
	return s, nil
}

func DecBool(raw []byte, p *Path) (bool, *Error) {
	switch raw[0] {
	case 't':
		return true, nil
	case 'f':
		return false, nil
	}
	return false, WrongType(raw, p, "boolean")
}

func DecTrue(raw []byte, p *Path) (bool, *Error) {
	b, err := DecBool(raw, p)
	if err == nil && !b {
		err = fail(p, RuleEnum, "true", fieldName(p)+" must be true when present")
	}
	return b, err
}

// DecNumber decodes a finite JSON number.
func DecNumber(raw []byte, p *Path) (float64, *Error) {
	c := raw[0]
	if c != '-' && (c < '0' || c > '9') {
		return 0, WrongType(raw, p, "number")
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fail(p, RuleFinite, "", fieldName(p)+" must be a finite number")
	}
	return f, nil
}

// DecInt decodes an integer (1.0 counts, as in JSON Schema) within [min, max].
func DecInt(raw []byte, p *Path, min, max int64) (int, *Error) {
	c := raw[0]
	if c != '-' && (c < '0' || c > '9') {
		return 0, WrongType(raw, p, "integer")
	}
	var n int64
	simple := len(raw) <= 15
	for i, b := range raw {
		if b == '-' && i == 0 {
			continue
		}
		if b < '0' || b > '9' {
			simple = false
			break
		}
		n = n*10 + int64(b-'0')
	}
	if simple {
		if c == '-' {
			n = -n
		}
	} else {
		f, err := DecNumber(raw, p)
		if err != nil {
			return 0, err
		}
		if f != math.Trunc(f) {
			return 0, fail(p, RuleInteger, "", fieldName(p)+" must be a whole number")
		}
		if f < -1e15 || f > 1e15 {
			if f < float64(min) {
				return 0, fail(p, RuleMinimum, itoa(min), fieldName(p)+" must be at least "+itoa(min))
			}
			return 0, fail(p, RuleMaximum, itoa(max), fieldName(p)+" must be at most "+itoa(max))
		}
		n = int64(f)
	}
	if n < min {
		return 0, fail(p, RuleMinimum, itoa(min), fieldName(p)+" must be at least "+itoa(min))
	}
	if n > max {
		return 0, fail(p, RuleMaximum, itoa(max), fieldName(p)+" must be at most "+itoa(max))
	}
	return int(n), nil
}

// DecArray calls item for each element, checking the item count.
func DecArray(raw []byte, p *Path, min, max int64, item func(i int, raw []byte, p *Path) *Error) *Error {
	if raw[0] != '[' {
		return WrongType(raw, p, "array")
	}
	i := skipSpace(raw, 1)
	n := int64(0)
	if raw[i] != ']' {
		for {
			e, err := SkipValue(raw, i, p, 1)
			if err != nil {
				return err
			}
			n++
			if max >= 0 && n > max {
				return fail(p, RuleMaxItems, itoa(max), fieldName(p)+" must have at most "+itoa(max)+" items")
			}
			if err := item(int(n-1), raw[i:e], Index(p, int(n-1))); err != nil {
				return err
			}
			i = skipSpace(raw, e)
			if raw[i] == ']' {
				break
			}
			i = skipSpace(raw, i+1)
		}
	}
	if n < min {
		return fail(p, RuleMinItems, itoa(min), fieldName(p)+" must have at least "+itoa(min)+" items")
	}
	return nil
}

func EnumError(p *Path, values string) *Error {
	return fail(p, RuleEnum, values, fieldName(p)+" must be one of "+values)
}

func UniqueError(p *Path, i int) *Error {
	return fail(Index(p, i), RuleUnique, "", fieldName(p)+" repeats an item")
}

// CheckURL accepts absolute http and https URLs with a host: what the
// schemas' pattern ^https?://[^/?#] states, parsed.
func CheckURL(s string, p *Path) *Error {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "http://")
	}
	if !ok || rest == "" || strings.ContainsRune("/?#", rune(rest[0])) {
		return fail(p, RuleURL, "http,https", fieldName(p)+" must be an absolute http or https URL")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" || u.Opaque != "" {
		return fail(p, RuleURL, "http,https", fieldName(p)+" must be an absolute http or https URL")
	}
	return nil
}

// CheckHandle accepts "<prefix>_" followed by letters and digits.
func CheckHandle(s, prefix string, p *Path) *Error {
	if len(s) <= len(prefix)+1 || s[:len(prefix)] != prefix || s[len(prefix)] != '_' {
		return fail(p, RuleHandle, prefix+"_", fieldName(p)+" must be a "+prefix+"_ handle")
	}
	for i := len(prefix) + 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return fail(p, RuleHandle, prefix+"_", fieldName(p)+" must be a "+prefix+"_ handle")
		}
	}
	return nil
}

// CheckAbsolutePath accepts /… and a drive letter's X:\… or X:/…, as the
// schemas' pattern states; a NUL is refused too (no path holds one).
func CheckAbsolutePath(s string, p *Path) *Error {
	drive := len(s) > 2 && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') && s[1] == ':' && (s[2] == '\\' || s[2] == '/')
	if strings.ContainsRune(s, 0) || !(strings.HasPrefix(s, "/") || drive) {
		return fail(p, RuleFormat, "absolute_path", fieldName(p)+" must be an absolute path")
	}
	return nil
}

// CheckBase64 validates standard base64 without decoding it (bytes decode
// only after authorization): groups of four alphabet characters, the last
// padded with at most two '=', as the schemas' pattern states.
func CheckBase64(s string, p *Path) *Error {
	body := strings.TrimSuffix(s, "=")
	if len(body) < len(s) {
		body = strings.TrimSuffix(body, "=")
	}
	ok := len(s)%4 == 0
	for i := 0; ok && i < len(body); i++ {
		c := body[i]
		ok = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
	}
	if !ok {
		return fail(p, RuleFormat, "base64", fieldName(p)+" must be standard base64")
	}
	return nil
}

// Base64Size is the decoded size of standard base64 text checked by the decoder.
func Base64Size(s string) int64 {
	return int64(base64.StdEncoding.DecodedLen(len(s)) - strings.Count(s[max(0, len(s)-2):], "="))
}

// CheckKey accepts one character or a key named reports as known.
func CheckKey(s string, p *Path, named func(string) bool) *Error {
	if utf8.RuneCountInString(s) == 1 {
		return nil
	}
	if named(s) {
		return nil
	}
	return fail(p, RuleFormat, "key", fieldName(p)+" must be one character or a named key such as Enter")
}

// CheckHostPattern accepts a host, an IP address (IPv6 bare or in
// brackets) or "*." followed by one, each with an optional ":port": the
// characters of those forms (letters, digits, _, -, ., :, [ and ]), no dot
// first or last. Whether it parses as a host is the policy's to say.
func CheckHostPattern(s string, p *Path) *Error {
	h := strings.TrimPrefix(s, "*.")
	ok := h != "" && h[0] != '.' && h[len(h)-1] != '.'
	for i := 0; ok && i < len(h); i++ {
		c := h[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':' || c == '[' || c == ']'
	}
	if !ok {
		return fail(p, RuleFormat, "host_pattern", fieldName(p)+" must be a host, an IP address or *.domain, each with an optional :port")
	}
	return nil
}

// CheckAddressRule accepts a preset's name (lower-case letters and -) or
// an IP address or CIDR's characters (hex digits, . and :, then an
// optional /prefix of up to three digits). Whether it parses is the
// policy's to say.
func CheckAddressRule(s string, p *Path) *Error {
	preset := s != ""
	for i := 0; preset && i < len(s); i++ {
		preset = s[i] >= 'a' && s[i] <= 'z' || s[i] == '-'
	}
	if preset {
		return nil
	}
	addr, bits, cut := strings.Cut(s, "/")
	ok := addr != "" && (!cut || len(bits) >= 1 && len(bits) <= 3)
	for i := 0; ok && i < len(addr); i++ {
		c := addr[i]
		ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '.' || c == ':'
	}
	for i := 0; ok && i < len(bits); i++ {
		ok = bits[i] >= '0' && bits[i] <= '9'
	}
	if !ok {
		return fail(p, RuleFormat, "address_rule", fieldName(p)+" must be a preset's name, an IP address or a CIDR")
	}
	return nil
}

func CheckIdentifier(s string, p *Path) *Error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fail(p, RuleFormat, "identifier", fieldName(p)+" must use letters, digits, _ and -")
		}
	}
	return nil
}

func DecOpen(raw []byte, p *Path) (json.RawMessage, *Error) {
	if raw[0] != '{' {
		return nil, WrongType(raw, p, "object")
	}
	// Canonical form (compact, HTML-escaped as encoding/json writes it), so
	// an open value re-encodes to the same bytes.
	canon, err := json.Marshal(json.RawMessage(raw))
	if err != nil {
		return nil, fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
	}
	return canon, nil
}

func ConflictError(p *Path, a, b, why string) *Error {
	return fail(Key(p, b), RuleConflict, a, b+" cannot be combined with "+a+": "+why)
}

func BranchRequired(p *Path, field, branch string) *Error {
	return fail(Key(p, field), RuleBranchRequired, branch, field+" is required with "+branch)
}

func BranchForbidden(p *Path, field, branch string) *Error {
	return fail(Key(p, field), RuleBranchForbidden, branch, field+" is not valid with "+branch)
}

func BranchMissing(p *Path, alternatives string) *Error {
	return fail(p, RuleBranchRequired, alternatives, "one of "+alternatives+" is required")
}

// OneRequired refuses a branch given none of a group of fields.
func OneRequired(p *Path, fields, branch string) *Error {
	first, _, _ := strings.Cut(fields, ", ")
	return fail(Key(p, first), RuleBranchRequired, branch, "one of "+fields+" is required with "+branch)
}

func Required(p *Path, field string) *Error {
	return fail(Key(p, field), RuleRequired, "", field+" is required")
}

func StepForbidden(p *Path, field string) *Error {
	return fail(Key(p, field), RuleUnknownField, "", "unknown field "+strconv.Quote(field)+": steps take no tab or restrictions of their own")
}

// ScalarKind says which JSON kind a Scalar holds.
type ScalarKind uint8

const (
	ScalarNone ScalarKind = iota
	ScalarString
	ScalarBool
	ScalarNumber
)

// Scalar is a string, boolean or number input.
type Scalar struct {
	Kind   ScalarKind
	String string
	Bool   bool
	Number float64
}

// MarshalJSON renders the held value.
func (s Scalar) MarshalJSON() ([]byte, error) {
	switch s.Kind {
	case ScalarString:
		return json.Marshal(s.String)
	case ScalarBool:
		return json.Marshal(s.Bool)
	case ScalarNumber:
		return json.Marshal(s.Number)
	}
	return []byte("null"), nil
}

// Int returns a number as an int (integer kinds are checked by the decoder).
func (s Scalar) Int() int { return int(s.Number) }

func DecScalar(raw []byte, p *Path, kinds string, minLen, maxLen, min, max int64) (Scalar, *Error) {
	k := kindOf(raw)
	switch {
	case k == "string" && strings.Contains(kinds, "string"):
		s, err := DecString(raw, p, minLen, maxLen)
		return Scalar{Kind: ScalarString, String: s}, err
	case k == "boolean" && strings.Contains(kinds, "boolean"):
		b, err := DecBool(raw, p)
		return Scalar{Kind: ScalarBool, Bool: b}, err
	case k == "number" && strings.Contains(kinds, "integer"):
		n, err := DecInt(raw, p, min, max)
		return Scalar{Kind: ScalarNumber, Number: float64(n)}, err
	case k == "number" && strings.Contains(kinds, "number"):
		f, err := DecNumber(raw, p)
		return Scalar{Kind: ScalarNumber, Number: f}, err
	}
	return Scalar{}, WrongType(raw, p, strings.ReplaceAll(kinds, ",", " or "))
}

// SpliceKey renders {"key":"value", ...obj} for discriminated objects.
func SpliceKey(key, value string, obj []byte) []byte {
	k, _ := json.Marshal(key)
	v, _ := json.Marshal(value)
	out := make([]byte, 0, len(obj)+len(k)+len(v)+2)
	out = append(out, '{')
	out = append(out, k...)
	out = append(out, ':')
	out = append(out, v...)
	if len(obj) > 2 {
		out = append(out, ',')
	}
	return append(out, obj[1:]...)
}

// Member returns the raw value of one member of an object (for the
// discriminator of a variant), without checking the rest.
func Member(d []byte, key string) []byte {
	i := skipSpace(d, 0)
	if i >= len(d) || d[i] != '{' {
		return nil
	}
	i = skipSpace(d, i+1)
	for i < len(d) && d[i] == '"' {
		ks, ke, esc, err := scanString(d, i, nil)
		if err != nil {
			return nil
		}
		i = skipSpace(d, ke+1)
		if i >= len(d) || d[i] != ':' {
			return nil
		}
		i = skipSpace(d, i+1)
		e, err := SkipValue(d, i, nil, 0)
		if err != nil {
			return nil
		}
		if !esc && string(d[ks+1:ke]) == key {
			return d[i:e]
		}
		i = skipSpace(d, e)
		if i < len(d) && d[i] == ',' {
			i = skipSpace(d, i+1)
		}
	}
	return nil
}

func UnknownField(p *Path, field string) *Error {
	return fail(Key(p, field), RuleUnknownField, "", "unknown field "+strconv.Quote(field))
}

func EmptyText(p *Path, field, needs string) *Error {
	return fail(Key(p, field), RuleEmptyText, needs, field+" may be empty only with "+needs+" true")
}

// Strings returns the values of a list of a string type as plain strings
// (nil stays nil: an absent restriction is not an empty one).
func Strings[T ~string](l []T) []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = string(v)
	}
	return out
}

// DecMap decodes a JSON object whose keys are the caller's to judge (a
// policy's rules keyed by host pattern): item is called for each member in
// order, with the member's path; a repeated key is refused, and so are more
// than max members (max < 0: no bound).
func DecMap(raw []byte, p *Path, min, max int64, item func(key string, raw []byte, p *Path) *Error) *Error {
	d := raw
	i := skipSpace(d, 0)
	if i >= len(d) || d[i] != '{' {
		return fail(p, RuleType, "object", fieldName(p)+" must be an object")
	}
	i = skipSpace(d, i+1)
	seen := map[string]bool{}
	if i < len(d) && d[i] == '}' {
		if min > 0 {
			return fail(p, RuleMinItems, strconv.FormatInt(min, 10), fieldName(p)+" needs at least "+strconv.FormatInt(min, 10)+" members")
		}
		return trailing(d, i+1, p)
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
		}
		ks, ke, esc, err := scanString(d, i, p)
		if err != nil {
			return err
		}
		key := string(d[ks+1 : ke])
		if esc {
			if key, err = unquote(d[ks:ke], p); err != nil {
				return err
			}
		}
		i = skipSpace(d, ke+1)
		if i >= len(d) || d[i] != ':' {
			return fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
		}
		i = skipSpace(d, i+1)
		vs := i
		ve, err := SkipValue(d, i, p, 0)
		if err != nil {
			return err
		}
		if seen[key] {
			return fail(Key(p, key), RuleDuplicateField, "", key+" appears twice")
		}
		seen[key] = true
		if max >= 0 && int64(len(seen)) > max {
			return fail(p, RuleMaxItems, strconv.FormatInt(max, 10), fieldName(p)+" has more than "+strconv.FormatInt(max, 10)+" members")
		}
		if err := item(key, d[vs:ve], Key(p, key)); err != nil {
			return err
		}
		i = skipSpace(d, ve)
		if i < len(d) && d[i] == ',' {
			i = skipSpace(d, i+1)
			continue
		}
		if i < len(d) && d[i] == '}' {
			return trailing(d, i+1, p)
		}
		return fail(p, RuleSyntax, "", "invalid JSON in "+fieldName(p))
	}
}
