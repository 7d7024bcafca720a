package mcpedge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"unicode/utf8"
)

// clip keeps the first n characters of s, marking a cut with "…".
func clip(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i < len(s) && k < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + "…"
}

// BoundLogs wraps h so that no record carries a message or a value longer
// than n characters: a client-sent name, a page string or an error that
// quotes either can never become one enormous log line.
func BoundLogs(h slog.Handler, n int) slog.Handler {
	if b, ok := h.(boundedHandler); ok && b.n <= n {
		return b
	}
	return boundedHandler{h: h, n: n}
}

type boundedHandler struct {
	h slog.Handler
	n int
}

func (b boundedHandler) Enabled(ctx context.Context, l slog.Level) bool { return b.h.Enabled(ctx, l) }

func (b boundedHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, clip(r.Message, b.n), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(b.attr(a))
		return true
	})
	return b.h.Handle(ctx, out)
}

func (b boundedHandler) WithAttrs(as []slog.Attr) slog.Handler {
	bounded := make([]slog.Attr, len(as))
	for i, a := range as {
		bounded[i] = b.attr(a)
	}
	return boundedHandler{h: b.h.WithAttrs(bounded), n: b.n}
}

func (b boundedHandler) WithGroup(name string) slog.Handler {
	return boundedHandler{h: b.h.WithGroup(clip(name, b.n)), n: b.n}
}

func (b boundedHandler) attr(a slog.Attr) slog.Attr {
	a.Key = clip(a.Key, b.n)
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(clip(v.String(), b.n))
	case slog.KindGroup:
		g := v.Group()
		bounded := make([]slog.Attr, len(g))
		for i, ga := range g {
			bounded[i] = b.attr(ga)
		}
		a.Value = slog.GroupValue(bounded...)
	case slog.KindAny:
		// Errors, Stringers, slices: bounded as text when long, kept as
		// they are otherwise (a JSON handler still sees the value).
		var s string
		switch x := v.Any().(type) {
		case error:
			s = x.Error()
		case fmt.Stringer:
			s = x.String()
		default:
			s = fmt.Sprint(x)
		}
		if utf8.RuneCountInString(s) > b.n {
			a.Value = slog.StringValue(clip(s, b.n))
		} else {
			a.Value = v
		}
	default:
		a.Value = v
	}
	return a
}

// boundError clips the message of a JSON-RPC error response to n characters
// and drops its data when that is longer than n: mcp-go quotes client-sent
// names (an unknown tool, a method, a protocol version) in full. line may be
// an SSE "data: " line. Any other message is returned unchanged, after
// reading no further than its first members.
func boundError(line []byte, n int) []byte {
	const sse = "data: " // the payload line of an SSE event (sseData)
	prefix, body := []byte(nil), line
	if bytes.HasPrefix(body, []byte(sse)) {
		prefix, body = body[:len(sse)], body[len(sse):]
	}
	if !isErrorResponse(body) {
		return line
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return line
	}
	var e map[string]json.RawMessage
	if json.Unmarshal(m["error"], &e) != nil {
		return line
	}
	changed := false
	var msg string
	if json.Unmarshal(e["message"], &msg) == nil && utf8.RuneCountInString(msg) > n {
		e["message"], _ = json.Marshal(clip(msg, n))
		changed = true
	}
	if d, ok := e["data"]; ok && len(d) > n {
		delete(e, "data")
		changed = true
	}
	if !changed {
		return line
	}
	eb, err1 := json.Marshal(e)
	m["error"] = eb
	out, err2 := json.Marshal(m)
	if err1 != nil || err2 != nil {
		return line
	}
	nl := []byte(nil)
	if bytes.HasSuffix(body, []byte("\n")) {
		nl = []byte("\n")
	}
	return append(append(append([]byte(nil), prefix...), out...), nl...)
}

// isErrorResponse walks the top-level members until one tells: "error"
// before any "result" or "method" (jsonrpc and id come first in what mcp-go
// writes, so a large result is never read).
func isErrorResponse(body []byte) bool {
	if !bytes.Contains(body, []byte(`"error"`)) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case "error":
			return true
		case "result", "method", "params":
			return false
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}
