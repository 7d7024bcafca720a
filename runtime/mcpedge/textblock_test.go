package mcpedge

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// TestTextJSONHoldsEveryFactOnce: the text projection drops only the
// members said as lines (summary, next_steps, untrusted_quotes), writes
// lists of objects as tables whose rows carry every value (false, empty
// and absent ones included), and loses nothing else: rebuilt from its table,
// it equals the envelope.
func TestTextJSONHoldsEveryFactOnce(t *testing.T) {
	env := `{"invocation":"inv_1","status":"succeeded","effect":"none","readiness":"complete","repeat_safe":true,"summary":"Shows 2 <controls> & more.","untrusted_quotes":true,` +
		`"facts":{"tab":"tab_a","items":[{"target":"target_a","role":"button","name":"Save","state":[],"credential":false},{"target":"target_b","role":"heading","name":"Hi","state":["expanded"],"credential":false,"level":2}],` +
		`"one":[{"a":1}],"mixed":[{"a":1},2],"n":12345678901234567890},"next_steps":["Act."]}`
	var out bytes.Buffer
	if err := textJSON(&out, []byte(env)); err != nil {
		t.Fatal(err)
	}
	want := `{"invocation":"inv_1","status":"succeeded","effect":"none","readiness":"complete","repeat_safe":true,` +
		`"facts":{"tab":"tab_a","items":[["target","role","name","state","credential","level"],["target_a","button","Save",[],false,null],["target_b","heading","Hi",["expanded"],false,2]],` +
		`"one":[{"a":1}],"mixed":[{"a":1},2],"n":12345678901234567890}}`
	if out.String() != want {
		t.Fatalf("text JSON\n got %s\nwant %s", out.String(), want)
	}
	// The rows rebuild the items exactly (null marks a key an item lacks).
	var got struct {
		Facts struct {
			Items [][]any `json:"items"`
		} `json:"facts"`
	}
	var orig struct {
		Facts struct {
			Items []map[string]any `json:"items"`
		} `json:"facts"`
	}
	_ = json.Unmarshal(out.Bytes(), &got)
	_ = json.Unmarshal([]byte(env), &orig)
	head := got.Facts.Items[0]
	for i, row := range got.Facts.Items[1:] {
		m := map[string]any{}
		for j, k := range head {
			if row[j] != nil {
				m[k.(string)] = row[j]
			}
		}
		if !reflect.DeepEqual(m, orig.Facts.Items[i]) {
			t.Fatalf("row %d rebuilds %v, want %v", i, m, orig.Facts.Items[i])
		}
	}
	for _, bad := range []string{`[1]`, `{"a":1} x`, `{"a":`} {
		if err := textJSON(&out, []byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestSparseListStaysAList: a list of objects whose table would be mostly
// null stays a list. Its table would have elements times distinct keys
// cells, so a hostile list of n single-key objects would cost n² cells
// (found while looking into a fuzz failure, which was Go's own).
func TestSparseListStaysAList(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"status":"succeeded","facts":{"items":[`)
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"k` + strconv.Itoa(i) + `":1}`)
	}
	b.WriteString(`]}}`)
	var out bytes.Buffer
	if err := textJSON(&out, b.Bytes()); err != nil {
		t.Fatal(err)
	}
	if out.Len() > b.Len() {
		t.Fatalf("text JSON of %d bytes grew to %d", b.Len(), out.Len())
	}
	if !bytes.Contains(out.Bytes(), []byte(`"items":[{"k0":1},{"k1":1}`)) {
		t.Fatalf("not written as a list: %.120s", out.Bytes())
	}
	// Half the cells filled is still a table.
	out.Reset()
	if err := textJSON(&out, []byte(`{"facts":{"items":[{"a":1,"b":2},{"a":3},{"c":4,"a":5}]}}`)); err != nil {
		t.Fatal(err)
	}
	if want := `{"facts":{"items":[["a","b","c"],[1,2,null],[3,null,null],[5,null,4]]}}`; out.String() != want {
		t.Fatalf("got %s, want %s", out.String(), want)
	}
}
