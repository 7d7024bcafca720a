package clients

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestGoSDK drives the binary with the official Go SDK over both transports
// in both protocol eras: list the tools, navigate to a local page, inspect it
// without naming the tab, click what inspect found naming only the target
// (over HTTP at 2026-07-28 every request stands alone: the bearer token's
// only tab is the one meant), then read it by the tab handle.
func TestGoSDK(t *testing.T) {
	site := newSite(t)
	httpSrv := startHTTP(t)
	for _, transport := range []string{stdio, httpMode} {
		for _, version := range []string{modern, legacy} {
			t.Run(transport+"/"+version, func(t *testing.T) {
				cs, _ := connect(t, transport, version, httpSrv, nil)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				list, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(list.Tools) < 20 {
					t.Fatalf("tools/list: %d tools", len(list.Tools))
				}
				nav, _ := call(t, cs, "browser_navigate", map[string]any{"url": site.URL + "/", "timeout_ms": 30000})
				tab := nav.fact("tab")
				if nav.Status != "succeeded" || !strings.HasPrefix(tab, "tab_") {
					t.Fatalf("navigate: %+v", nav)
				}
				if cs.InitializeResult().Instructions == "" {
					t.Error("no server instructions")
				}
				ins, _ := call(t, cs, "browser_inspect", map[string]any{})
				if ins.Status != "succeeded" || !strings.Contains(string(ins.Facts), "Press me") {
					t.Fatalf("inspect: %+v %s", ins, ins.Facts)
				}
				button := targetNamed(t, ins, "Press me")
				click, _ := call(t, cs, "browser_click", map[string]any{"target": button})
				if click.Status != "succeeded" {
					t.Fatalf("click: %+v", click)
				}
				read, _ := call(t, cs, "browser_read", map[string]any{"tab": tab})
				if !strings.Contains(string(read.Facts), "clicked") {
					t.Fatalf("read after click: %s", read.Facts)
				}
			})
		}
	}
}

// targetNamed is the handle of the inspected item with that name.
func targetNamed(t *testing.T, env envelope, name string) string {
	t.Helper()
	var facts struct {
		Items []struct {
			Target string `json:"target"`
			Name   string `json:"name"`
		} `json:"items"`
	}
	if err := json.Unmarshal(env.Facts, &facts); err != nil {
		t.Fatal(err)
	}
	for _, it := range facts.Items {
		if it.Name == name {
			return it.Target
		}
	}
	t.Fatalf("no item named %q in %s", name, env.Facts)
	return ""
}

// TestStatelessIsolation: 2026-07-28 clients over HTTP run in the workspace
// of their bearer token, beside a 2025-11-25 client. Two clients of one
// token share its tabs (one agent per token), so once the second opens a tab
// of its own, a call without tab is refused ambiguous_tab, pointing to
// browser_tabs, never given one of them. A session client's tabs are not the
// token's, and a stateless call naming one does not reach it.
func TestStatelessIsolation(t *testing.T) {
	site := newSite(t)
	srv := startHTTP(t)
	a, _ := connect(t, httpMode, modern, srv, nil)
	b, _ := connect(t, httpMode, modern, srv, nil)
	c, _ := connect(t, httpMode, legacy, srv, nil)

	navA, _ := call(t, a, "browser_navigate", map[string]any{"url": site.URL + "/", "timeout_ms": 30000})
	navC, _ := call(t, c, "browser_navigate", map[string]any{"url": site.URL + "/", "timeout_ms": 30000})
	tabA, tabC := navA.fact("tab"), navC.fact("tab")
	if tabA == "" || tabC == "" {
		t.Fatalf("navigations: %+v %+v", navA, navC)
	}
	// B shares the token: it sees A's tab, not C's.
	list, _ := call(t, b, "browser_tabs", map[string]any{"action": "list"})
	if !strings.Contains(string(list.Facts), tabA) || strings.Contains(string(list.Facts), tabC) {
		t.Fatalf("the token's tabs as B lists them: %s", list.Facts)
	}
	// B names C's (session-bearing) tab: never reached.
	if ins, _ := call(t, b, "browser_inspect", map[string]any{"tab": tabC}); ins.Status == "succeeded" {
		t.Fatalf("stateless client reached a session client's tab: %+v", ins)
	}
	// C (a session) names A's tab: sessions stay sessions.
	if ins, _ := call(t, c, "browser_inspect", map[string]any{"tab": tabA}); ins.Status == "succeeded" {
		t.Fatalf("session client reached a stateless client's tab: %+v", ins)
	}
	// B opens a tab of its own: the token now holds two, and a call without
	// tab is ambiguous for both agents.
	navB, _ := call(t, b, "browser_navigate", map[string]any{"url": site.URL + "/", "new_tab": true, "timeout_ms": 30000})
	tabB := navB.fact("tab")
	if tabB == "" || tabB == tabA {
		t.Fatalf("B's new tab: %+v", navB)
	}
	ins, _ := call(t, a, "browser_inspect", map[string]any{})
	if ins.Status == "succeeded" || ins.fact("reason") != "ambiguous_tab" || !strings.Contains(ins.Summary+string(ins.Facts), "tab") {
		t.Fatalf("a call without tab among two tabs: %+v %s", ins, ins.Facts)
	}
	// Each keeps its tab by its handle.
	for _, tab := range []string{tabA, tabB} {
		if ins, _ := call(t, a, "browser_inspect", map[string]any{"tab": tab}); ins.Status != "succeeded" {
			t.Fatalf("inspect %s: %+v", tab, ins)
		}
	}
	// Both tabs closed: the token holds nothing, and a call without tab is
	// told to pass the handle from its navigate result, not to open a tab.
	for _, tab := range []string{tabA, tabB} {
		if cl, _ := call(t, b, "browser_tabs", map[string]any{"action": "close", "tab": tab}); cl.Status != "succeeded" {
			t.Fatalf("close %s: %+v", tab, cl)
		}
	}
	none, res := call(t, a, "browser_inspect", map[string]any{})
	if none.fact("reason") != "no_tab" || !strings.Contains(textOf(res), "browser_navigate result") {
		t.Fatalf("a call without tab when the token holds none: %+v %q", none, textOf(res))
	}
	if rd, _ := call(t, a, "browser_read", map[string]any{"tab": tabA}); rd.Status == "succeeded" {
		t.Fatalf("a closed stateless tab's handle still reached a page: %+v", rd)
	}
}
