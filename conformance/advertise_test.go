package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// writeLayer writes a policy layer whole (a new file renamed over the old),
// as deployments do.
func writeLayer(t *testing.T, path, src string) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// wsOnlyEnv names ws as the only policy layer.
func wsOnlyEnv(ws string) []string {
	return []string{"TMPDIR=" + filepath.Dir(ws), "GHOSTLIGHT_ORG_POLICY=", "GHOSTLIGHT_USER_POLICY=", "GHOSTLIGHT_WORKSPACE_POLICY=" + ws, "GHOSTLIGHT_ORG_KEY="}
}

// TestLiveAdvertisedTools, over stdio and HTTP: a session's tools/list
// leaves out what the layers deny, byte for byte the generated definitions
// for what it lists; a reload that allows more sends
// notifications/tools/list_changed and lists the tools; one that allows
// less sends nothing and removes nothing; a denied tool called directly is
// refused at call time (blocked, capability_denied).
func TestLiveAdvertisedTools(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			ws := filepath.Join(shortTempDir(t), "policy.cue")
			writeLayer(t, ws, "capabilities: {execute: \"deny\", write: \"deny\"}\n")
			var c *rawMCP
			if transport == "stdio" {
				c = startRawStdio(t, wsOnlyEnv(ws))
			} else {
				c = startRawHTTP(t, wsOnlyEnv(ws))
			}
			var init struct {
				Capabilities struct {
					Tools struct {
						ListChanged bool `json:"listChanged"`
					} `json:"tools"`
				} `json:"capabilities"`
			}
			json.Unmarshal(c.initialize(map[string]any{}), &init)
			if !init.Capabilities.Tools.ListChanged {
				t.Fatal("the server does not declare tools.listChanged")
			}
			const changed = "notifications/tools/list_changed"
			list := func() []string {
				t.Helper()
				names, byName := c.tools()
				for name, raw := range byName {
					if e := surface.Lookup(name); e == nil || !bytes.Equal(raw, e.Definition) {
						t.Fatalf("%s: served bytes differ from the generated definition", name)
					}
				}
				return names
			}
			names := list()
			for _, hidden := range []string{"browser_execute", "browser_upload", "browser_fill_form"} {
				if slices.Contains(names, hidden) {
					t.Fatalf("%s is listed under a layer that denies what it needs: %v", hidden, names)
				}
			}
			if len(names) != len(surface.Catalog)-3 {
				t.Fatalf("%d tools listed: %v", len(names), names)
			}
			refused := func(tool string, args any, capability string) {
				t.Helper()
				r := c.call(tool, args)
				if !r.IsError || r.StructuredContent.Status != "blocked" || r.StructuredContent.Facts.Reason != "capability_denied" || r.StructuredContent.Facts.Capability != capability {
					t.Fatalf("%s called directly: %s", tool, r.Raw)
				}
			}
			refused("browser_execute", map[string]any{"script": "1"}, "execute")

			// Write is allowed again: the list grows, and the session hears it.
			writeLayer(t, ws, "capabilities: execute: \"deny\"\n")
			c.call("policy_explain", map[string]any{})
			c.waitNote(changed, 1)
			names = list()
			if !slices.Contains(names, "browser_upload") || !slices.Contains(names, "browser_fill_form") || slices.Contains(names, "browser_execute") {
				t.Fatalf("after allowing write: %v", names)
			}

			// Write denied again: nothing leaves the list, but the call is refused.
			writeLayer(t, ws, "capabilities: {execute: \"deny\", write: \"deny\"}\n")
			c.call("policy_explain", map[string]any{})
			if names = list(); !slices.Contains(names, "browser_upload") {
				t.Fatalf("a tool left the list mid-session: %v", names)
			}
			refused("browser_upload", map[string]any{"files": []any{map[string]any{"name": "a", "data_base64": "QQ=="}}}, "write")

			// Execute allowed: one more list_changed. Notifications come in
			// order, so had the narrowing sent one it would be counted here.
			writeLayer(t, ws, "capabilities: write: \"deny\"\n")
			c.call("policy_explain", map[string]any{})
			c.waitNote(changed, 2)
			if n := c.count(changed); n != 2 {
				t.Fatalf("%d list_changed notifications, want 2", n)
			}
			if names = list(); !slices.Contains(names, "browser_execute") || len(names) != len(surface.Catalog) {
				t.Fatalf("after allowing execute: %v", names)
			}
			if r := c.call("browser_execute", map[string]any{"script": "1"}); strings.Contains(string(r.Raw), "capability_denied") {
				t.Fatalf("execute still refused: %s", r.Raw)
			}
		})
	}
}
