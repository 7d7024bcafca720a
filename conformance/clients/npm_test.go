package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNPMPackage: the npm package set `make dist` writes, as a user gets it.
// dist builds this platform's binary only; npm pack turns the launcher and
// the platform package into tarballs; npm installs the launcher from them
// into a scratch directory, offline (the other platforms' packages are
// optional and skipped); then the MCP Inspector CLI starts
// `npx ghostlight-mcp serve` there and runs a flow that navigates to the
// local page and inspects it.
func TestNPMPackage(t *testing.T) {
	const version = "v0.0.0-npm"
	tmp := shortTempDir(t)
	env := nodeEnv(t, tmp)
	run := func(dir string, timeout time.Duration, name string, args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir, cmd.Env = dir, append(env, "GOWORK=off")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, tail(out.String()), tail(errb.String()))
		}
		return out.Bytes()
	}

	dist := filepath.Join(tmp, "dist")
	run(repoRoot(), 10*time.Minute, "go", "run", "./.ci/dist", "-out", dist, "-version", version, "-targets", runtime.GOOS+"/"+runtime.GOARCH)
	pkgs, err := filepath.Glob(filepath.Join(dist, "npm", "*"))
	if err != nil || len(pkgs) != 2 {
		t.Fatalf("dist/npm holds %v (%v), want the launcher and this platform's package", pkgs, err)
	}
	tarballs := filepath.Join(tmp, "tgz")
	if err := os.MkdirAll(tarballs, 0o755); err != nil {
		t.Fatal(err)
	}
	var tgz []string
	for _, p := range pkgs {
		name := strings.TrimSpace(string(lastLine(run(tarballs, 2*time.Minute, "npm", "pack", "--loglevel=error", p))))
		st, err := os.Stat(filepath.Join(tarballs, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("npm pack: %s, %d bytes", name, st.Size())
		tgz = append(tgz, filepath.Join(tarballs, name))
	}

	var launcher struct {
		Name, Version, MCPName, License string
		Optional                        map[string]string `json:"optionalDependencies"`
	}
	readJSON(t, filepath.Join(dist, "npm", "ghostlight-mcp", "package.json"), &launcher)
	var entry struct {
		Name, Version string
		Packages      []struct{ Identifier, Version string }
	}
	readJSON(t, filepath.Join(dist, "server.json"), &entry)
	if launcher.Version != "0.0.0-npm" || len(launcher.Optional) != 5 || launcher.MCPName != entry.Name ||
		entry.Version != launcher.Version || len(entry.Packages) != 1 || entry.Packages[0].Identifier != launcher.Name ||
		entry.Packages[0].Version != launcher.Version || launcher.License != "Apache-2.0" {
		t.Fatalf("launcher %+v and registry entry %+v disagree", launcher, entry)
	}

	scratch := filepath.Join(tmp, "scratch")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(scratch, "package.json"), []byte(`{"private": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(scratch, 2*time.Minute, "npm", append([]string{"install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"}, tgz...)...)
	for _, p := range pkgs { // each installed package carries the terms it is under
		if _, err := os.Stat(filepath.Join(scratch, "node_modules", filepath.Base(p), "LICENSE")); err != nil {
			t.Fatalf("the installed %s has no LICENSE: %v", filepath.Base(p), err)
		}
	}
	if out := run(scratch, time.Minute, "npx", "--offline", "ghostlight-mcp", "version"); !strings.HasPrefix(string(out), "ghostlight "+version+"\n") {
		t.Fatalf("npx ghostlight-mcp version: %q", out)
	}

	site := newSite(t)
	inspector := filepath.Join(nodeDir(), "node_modules", ".bin", "mcp-inspector")
	target := []string{"--cli", "npx", "ghostlight-mcp", "serve"}
	var list struct{ Tools []struct{ Name string } }
	out := run(scratch, 2*time.Minute, inspector, append(target, "--method", "tools/list")...)
	if err := json.Unmarshal(out, &list); err != nil || len(list.Tools) < 20 {
		t.Fatalf("tools/list through npx: %v\n%s", err, tail(string(out)))
	}
	flow := `steps=[{"id":"open","tool":"browser_navigate","arguments":{"url":"` + site.URL + `/"}},{"id":"look","tool":"browser_inspect"}]`
	out = run(scratch, 2*time.Minute, inspector, append(target, "--method", "tools/call", "--tool-name", "browser_flow", "--tool-arg", flow, "timeout_ms=30000")...)
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Status string          `json:"status"`
			Facts  json.RawMessage `json:"facts"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("tools/call through npx: %v\n%s", err, tail(string(out)))
	}
	if res.IsError || res.StructuredContent.Status != "succeeded" || !strings.Contains(string(res.StructuredContent.Facts), "Press me") {
		t.Fatalf("navigate and inspect through npx ghostlight-mcp serve: %s", tail(string(out)))
	}
	t.Logf("npx ghostlight-mcp serve: %d tools; navigate and inspect %s", len(list.Tools), res.StructuredContent.Status)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
