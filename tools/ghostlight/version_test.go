package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestVersionFromBuildInfo: a stamp wins; `go install …@v1.2.3` gives the
// module version and a checkout build its revision; nothing at all is "dev".
func TestVersionFromBuildInfo(t *testing.T) {
	installed := &debug.BuildInfo{Main: debug.Module{Path: "github.com/ghostlight-dev/ghostlight", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}}
	cases := []struct {
		name, v, c string
		bi         *debug.BuildInfo
		want       buildInfo
	}{
		{"stamped", "v9.9.9", "fff", installed, buildInfo{Version: "v9.9.9", Commit: "fff"}},
		{"go install", "", "", installed, buildInfo{Version: "v1.2.3", Commit: "abc123", Modified: true}},
		{"devel", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, buildInfo{Version: "dev", Commit: "unknown"}},
		{"none", "", "", nil, buildInfo{Version: "dev", Commit: "unknown"}},
	}
	for _, c := range cases {
		if got := readBuildInfo(c.v, c.c, c.bi, c.bi != nil); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestVersionNamesProtocols: `ghostlight version` lists every revision
// mcp-go serves, newest first, 2026-07-28 among them.
func TestVersionNamesProtocols(t *testing.T) {
	var b bytes.Buffer
	printVersion(&b)
	out := b.String()
	if !strings.HasPrefix(out, "ghostlight ") || !strings.Contains(out, "\ncommit: ") {
		t.Fatalf("version output:\n%s", out)
	}
	if want := "protocols: " + strings.Join(mcp.ValidProtocolVersions, ", ") + "\n"; !strings.Contains(out, want) || !strings.Contains(out, "2026-07-28") {
		t.Fatalf("version output lacks %q:\n%s", want, out)
	}
}
