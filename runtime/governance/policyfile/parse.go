// Package policyfile reads policy layer files: CUE's data subset, by hand,
// so the server carries no CUE. A layer is an optional package clause,
// comments, and fields (identifier or quoted labels, the a: b: c: v
// shorthand) whose values are structs, lists, strings, whole numbers,
// booleans or null, with optional commas. Fields given twice unify as CUE
// unifies data: structs merge, equal values agree, different values
// conflict. Anything else (references, expressions, defaults, definitions,
// imports) is an error naming file:line:col and saying that layers are data.
//
// The result is JSON for the generated strict decoder, plus a map from JSON
// Pointer to the line that declared it, so decoder errors name the file and
// line too.
package policyfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// MaxBytes bounds a layer file; MaxDepth bounds its nesting.
const (
	MaxBytes = surface.PolicyFileBytesMax
	MaxDepth = surface.PolicyDepthMax
)

// Pos is a 1-based line and column (in characters).
type Pos struct{ Line, Col int }

func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// Error is a load error at one place of one file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string { return e.File + ":" + e.Pos.String() + ": " + e.Msg }

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// Document is one parsed layer.
type Document struct {
	File string
	// JSON is the layer as one JSON object, keys in first-declared order.
	JSON []byte
	pos  map[string]Pos
}

// Pos returns where the value at a JSON Pointer was declared: the label of
// a field, the item of a list, or the nearest declared ancestor.
func (d *Document) Pos(pointer string) Pos {
	for {
		if p, ok := d.pos[pointer]; ok {
			return p
		}
		i := strings.LastIndexByte(pointer, '/')
		if i < 0 {
			return Pos{Line: 1, Col: 1}
		}
		pointer = pointer[:i]
	}
}

// Where names file:line:col of a JSON Pointer.
func (d *Document) Where(pointer string) string { return d.File + ":" + d.Pos(pointer).String() }

type node struct {
	obj   bool
	list  bool
	keys  []string
	kids  map[string]*node
	items []*node
	lit   string // canonical JSON of a scalar
	pos   Pos
}

type parser struct {
	lx   *lexer
	tok  token
	doc  *Document
	peek *token
}

// Parse reads one layer file.
func Parse(file string, src []byte) (*Document, error) {
	if len(src) > MaxBytes {
		return nil, &Error{File: file, Pos: Pos{1, 1}, Msg: fmt.Sprintf("a policy layer holds at most %d bytes", MaxBytes)}
	}
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	p := &parser{lx: newLexer(file, src), doc: &Document{File: file, pos: map[string]Pos{"": {1, 1}}}}
	root := &node{obj: true, kids: map[string]*node{}, pos: Pos{1, 1}}
	if err := p.file(root); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	render(&b, root)
	p.doc.JSON = b.Bytes()
	return p.doc, nil
}

func (p *parser) advance() *Error {
	if p.peek != nil {
		p.tok, p.peek = *p.peek, nil
		return nil
	}
	t, err := p.lx.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) lookahead() (token, *Error) {
	if p.peek == nil {
		t, err := p.lx.next()
		if err != nil {
			return t, err
		}
		p.peek = &t
	}
	return *p.peek, nil
}

