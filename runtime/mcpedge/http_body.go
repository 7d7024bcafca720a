package mcpedge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
)

// readBody reads a POST body through http.MaxBytesReader, so no more than
// maxBody bytes are ever buffered (mcp-go would read any body whole), and
// answers itself what mcp-go would answer unbounded or with id null: 413 past
// the bound, 400 with the request's id for a message that does not parse.
// Otherwise r.Body becomes the bytes read, for mcp-go, and it returns true
// with the message's method when it could be read.
func (g *httpEdge) readBody(w http.ResponseWriter, r *http.Request) (method string, id json.RawMessage, ok bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return "", nil, true
	}
	limit := int64(g.maxBody)
	if r.ContentLength > limit {
		// Declared too large: read only as far as the id may be.
		prefix, _ := io.ReadAll(io.LimitReader(r.Body, idPrefixBytes))
		rpcError(w, http.StatusRequestEntityTooLarge, scanID(prefix), mcp.INVALID_REQUEST, tooLarge(g.maxBody))
		return "", nil, false
	}
	var b bytes.Buffer
	if r.ContentLength > 0 {
		b.Grow(int(r.ContentLength) + bytes.MinRead)
	}
	_, err := b.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		read := b.Bytes()
		id := scanID(read[:min(len(read), idPrefixBytes)])
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			rpcError(w, http.StatusRequestEntityTooLarge, id, mcp.INVALID_REQUEST, tooLarge(g.maxBody))
		} else {
			rpcError(w, http.StatusBadRequest, id, mcp.PARSE_ERROR, "Parse error: the request body could not be read")
		}
		return "", nil, false
	}
	body := b.Bytes()
	// mcp-go checks the content type first; leave a wrong one to it.
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && mt == "application/json" {
		in := peek(body)
		if in.bad {
			rpcError(w, http.StatusBadRequest, in.id, in.errCode, in.errMsg)
			return "", nil, false
		}
		method, id = in.method, in.id
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return method, id, true
}

// rpcError answers a POST with one JSON-RPC error, as mcp-go frames its own.
func rpcError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(errorLine(id, code, msg), '\n'))
}
