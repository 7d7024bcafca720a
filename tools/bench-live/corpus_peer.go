package main

// The peer: chrome-devtools-mcp (tools/bench-live/peer, pinned in its
// package-lock.json) in its own process, on Debian's Chromium, headless,
// with a throwaway profile.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// peerDir holds the peer's package.json and lockfile.
const peerDir = "tools/bench-live/peer"

// peerVersion is the version pinned in peerDir/package.json.
const peerVersion = "1.11.0"

// startPeer installs the pinned peer (npm ci, once per lockfile) and starts
// it over stdio. stop ends its process and its browser.
func startPeer(browserPath string) (c *client, stop func(), err error) {
	if _, err := os.Stat(filepath.Join(peerDir, "node_modules", ".bin", "chrome-devtools-mcp")); err != nil {
		install := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		install.Dir = peerDir
		if out, err := install.CombinedOutput(); err != nil {
			return nil, nil, fmt.Errorf("npm ci in %s: %v\n%s", peerDir, err, out)
		}
	}
	cmd := exec.Command("node", filepath.Join(peerDir, "node_modules", "chrome-devtools-mcp", "build", "src", "bin", "chrome-devtools-mcp.js"),
		"--headless", "--isolated", "--executablePath", browserPath,
		"--chromeArg=--no-sandbox", "--no-usage-statistics", "--no-performance-crux", "--viewport", "1280x720")
	cmd.Env = append(os.Environ(), "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	stop = func() { in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() }
	c, err = openClient(in, out)
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("chrome-devtools-mcp: %w", err)
	}
	return c, stop, nil
}
