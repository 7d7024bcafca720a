package emit

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// parseOrdered parses JSON keeping object key order (*obj) and numbers exact
// (json.Number), so fixtures render exactly as the spec wrote them.
func parseOrdered(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return readValue(d)
}

func readValue(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObj()
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := readValue(d)
				if err != nil {
					return nil, err
				}
				o.set(k.(string), v)
			}
			_, err := d.Token()
			return o, err
		case '[':
			l := []any{}
			for d.More() {
				v, err := readValue(d)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := d.Token()
			return l, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// clone deep-copies an ordered JSON value.
func clone(v any) any {
	switch v := v.(type) {
	case *obj:
		o := newObj()
		for i, k := range v.keys {
			o.set(k, clone(v.vals[i]))
		}
		return o
	case []any:
		l := make([]any, len(v))
		for i := range v {
			l[i] = clone(v[i])
		}
		return l
	}
	return v
}

func (o *obj) get(k string) (any, bool) {
	for i, key := range o.keys {
		if key == k {
			return o.vals[i], true
		}
	}
	return nil, false
}

// put sets k, replacing an existing value in place.
func (o *obj) put(k string, v any) *obj {
	for i, key := range o.keys {
		if key == k {
			o.vals[i] = v
			return o
		}
	}
	return o.set(k, v)
}

func (o *obj) del(k string) *obj {
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			o.vals = append(o.vals[:i:i], o.vals[i+1:]...)
			return o
		}
	}
	return o
}

func (o *obj) has(k string) bool { _, ok := o.get(k); return ok }

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
