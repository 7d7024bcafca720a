package mcpedge

import (
	"bytes"
	"encoding/json"
	"errors"
)

// The text block is what a model pays for when its client reads text (Claude
// Code reads structuredContent instead, which stays the whole envelope). It
// holds every member of the envelope exactly once: the summary, the
// untrusted-content marker and the next steps as lines, then the compact
// envelope without those three members (textJSON). Inside it, an array of
// two or more objects is written as a table: its first row lists the keys
// (in order of first appearance), each further row one object's values, null
// where that object lacks the key. Nothing else changes: every fact, false
// and empty values included, is there, except in a composite's step list,
// whose succeeded action steps are their rows alone (textsteps.go).

// envelopeLines are the envelope members the text block says as lines.
var envelopeLines = map[string]bool{"summary": true, "next_steps": true, "untrusted_quotes": true}

// textJSON writes the envelope's text projection to w.
func textJSON(w *bytes.Buffer, envelope []byte) error {
	v, err := parse(envelope)
	if err != nil {
		return err
	}
	if v.kind != '{' {
		return errors.New("envelope is not a JSON object")
	}
	keep := v.keys[:0:0]
	vals := v.vals[:0:0]
	for i, k := range v.keys {
		if !envelopeLines[k] {
			keep, vals = append(keep, k), append(vals, v.vals[i])
		}
	}
	v.keys, v.vals = keep, vals
	compactSteps(v) // a composite's steps: rows, and the envelopes read on (textsteps.go)
	return v.write(w)
}

// value is a JSON value with its object keys in order.
type value struct {
	kind  byte   // '{', '[' or 0 for a scalar
	raw   []byte // a scalar, compact
	keys  []string
	vals  []*value // object members, by keys
	elems []*value // array elements
}

// scalar encodes a JSON scalar compactly, leaving <, > and & as they are.
func scalar(t any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

var null = &value{raw: []byte("null")}

func (v *value) write(w *bytes.Buffer) error {
	switch v.kind {
	case '{':
		w.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				w.WriteByte(',')
			}
			writeKey(w, k)
			w.WriteByte(':')
			if err := v.vals[i].write(w); err != nil {
				return err
			}
		}
		w.WriteByte('}')
	case '[':
		if v.table() {
			return v.writeTable(w)
		}
		w.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := e.write(w); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	default:
		w.Write(v.raw)
	}
	return nil
}

// table says whether an array is written as a table: two or more elements,
// every one an object, and at least half the table's cells filled. A table
// holds elements times distinct keys cells, and the ones an element lacks
// are null: a sparse one is longer than the array it replaces, and its size
// would grow with the square of the input's.
func (v *value) table() bool {
	if len(v.elems) < 2 {
		return false
	}
	keys := 0
	seen := map[string]bool{}
	for _, e := range v.elems {
		if e.kind != '{' {
			return false
		}
		keys += len(e.keys)
		for _, k := range e.keys {
			seen[k] = true
		}
	}
	return 2*keys >= len(v.elems)*len(seen)
}

func (v *value) writeTable(w *bytes.Buffer) error {
	var cols []string
	col := map[string]int{}
	for _, e := range v.elems {
		for _, k := range e.keys {
			if _, ok := col[k]; !ok {
				col[k] = len(cols)
				cols = append(cols, k)
			}
		}
	}
	head := &value{kind: '['}
	for _, k := range cols {
		kb, _ := scalar(k)
		head.elems = append(head.elems, &value{raw: kb})
	}
	rows := []*value{head}
	for _, e := range v.elems {
		row := &value{kind: '[', elems: make([]*value, len(cols))}
		for i, k := range e.keys {
			if j := col[k]; row.elems[j] == nil { // the first of a repeated key
				row.elems[j] = e.vals[i]
			}
		}
		for j, c := range row.elems {
			if c == nil {
				row.elems[j] = null
			}
		}
		rows = append(rows, row)
	}
	w.WriteByte('[')
	for i, r := range rows {
		if i > 0 {
			w.WriteByte(',')
		}
		// A row is written as a plain array even when its cells are objects.
		w.WriteByte('[')
		for j, c := range r.elems {
			if j > 0 {
				w.WriteByte(',')
			}
			if err := c.write(w); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	}
	w.WriteByte(']')
	return nil
}
