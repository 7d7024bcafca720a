package main

// The npm package set, in esbuild's style: one small launcher package,
// ghostlight-mcp, whose bin runs the binary of the platform package npm
// installed beside it; one package per release target holding that binary,
// chosen by npm through optionalDependencies and each package's os and cpu.
// `npx ghostlight-mcp serve` is then the whole install. dist writes the
// package directories under <out>/npm/ (npm pack turns each into a tarball)
// and <out>/server.json, the MCP registry entry, stamped with the same version.

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

const (
	launcherName = "ghostlight-mcp"
	// serverName is the MCP registry name; the registry checks it against the
	// launcher's package.json mcpName before it lists the package.
	serverName = "io.github.ghostlight-dev/ghostlight"
	repoURL    = "https://github.com/ghostlight-dev/ghostlight"
)

//go:embed npm/launcher.js
var launcherJS string

// npmOS and npmCPU translate Go's names into Node's process.platform and process.arch.
var (
	npmOS  = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}
	npmCPU = map[string]string{"amd64": "x64", "arm64": "arm64"}
)

// platformPackage is the npm package holding the binary for goos/goarch.
func platformPackage(goos, goarch string) (name, nodeOS, nodeCPU string, err error) {
	nodeOS, okOS := npmOS[goos]
	nodeCPU, okCPU := npmCPU[goarch]
	if !okOS || !okCPU {
		return "", "", "", fmt.Errorf("no npm platform for %s/%s", goos, goarch)
	}
	return launcherName + "-" + nodeOS + "-" + nodeCPU, nodeOS, nodeCPU, nil
}

var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// npmVersion is the release version as npm requires it (semver, no "v"):
// a tag such as v1.2.0 or v1.2.0-3-gabc1234 stays as it is; anything else
// (an untagged `git describe`, "dev") becomes a 0.0.0-dev.g… prerelease.
func npmVersion(version string) string {
	v := strings.TrimPrefix(version, "v")
	if semver.MatchString(v) {
		return v
	}
	clean := regexp.MustCompile(`[^0-9A-Za-z-]+`).ReplaceAllString(v, "-")
	return "0.0.0-dev.g" + strings.Trim(clean, "-")
}

// writeJSON writes v as indented JSON with a final newline, as npm writes package.json.
func writeJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// orderedMap marshals its keys in the order given, so package.json reads as npm's own do.
type orderedMap []kv

type kv struct {
	k string
	v any
}

func (m orderedMap) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, e := range m {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(e.k)
		buf.Write(k)
		buf.WriteByte(':')
		var vb bytes.Buffer
		enc := json.NewEncoder(&vb)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(e.v); err != nil {
			return nil, err
		}
		buf.Write(bytes.TrimRight(vb.Bytes(), "\n"))
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func repository() orderedMap {
	return orderedMap{{"type", "git"}, {"url", "git+" + repoURL + ".git"}}
}

// writePlatformPackage writes <out>/npm/<name>/ for one target's binary.
func writePlatformPackage(out, goos, goarch, version string, exe []byte) (string, error) {
	name, nodeOS, nodeCPU, err := platformPackage(goos, goarch)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(out, "npm", name)
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return "", err
	}
	exeName := "ghostlight"
	if goos == "windows" {
		exeName += ".exe"
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", exeName), exe, 0o755); err != nil {
		return "", err
	}
	pkg := orderedMap{
		{"name", name},
		{"version", version},
		{"description", fmt.Sprintf("The Ghostlight MCP server binary for %s %s; installed by %s, run with npx %s serve.", nodeOS, nodeCPU, launcherName, launcherName)},
		{"repository", repository()},
		{"homepage", repoURL},
		{"license", licenseID},
		{"os", []string{nodeOS}},
		{"cpu", []string{nodeCPU}},
		{"files", []string{"bin/" + exeName}},
		{"preferUnplugged", true},
	}
	if err := writeJSON(filepath.Join(dir, "package.json"), pkg); err != nil {
		return "", err
	}
	if err := copyLicense(dir); err != nil {
		return "", err
	}
	readme := fmt.Sprintf("# %s\n\nThe [Ghostlight](%s) MCP server binary for %s %s. Do not install it yourself:\n"+
		"`npx %s serve` installs the package for your platform and runs it.\n", name, repoURL, nodeOS, nodeCPU, launcherName)
	return name, os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644)
}

