package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestHelp: on the built binary, `ghostlight --help` (and -h, help) lists
// every command with one line each and exits 0; `ghostlight serve --help`
// lists serve's flags by group, every flag once, and exits 0; neither says
// "flag: help requested", and a secret default from the environment is not
// shown.
func TestHelp(t *testing.T) {
	bin := binary(t)
	run := func(env []string, args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("ghostlight %s: %v\n%s", strings.Join(args, " "), err, errb.String())
		}
		if strings.Contains(out.String()+errb.String(), "help requested") {
			t.Fatalf("ghostlight %s says help requested", strings.Join(args, " "))
		}
		return out.String(), errb.String()
	}
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		out, _ := run(nil, args...)
		for _, c := range commands {
			name := strings.Fields(c[0])[0]
			if !strings.Contains(out, "\n  "+name+" ") {
				t.Errorf("ghostlight %s does not list %s:\n%s", args[0], name, out)
			}
		}
		if strings.Contains(out, "Usage of serve") || strings.Contains(out, "--token") {
			t.Errorf("ghostlight %s printed serve's flags:\n%s", args[0], out)
		}
	}
	out, _ := run([]string{"GHOSTLIGHT_TOKEN=secret-from-env"}, "serve", "--help")
	if strings.Contains(out, "secret-from-env") {
		t.Error("serve --help shows the token from the environment")
	}
	for _, g := range serveGroups {
		if !strings.Contains(out, "\n"+g.title+":\n") {
			t.Errorf("serve --help lacks the group %q", g.title)
		}
	}
	for _, flagName := range []string{"http", "token", "browser", "startup", "audit-path", "workbench", "log-level", "viewport"} {
		if n := strings.Count(out, "  --"+flagName+" ") + strings.Count(out, "  --"+flagName+"\n"); n != 1 {
			t.Errorf("serve --help lists --%s %d times", flagName, n)
		}
	}
	t.Logf("ghostlight --help: %d lines; serve --help: %d lines in %d groups", len(commands), strings.Count(out, "\n"), len(serveGroups))
}
