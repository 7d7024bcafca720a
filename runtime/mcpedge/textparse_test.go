package mcpedge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// The text projection's single-pass parser against json.Decoder.Token, which
// it replaced: for any JSON value, the text block written from either is the
// same bytes, and both refuse the same malformed input.

// viaTokens is the former reader, kept as the oracle.
func viaTokens(b []byte) (*value, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := readValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

func readValue(d *json.Decoder) (*value, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v := &value{kind: '{'}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				e, err := readValue(d)
				if err != nil {
					return nil, err
				}
				v.keys, v.vals = append(v.keys, k), append(v.vals, e)
			}
			_, err := d.Token()
			return v, err
		case '[':
			v := &value{kind: '['}
			for d.More() {
				e, err := readValue(d)
				if err != nil {
					return nil, err
				}
				v.elems = append(v.elems, e)
			}
			_, err := d.Token()
			return v, err
		}
		return nil, errors.New("unexpected delimiter")
	default:
		b, err := scalar(t)
		if err != nil {
			return nil, err
		}
		return &value{raw: b}, nil
	}
}

var parseSeeds = []string{
	`{}`, `[]`, `{"a":1}`, `[1,2.5e-3,-0,true,false,null]`,
	`{"summary":"Clicked \"Save\".","facts":{"tab":"t1","n":12345678901234567890}}`,
	`{"s":"a<b>&c \u003cx\u003e \u0026"}`,
	`{"s":"line\nbreak\ttab \u0001 \u001f \/ \u00e9 é 😀 \ud83d\ude00"}`,
	`{"s":"sep \u2028 \u2029 raw ` + "\u2028" + `"}`,
	`{"k\"ey":1,"ké":2,"k\u003c":3,"k\\":4}`,
	`{"rows":[{"a":1,"b":"x"},{"b":"y","c":[1,{"d":null}]}]}`,
	`{"facts":{"steps":[{"id":"a","tool":"browser_click","status":"succeeded","envelope":{"status":"succeeded","summary":"s"}},{"id":"b","tool":"browser_read","status":"succeeded","envelope":{"invocation":"i","facts":{}}}]}}`,
	`  { "a" : [ 1 , 2 ] }  `,
	`"just a string"`, `12`,
	`{"a":1,}`, `{"a"1}`, `[1 2]`, `{"a":tru}`, `{"a":"unterminated}`, `{"a":1}x`, `[`, ``, `{"a":01}`, `{"a":"\x"}`,
}

func FuzzTextParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var kb bytes.Buffer
		writeKey(&kb, string(b))
		if sb, _ := scalar(string(b)); !bytes.Equal(kb.Bytes(), sb) {
			t.Fatalf("key %q: writeKey %s, scalar %s", b, kb.Bytes(), sb)
		}
		want, werr := viaTokens(b)
		got, gerr := parse(b)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: tokens err %v, parse err %v", b, werr, gerr)
		}
		if werr != nil {
			return
		}
		var wb, gb bytes.Buffer
		if err := want.write(&wb); err != nil {
			t.Fatal(err)
		}
		if err := got.write(&gb); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wb.Bytes(), gb.Bytes()) {
			t.Fatalf("%q:\n tokens %s\n parse  %s", b, wb.Bytes(), gb.Bytes())
		}
	})
}
