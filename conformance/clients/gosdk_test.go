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
// by the tab handle the navigation returned, click what inspect found.
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
				nav, _ := call(t, cs, "browser_navigate", map[string]any{"url": site.URL + "/"})
				tab := nav.fact("tab")
				if nav.Status != "succeeded" || !strings.HasPrefix(tab, "tab_") {
					t.Fatalf("navigate: %+v", nav)
				}
				ins, _ := call(t, cs, "browser_inspect", map[string]any{"tab": tab})
				if ins.Status != "succeeded" || !strings.Contains(string(ins.Facts), "Press me") {
					t.Fatalf("inspect: %+v %s", ins, ins.Facts)
				}
				button := targetNamed(t, ins, "Press me")
				click, _ := call(t, cs, "browser_click", map[string]any{"tab": tab, "target": button})
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

// TestStatelessIsolation: two 2026-07-28 clients on one HTTP server, and a
// 2025-11-25 client beside them. Each reaches only the tabs whose handles it
// was given: a call without a handle gets a fresh workspace (so it sees no
// tab of anyone's), and a stateless call naming a session client's tab
// handle does not reach it.
func TestStatelessIsolation(t *testing.T) {
	site := newSite(t)
	srv := startHTTP(t)
	a, _ := connect(t, httpMode, modern, srv, nil)
	b, _ := connect(t, httpMode, modern, srv, nil)
	c, _ := connect(t, httpMode, legacy, srv, nil)

	navA, _ := call(t, a, "browser_navigate", map[string]any{"url": site.URL + "/"})
	navC, _ := call(t, c, "browser_navigate", map[string]any{"url": site.URL + "/"})
	tabA, tabC := navA.fact("tab"), navC.fact("tab")
	if tabA == "" || tabC == "" {
		t.Fatalf("navigations: %+v %+v", navA, navC)
	}
	// B lists tabs: a fresh workspace, none of A's or C's.
	list, _ := call(t, b, "browser_tabs", map[string]any{"action": "list"})
	if strings.Contains(string(list.Facts), tabA) || strings.Contains(string(list.Facts), tabC) {
		t.Fatalf("stateless client B sees others' tabs: %s", list.Facts)
	}
	// B inspects without a tab: nothing to act on, not A's tab.
	if ins, _ := call(t, b, "browser_inspect", map[string]any{}); ins.Status == "succeeded" {
		t.Fatalf("inspect without a tab reached a tab: %+v", ins)
	}
	// B names C's (session-bearing) tab: never routed to C's workspace.
	if ins, _ := call(t, b, "browser_inspect", map[string]any{"tab": tabC}); ins.Status == "succeeded" {
		t.Fatalf("stateless client reached a session client's tab: %+v", ins)
	}
	// C (a session) names A's tab: sessions stay sessions.
	if ins, _ := call(t, c, "browser_inspect", map[string]any{"tab": tabA}); ins.Status == "succeeded" {
		t.Fatalf("session client reached a stateless client's tab: %+v", ins)
	}
	// A keeps its tab across requests by its handle alone.
	if ins, _ := call(t, a, "browser_inspect", map[string]any{"tab": tabA}); ins.Status != "succeeded" {
		t.Fatalf("stateless client lost its own tab: %+v", ins)
	}
	// A handle of a closed tab routes nowhere: A closes it, then a call by
	// it is refused rather than recreated in someone else's workspace.
	if cl, _ := call(t, a, "browser_tabs", map[string]any{"action": "close", "tab": tabA}); cl.Status != "succeeded" {
		t.Fatalf("close: %+v", cl)
	}
	if rd, _ := call(t, a, "browser_read", map[string]any{"tab": tabA}); rd.Status == "succeeded" {
		t.Fatalf("a closed stateless tab's handle still reached a page: %+v", rd)
	}
}
