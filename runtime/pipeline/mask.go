package pipeline

import (
	"bytes"
	"encoding/json"
)

// What the person typed into a credential field never comes back to the
// model (runtime/echomask, through Options.Mask): every string of a result,
// its facts, summary and next steps, is masked as the result is authored,
// before the origin guard fingerprints it and the audit records it.

// maskText masks a result's summary and next steps; the steps come back
// copied when one changed (a steps slice may be shared).
func maskText(summary string, steps []string, mask func(string) (string, bool)) (string, []string) {
	summary, _ = mask(summary)
	for i, st := range steps {
		if m, changed := mask(st); changed {
			steps = append([]string(nil), steps...)
			steps[i] = m
		}
	}
	return summary, steps
}

// maskJSON returns raw with every string value (never an object key) masked,
// keys and order kept; raw itself when nothing was.
func maskJSON(raw json.RawMessage, mask func(string) (string, bool)) json.RawMessage {
	var out []byte
	last := 0
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		end := stringEnd(raw, i)
		if end < 0 {
			return raw // not JSON a marshal wrote: left as it is
		}
		lit := raw[i : end+1]
		i = end
		if isKey(raw, end+1) {
			continue
		}
		var s string
		if json.Unmarshal(lit, &s) != nil {
			continue
		}
		m, changed := mask(s)
		if !changed {
			continue
		}
		enc, err := json.Marshal(m)
		if err != nil {
			continue
		}
		out = append(out, raw[last:end+1-len(lit)]...)
		out = append(out, enc...)
		last = end + 1
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// stringEnd is the index of the quote closing the string that opens at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// isKey: the next byte after white space is a colon.
func isKey(b []byte, from int) bool {
	rest := bytes.TrimLeft(b[from:], " \t\r\n")
	return len(rest) > 0 && rest[0] == ':'
}
