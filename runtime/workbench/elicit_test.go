package workbench_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// recorder is an elicitation handler that remembers what it was asked and
// accepts (a person clicking "open" in their client).
type elicited struct {
	mu   sync.Mutex
	reqs []mcp.ElicitationParams
}

func (e *elicited) Elicit(_ context.Context, r mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.mu.Lock()
	e.reqs = append(e.reqs, r.Params)
	e.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}, nil
}

func (e *elicited) asked() []mcp.ElicitationParams {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]mcp.ElicitationParams(nil), e.reqs...)
}

var _ client.ElicitationHandler = (*elicited)(nil)

// handoffStop navigates a fresh tab to the sign-in page and lets the agent
// stop at the password field.
func handoffStop(t *testing.T, c *client.Client) (tab string, stop envelope) {
	t.Helper()
	nav := call(t, c, "browser_navigate", map[string]any{"url": env.site.URL + "/login", "new_tab": true})
	if nav.Status != "succeeded" {
		t.Fatalf("navigate: %s", nav.Summary)
	}
	tab, _ = nav.Facts["tab"].(string)
	stop = call(t, c, "browser_fill_form", map[string]any{"tab": tab,
		"fields": []any{map[string]any{"selector": map[string]any{"name": "Password"}, "value": "x"}}})
	if stop.Status != "attention_required" || stop.Facts["reason"] != "credential_handoff" {
		t.Fatalf("fill: %s %s", stop.Status, stop.Summary)
	}
	return tab, stop
}

// TestHandoffElicitsURL: a client that declared URL-mode elicitation
// (MCP 2025-11-25) is asked to show the person a single-use workbench link
// for the tab; the summary says so, and still names the link.
func TestHandoffElicitsURL(t *testing.T) {
	h := &elicited{}
	c := mcpClient(t, h, true)
	tab, stop := handoffStop(t, c)
	asked := h.asked()
	if len(asked) != 1 {
		t.Fatalf("%d elicitations, want 1", len(asked))
	}
	el := asked[0]
	if el.Mode != mcp.ElicitationModeURL || el.ElicitationID == "" || !strings.HasPrefix(el.URL, env.ts.URL+"/workbench/?ticket=") {
		t.Fatalf("elicitation %+v", el)
	}
	if !strings.Contains(el.Message, "Password") || !strings.Contains(el.Message, "Hand back") {
		t.Fatalf("message %q", el.Message)
	}
	if stop.Facts["handoff_elicited"] != true || !strings.Contains(stop.Summary, "client has shown them") ||
		!strings.Contains(stop.Summary, env.ts.URL+"/workbench/#"+tab) {
		t.Fatalf("summary %q facts %v", stop.Summary, stop.Facts)
	}
	// The ticket admits a browser without the cookie once, to that tab.
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(el.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/workbench/#"+tab {
		t.Fatalf("ticket: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if code, _ := get(t, hc, "/workbench/api/tabs"); code != http.StatusOK {
		t.Fatalf("with the ticket's cookie: %d", code)
	}
	fresh := &http.Client{CheckRedirect: hc.CheckRedirect}
	resp, err = fresh.Get(el.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusGone {
		t.Fatalf("a spent ticket answered %d", resp.StatusCode)
	}
	// A second stop on the same open handoff does not ask again.
	again := call(t, c, "browser_fill_form", map[string]any{"tab": tab,
		"fields": []any{map[string]any{"selector": map[string]any{"name": "Password"}, "value": "x"}}})
	if len(h.asked()) != 1 || again.Facts["handoff_elicited"] != true {
		t.Fatalf("asked %d times; facts %v", len(h.asked()), again.Facts)
	}
}

// TestHandoffWithoutElicitation: a client without elicitation, and one
// with form mode only, are never asked; the summary carries the link.
func TestHandoffWithoutElicitation(t *testing.T) {
	for name, c := range map[string]func() (*client.Client, *elicited){
		"none":      func() (*client.Client, *elicited) { return mcpClient(t, nil), nil },
		"form only": func() (*client.Client, *elicited) { h := &elicited{}; return mcpClient(t, h), h },
	} {
		t.Run(name, func(t *testing.T) {
			cl, h := c()
			tab, stop := handoffStop(t, cl)
			if h != nil && len(h.asked()) != 0 {
				t.Fatalf("a form-only client was asked: %+v", h.asked())
			}
			link := env.ts.URL + "/workbench/#" + tab
			if stop.Facts["handoff_url"] != link || stop.Facts["handoff_elicited"] != nil {
				t.Fatalf("facts %v", stop.Facts)
			}
			// One sentence names what the person must do and where.
			want := "is a credential field, so Ghostlight typed nothing; ask the user to open the Ghostlight workbench at " + link + ", type it into the tab's live view and press Hand back."
			if !strings.Contains(stop.Summary, want) || strings.Count(stop.Summary, ". ") > 0 {
				t.Fatalf("summary %q", stop.Summary)
			}
			if len(stop.NextSteps) != 1 || !strings.Contains(stop.NextSteps[0], tab) {
				t.Fatalf("next steps %q", stop.NextSteps)
			}
		})
	}
}