func (p *parser) errf(format string, a ...any) *Error {
	return &Error{File: p.doc.File, Pos: p.tok.pos, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) file(root *node) error {
	if err := p.advance(); err != nil {
		return err
	}
	if err := p.skipCommas(); err != nil {
		return err
	}
	if p.tok.kind == tIdent && p.tok.text == "package" {
		if nt, err := p.lookahead(); err != nil {
			return err
		} else if nt.kind == tIdent {
			if err := p.advance(); err != nil {
				return err
			}
			if err := p.advance(); err != nil {
				return err
			}
			if p.tok.kind != tComma && p.tok.kind != tEOF {
				return p.errf("expected a newline after the package clause")
			}
		}
	}
	for {
		if err := p.skipCommas(); err != nil {
			return err
		}
		if p.tok.kind == tEOF {
			return nil
		}
		if err := p.field(root, "", 0); err != nil {
			return err
		}
		if p.tok.kind != tComma && p.tok.kind != tEOF {
			return p.unexpected("after a field")
		}
	}
}

func (p *parser) skipCommas() *Error {
	for p.tok.kind == tComma {
		if err := p.advance(); err != nil {
			return err
		}
	}
	return nil
}

// unexpected words an error for a token the data subset does not allow here.
func (p *parser) unexpected(where string) *Error {
	switch p.tok.kind {
	case tIdent:
		return p.errf("unexpected %q %s: policy layers are data, one field per line or separated by commas", p.tok.text, where)
	case tColon:
		return p.errf("unexpected ':' %s", where)
	case tRBrace, tRBrack:
		return p.errf("unbalanced bracket %s", where)
	}
	return p.errf("unexpected value %s: separate fields with a newline or a comma", where)
}

func escape(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// field parses label: (label:)* value into parent, unifying with what the
// file already said there.
func (p *parser) field(parent *node, ptr string, depth int) *Error {
	if depth > MaxDepth {
		return p.errf("a policy layer nests at most %d levels", MaxDepth)
	}
	var label string
	switch p.tok.kind {
	case tIdent:
		switch p.tok.text {
		case "import":
			return p.errf("imports are not allowed: policy layers are data")
		case "let":
			return p.errf("let is not allowed: policy layers are data")
		case "package":
			return p.errf("the package clause must come first")
		case "if", "for":
			return p.errf("comprehensions are not allowed: policy layers are data")
		}
		label = p.tok.text
	case tString:
		label = p.tok.text
	case tLBrace:
		return p.errf("a bare struct is not a field: write label: { … }")
	default:
		return p.errf("expected a field label")
	}
	lpos := p.tok.pos
	if err := p.advance(); err != nil {
		return err
	}
	if p.tok.kind != tColon {
		if p.tok.kind == tEOF || p.tok.kind == tComma {
			return &Error{File: p.doc.File, Pos: lpos, Msg: fmt.Sprintf("%q is a reference, not a field: policy layers are data (write %s: value)", label, label)}
		}
		return p.errf("expected ':' after the label %q", label)
	}
	if err := p.advance(); err != nil {
		return err
	}
	cptr := ptr + "/" + escape(label)
	if _, ok := p.doc.pos[cptr]; !ok {
		p.doc.pos[cptr] = lpos
	}
	// The a: b: c shorthand: a label followed by ':' opens a struct.
	if p.tok.kind == tIdent || p.tok.kind == tString {
		if nt, err := p.lookahead(); err != nil {
			return err
		} else if nt.kind == tColon {
			child, err := p.child(parent, label, lpos, cptr)
			if err != nil {
				return err
			}
			return p.field(child, cptr, depth+1)
		}
	}
	v, err := p.value(cptr, depth+1)
	if err != nil {
		return err
	}
	return p.unify(parent, label, v, cptr)
}

// child returns the struct at parent[label], creating it, or a conflict.
func (p *parser) child(parent *node, label string, pos Pos, ptr string) (*node, *Error) {
	if c, ok := parent.kids[label]; ok {
		if !c.obj {
			return nil, &Error{File: p.doc.File, Pos: pos, Msg: fmt.Sprintf("conflicting values for %s: a struct and %s (first at %s)", keyOf(ptr), describe(c), c.pos)}
		}
		return c, nil
	}
	c := &node{obj: true, kids: map[string]*node{}, pos: pos}
	parent.keys = append(parent.keys, label)
	parent.kids[label] = c
	return c, nil
}

func (p *parser) unify(parent *node, label string, v *node, ptr string) *Error {
	old, ok := parent.kids[label]
	if !ok {
		parent.keys = append(parent.keys, label)
		parent.kids[label] = v
		return nil
	}
	return p.merge(old, v, ptr)
}

// merge unifies v into old, as CUE unifies two data values.
func (p *parser) merge(old, v *node, ptr string) *Error {
	conflict := func() *Error {
		return &Error{File: p.doc.File, Pos: v.pos, Msg: fmt.Sprintf("conflicting values for %s: %s and %s (first at %s)", keyOf(ptr), describe(old), describe(v), old.pos)}
	}
	switch {
	case old.obj && v.obj:
		for _, k := range v.keys {
			if err := p.unify(old, k, v.kids[k], ptr+"/"+escape(k)); err != nil {
				return err
			}
		}
		return nil
	case old.list && v.list:
		if len(old.items) != len(v.items) {
			return conflict()
		}
		for i := range v.items {
			if err := p.merge(old.items[i], v.items[i], ptr+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return nil
	case !old.obj && !old.list && !v.obj && !v.list && old.lit == v.lit:
		return nil
	}
	return conflict()
}

func keyOf(ptr string) string {
	s := strings.ReplaceAll(strings.TrimPrefix(ptr, "/"), "/", ".")
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func describe(n *node) string {
	switch {
	case n.obj:
		return "a struct"
	case n.list:
		return "a list"
	}
	return n.lit
}

func (p *parser) value(ptr string, depth int) (*node, *Error) {
	if depth > MaxDepth {
		return nil, p.errf("a policy layer nests at most %d levels", MaxDepth)
	}
	t := p.tok
	n := &node{pos: t.pos}
	switch t.kind {
	case tString:
		b, _ := json.Marshal(t.text)
		n.lit = string(b)
	case tInt:
		n.lit = t.text
	case tIdent:
		switch t.text {
		case "true", "false", "null":
			n.lit = t.text
		default:
			return nil, p.errf("%q is a reference: policy layers are data (quote a string: %q)", t.text, t.text)
		}
	case tLBrace:
		n.obj, n.kids = true, map[string]*node{}
		if err := p.advance(); err != nil {
			return nil, err
		}
		for {
			if err := p.skipCommas(); err != nil {
				return nil, err
			}
			if p.tok.kind == tRBrace {
				break
			}
			if p.tok.kind == tEOF {
				return nil, &Error{File: p.doc.File, Pos: t.pos, Msg: "unclosed {"}
			}
			if err := p.field(n, ptr, depth); err != nil {
				return nil, err
			}
			if p.tok.kind == tEOF {
				return nil, &Error{File: p.doc.File, Pos: t.pos, Msg: "unclosed {"}
			}
			if p.tok.kind != tComma && p.tok.kind != tRBrace {
				return nil, p.unexpected("after a field")
			}
		}
	case tLBrack:
		n.list = true
		if err := p.advance(); err != nil {
			return nil, err
		}
		for {
			if err := p.skipCommas(); err != nil {
				return nil, err
			}
			if p.tok.kind == tRBrack {
				break
			}
			if p.tok.kind == tEOF {
				return nil, &Error{File: p.doc.File, Pos: t.pos, Msg: "unclosed ["}
			}
			iptr := ptr + "/" + strconv.Itoa(len(n.items))
			p.doc.pos[iptr] = p.tok.pos
			item, err := p.value(iptr, depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, item)
			if p.tok.kind == tEOF {
				return nil, &Error{File: p.doc.File, Pos: t.pos, Msg: "unclosed ["}
			}
			if p.tok.kind != tComma && p.tok.kind != tRBrack {
				return nil, p.unexpected("after a list item")
			}
		}
	case tEOF, tComma:
		return nil, p.errf("expected a value")
	default:
		return nil, p.errf("expected a value")
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind == tColon {
		return nil, p.errf("unexpected ':' after a value")
	}
	return n, nil
}

func render(b *bytes.Buffer, n *node) {
	switch {
	case n.obj:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			render(b, n.kids[k])
		}
		b.WriteByte('}')
	case n.list:
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			render(b, it)
		}
		b.WriteByte(']')
	default:
		b.WriteString(n.lit)
	}
}
