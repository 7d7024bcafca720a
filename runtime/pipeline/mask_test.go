package pipeline

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMaskJSONMasksValuesNotKeys(t *testing.T) {
	mask := func(s string) (string, bool) {
		if !strings.Contains(s, "hunter22") {
			return s, false
		}
		return strings.ReplaceAll(s, "hunter22", "********"), true
	}
	raw := json.RawMessage(`{"hunter22":"a hunter22 b","items":[{"name":"x\"hunter22\u003c"},"hunter22"],"n":3,"ok":true}`)
	got := string(maskJSON(raw, mask))
	want := `{"hunter22":"a ******** b","items":[{"name":"x\"********\u003c"},"********"],"n":3,"ok":true}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	var v any
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatal(err)
	}
	clean := json.RawMessage(`{"a":"b"}`)
	if out := maskJSON(clean, mask); &out[0] != &clean[0] {
		t.Fatal("an untouched result was copied")
	}
}

func TestMaskTextCopiesSharedSteps(t *testing.T) {
	shared := []string{"keep", "say hunter22"}
	mask := func(s string) (string, bool) {
		m := strings.ReplaceAll(s, "hunter22", "********")
		return m, m != s
	}
	sum, steps := maskText("hunter22 here", shared, mask)
	if sum != "******** here" || steps[1] != "say ********" || shared[1] != "say hunter22" {
		t.Fatalf("%q %q shared %q", sum, steps, shared)
	}
}
