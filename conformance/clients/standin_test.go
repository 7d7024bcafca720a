package clients

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// standin is a stand-in model server on loopback: it records every request
// a client sends and answers each with a short final text, so the client's
// agent loop ends after one turn. It speaks the three wire formats the
// clients use: Anthropic Messages (Claude Code), Gemini generateContent
// (Gemini CLI) and OpenAI Responses and Chat Completions (Codex, the AI SDK).
type standin struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []modelRequest
}

// modelRequest is one request the stand-in received.
type modelRequest struct {
	Path string
	Body map[string]json.RawMessage
	Raw  []byte
}

func newStandin(t *testing.T) *standin {
	s := &standin{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// requests is what was received so far, in order.
func (s *standin) requests() []modelRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]modelRequest(nil), s.reqs...)
}

func (s *standin) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]json.RawMessage
	_ = json.Unmarshal(raw, &body)
	if r.Method == http.MethodPost {
		s.mu.Lock()
		s.reqs = append(s.reqs, modelRequest{Path: r.URL.Path, Body: body, Raw: raw})
		s.mu.Unlock()
	}
	stream := string(body["stream"]) == "true"
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 1})
	case strings.HasSuffix(p, "/messages"):
		anthropicAnswer(w, stream)
	case strings.Contains(p, ":streamGenerateContent"):
		sse(w, []any{geminiAnswer()})
	case strings.Contains(p, ":generateContent"):
		writeJSON(w, geminiAnswer())
	case strings.Contains(p, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 1})
	case strings.HasSuffix(p, "/responses"):
		responsesAnswer(w, stream)
	case strings.HasSuffix(p, "/chat/completions"):
		chatAnswer(w, stream)
	case strings.HasSuffix(p, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
	default:
		http.NotFound(w, r)
	}
}

const standinText = "Done."

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes events as server-sent events: named when an element is a
// [2]any{name, data}, data-only otherwise.
func sse(w http.ResponseWriter, events []any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	var b bytes.Buffer
	for _, e := range events {
		if named, ok := e.([2]any); ok {
			d, _ := json.Marshal(named[1])
			fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", named[0], d)
			continue
		}
		if s, ok := e.(string); ok {
			fmt.Fprintf(&b, "data: %s\n\n", s)
			continue
		}
		d, _ := json.Marshal(e)
		fmt.Fprintf(&b, "data: %s\n\n", d)
	}
	_, _ = w.Write(b.Bytes())
}

func anthropicAnswer(w http.ResponseWriter, stream bool) {
	usage := map[string]any{"input_tokens": 10, "output_tokens": 2, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	msg := map[string]any{"id": "msg_standin", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}
	if !stream {
		msg["content"] = []any{map[string]any{"type": "text", "text": standinText}}
		msg["stop_reason"] = "end_turn"
		writeJSON(w, msg)
		return
	}
	sse(w, []any{
		[2]any{"message_start", map[string]any{"type": "message_start", "message": msg}},
		[2]any{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}}},
		[2]any{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": standinText}}},
		[2]any{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		[2]any{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 2}}},
		[2]any{"message_stop", map[string]any{"type": "message_stop"}},
	})
}

func geminiAnswer() map[string]any {
	return map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{map[string]any{"text": standinText}}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12},
		"modelVersion":  "gemini-2.5-flash",
	}
}

func responsesAnswer(w http.ResponseWriter, stream bool) {
	item := map[string]any{"type": "message", "id": "msg_standin", "status": "completed", "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": standinText, "annotations": []any{}}}}
	usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 2, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 12}
	resp := map[string]any{"id": "resp_standin", "object": "response", "created_at": 1, "status": "completed",
		"model": "gpt-5", "output": []any{item}, "usage": usage}
	if !stream {
		writeJSON(w, resp)
		return
	}
	inProgress := map[string]any{"id": "resp_standin", "object": "response", "created_at": 1, "status": "in_progress", "model": "gpt-5", "output": []any{}}
	sse(w, []any{
		[2]any{"response.created", map[string]any{"type": "response.created", "sequence_number": 0, "response": inProgress}},
		[2]any{"response.output_item.added", map[string]any{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
			"item": map[string]any{"type": "message", "id": "msg_standin", "status": "in_progress", "role": "assistant", "content": []any{}}}},
		[2]any{"response.output_text.delta", map[string]any{"type": "response.output_text.delta", "sequence_number": 2, "item_id": "msg_standin", "output_index": 0, "content_index": 0, "delta": standinText}},
		[2]any{"response.output_item.done", map[string]any{"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": item}},
		[2]any{"response.completed", map[string]any{"type": "response.completed", "sequence_number": 4, "response": resp}},
	})
}

func chatAnswer(w http.ResponseWriter, stream bool) {
	if !stream {
		writeJSON(w, map[string]any{"id": "chatcmpl-standin", "object": "chat.completion", "created": 1, "model": "gpt-5",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": standinText}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": 1, "model": "gpt-5",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	sse(w, []any{chunk(map[string]any{"role": "assistant", "content": standinText}, nil), chunk(map[string]any{}, "stop"), "[DONE]"})
}