// writeLauncher writes <out>/npm/ghostlight-mcp/, naming a platform package
// for every release target (whether or not this run built it).
func writeLauncher(out, version string) error {
	dir := filepath.Join(out, "npm", launcherName)
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return err
	}
	platforms := map[string]string{}
	var optional orderedMap
	for _, t := range targets {
		goos, goarch, _ := strings.Cut(t, "/")
		name, nodeOS, nodeCPU, err := platformPackage(goos, goarch)
		if err != nil {
			return err
		}
		platforms[nodeOS+"-"+nodeCPU] = name
		optional = append(optional, kv{name, version})
	}
	sort.Slice(optional, func(i, j int) bool { return optional[i].k < optional[j].k })
	table, err := json.MarshalIndent(platforms, "", "  ")
	if err != nil {
		return err
	}
	js := strings.Replace(launcherJS, "__PLATFORMS__", string(table), 1)
	if err := os.WriteFile(filepath.Join(dir, "bin", launcherName+".js"), []byte(js), 0o755); err != nil {
		return err
	}
	pkg := orderedMap{
		{"name", launcherName},
		{"version", version},
		{"description", "Ghostlight: an MCP server that lets a model drive a real Chromium through typed, governed browser tools."},
		{"mcpName", serverName},
		{"keywords", []string{"mcp", "model-context-protocol", "browser", "chromium"}},
		{"repository", repository()},
		{"homepage", repoURL},
		{"license", licenseID},
		{"bin", orderedMap{{launcherName, "bin/" + launcherName + ".js"}}},
		{"files", []string{"bin/" + launcherName + ".js"}},
		{"engines", orderedMap{{"node", ">=18"}}},
		{"optionalDependencies", optional},
	}
	if err := writeJSON(filepath.Join(dir, "package.json"), pkg); err != nil {
		return err
	}
	if err := copyLicense(dir); err != nil {
		return err
	}
	readme := "# " + launcherName + "\n\n" +
		"[Ghostlight](" + repoURL + ") is an MCP server that lets a language model drive a real Chromium\n" +
		"through typed browser tools and one governed result envelope. It drives the Chromium or Chrome\n" +
		"installed on the machine (it never downloads a browser).\n\n" +
		"```json\n{\"mcpServers\": {\"ghostlight\": {\"command\": \"npx\", \"args\": [\"-y\", \"" + launcherName + "\", \"serve\"]}}}\n```\n\n" +
		"This package holds only a launcher; npm installs the binary for your platform from one of\n" +
		"its optional dependencies (" + launcherName + "-linux-x64, -linux-arm64, -darwin-x64, -darwin-arm64,\n" +
		"-win32-x64). Setup for each client: " + repoURL + "/blob/main/docs/clients.md\n"
	return os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644)
}

// writeServerJSON writes <out>/server.json: the repository's server.json with
// the release version in the entry and in its npm package.
func writeServerJSON(out, version string) error {
	b, err := os.ReadFile("server.json")
	if err != nil {
		return err
	}
	var entry map[string]any
	if err := json.Unmarshal(b, &entry); err != nil {
		return fmt.Errorf("server.json: %w", err)
	}
	entry["version"] = version
	pkgs, _ := entry["packages"].([]any)
	found := false
	for _, p := range pkgs {
		if m, ok := p.(map[string]any); ok && m["registryType"] == "npm" && m["identifier"] == launcherName {
			m["version"] = version
			found = true
		}
	}
	if !found {
		return fmt.Errorf("server.json: no npm package %q", launcherName)
	}
	return writeJSON(filepath.Join(out, "server.json"), entry)
}

// licenseID is the repository's LICENSE as an SPDX identifier
// (docs/decisions/license.md).
const licenseID = "Apache-2.0"

// copyLicense puts the repository's LICENSE in a package directory: npm
// packs it whatever "files" says.
func copyLicense(dir string) error {
	b, err := os.ReadFile("LICENSE")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "LICENSE"), b, 0o644)
}
