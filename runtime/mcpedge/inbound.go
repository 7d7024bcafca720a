package mcpedge

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Inbound checks: what the edge answers itself, before mcp-go sees a
// message. mcp-go answers a message it cannot parse with id null; the edge
// answers with the request's id whenever it could be read, so the client can
// tie the error to its request.

// idPrefixBytes is how much of an oversized message is kept to find its id
// (the id normally comes first or second; the rest is never buffered).
const idPrefixBytes = surface.IDPrefixBytesMax

// inbound is what the edge needs of one message.
type inbound struct {
	id     json.RawMessage // the JSON-RPC id; nil when absent or unreadable
	method string
	// bad is set for a message mcp-go would answer with id null: errCode and
	// errMsg are the edge's answer instead.
	bad     bool
	errCode int
	errMsg  string
}

// peek classifies one message without copying its params.
func peek(msg []byte) inbound {
	if !json.Valid(msg) {
		return inbound{id: scanID(msg), bad: true, errCode: mcp.PARSE_ERROR, errMsg: "Parse error: the message is not valid JSON"}
	}
	var m struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return inbound{bad: true, errCode: mcp.INVALID_REQUEST, errMsg: "Invalid request: the message is not a JSON-RPC object"}
	}
	in := inbound{}
	if isID(m.ID) {
		in.id = m.ID
	}
	for _, f := range []struct {
		name string
		v    json.RawMessage
	}{{"jsonrpc", m.JSONRPC}, {"method", m.Method}} {
		if len(f.v) > 0 && f.v[0] != '"' && !bytes.Equal(f.v, []byte("null")) {
			return inbound{id: in.id, bad: true, errCode: mcp.INVALID_REQUEST, errMsg: "Invalid request: " + f.name + " must be a string"}
		}
	}
	if len(m.ID) > 0 && !isID(m.ID) {
		return inbound{bad: true, errCode: mcp.INVALID_REQUEST, errMsg: "Invalid request: id must be a string, a number or null"}
	}
	if len(m.Method) > 0 {
		_ = json.Unmarshal(m.Method, &in.method)
	}
	return in
}

// isID: a JSON-RPC id is a string, a number or null.
func isID(v json.RawMessage) bool {
	if len(v) == 0 {
		return false
	}
	switch c := v[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	}
	return bytes.Equal(v, []byte("null"))
}

// scanID reads a message's top-level members in order until its id, and
// returns the id if it came before anything unreadable (a truncated or
// malformed message keeps the id it sent first).
func scanID(msg []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			if isID(v) {
				return v
			}
			return nil
		}
	}
	return nil
}

// errorLine is a JSON-RPC error response (without newline). An unreadable id
// is sent as null, as JSON-RPC asks.
func errorLine(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	if err != nil { // id was checked by isID, so this cannot happen
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":"internal error"}}`, mcp.INTERNAL_ERROR))
	}
	return b
}

func tooLarge(limit int) string {
	return fmt.Sprintf("Invalid request: the message exceeds %d bytes", limit)
}
