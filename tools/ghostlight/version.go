package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
)

// version and commit are stamped by `make dist` with
// -ldflags "-X main.version=… -X main.commit=…"; without them (go install,
// go build) they come from the binary's build info.
var (
	version = ""
	commit  = ""
)

// buildInfo is what `ghostlight version` says and serverInfo.version carries.
type buildInfo struct {
	Version, Commit string
	Modified        bool
}

// readBuildInfo resolves the stamped values, else the module version of
// `go install …@vX` and the VCS revision `go build` records in a checkout.
func readBuildInfo(stampedVersion, stampedCommit string, bi *debug.BuildInfo, ok bool) buildInfo {
	b := buildInfo{Version: stampedVersion, Commit: stampedCommit}
	if ok && bi != nil {
		if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			b.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true" && stampedCommit == ""
			}
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	return b
}

// currentBuild is this binary's build.
func currentBuild() buildInfo {
	bi, ok := debug.ReadBuildInfo()
	return readBuildInfo(version, commit, bi, ok)
}

// printVersion is `ghostlight version`: version, commit, the MCP revisions
// the server speaks (mcp-go's list, as served), Go and platform.
func printVersion(w io.Writer) {
	b := currentBuild()
	c := b.Commit
	if b.Modified {
		c += " (modified)"
	}
	fmt.Fprintf(w, "ghostlight %s\ncommit: %s\nprotocols: %s\ngo: %s %s/%s\n", b.Version, c,
		strings.Join(mcpedge.ProtocolVersions(), ", "), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
