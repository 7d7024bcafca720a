package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
)

// policyConfig is what the layers are read from: the environment, the
// working directory, the home directory, and the command-line layer (the
// serve flags that duplicate policy).
func policyConfig(startupFlag, endpoint string, withholdNames bool) governance.Config {
	cwd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	files, key := governance.Discover(os.LookupEnv, cwd, home)
	def := browser.StartupAuto
	if endpoint != "" {
		def = browser.StartupConnect
	}
	return governance.Config{
		Files:          files,
		Key:            key,
		CommandLine:    governance.CommandLine{WithholdTargetNames: withholdNames, Startup: startupFlag, AllowDownloads: allowDownloads},
		DefaultStartup: def,
		Endpoint:       endpoint != "",
	}
}

// loadPolicy reads the layers; an error means the server must not start.
func loadPolicy(startupFlag, endpoint string, withholdNames bool, log *slog.Logger) (*governance.Loader, error) {
	return governance.Load(policyConfig(startupFlag, endpoint, withholdNames), log)
}

// explain prints, for a person, the compilation policy_explain returns to
// a model: the same lines, each decided by a file ending in its location,
// then the files in force.
func explain(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	startup := fs.String("startup", "", "as ghostlight serve --startup (the command-line layer)")
	withhold := fs.Bool("withhold-target-names", false, "as ghostlight serve --withhold-target-names (the command-line layer)")
	fs.BoolVar(&allowDownloads, "allow-downloads", false, "as ghostlight serve --allow-downloads (the command-line layer)")
	endpoint := fs.String("browser-endpoint", os.Getenv("GHOSTLIGHT_BROWSER_ENDPOINT"), "as ghostlight serve --browser-endpoint (it makes connect the default startup)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	l, err := loadPolicy(*startup, *endpoint, *withhold, nil)
	if err != nil {
		return err
	}
	a := l.Current()
	f := a.Explain()
	if note := a.InterceptionOnlyNote(browser.EndpointRemote(*endpoint)); note != "" {
		f.Note = strings.TrimSpace(f.Note + " " + note)
	}
	for _, line := range governance.Render(f, a.Locate()) {
		fmt.Fprintln(out, line)
	}
	for _, f := range a.Files() {
		fmt.Fprintf(out, "file %s: %s\n", f[0], f[1])
	}
	return nil
}

// policyAudit is the audit configuration the layers set. --audit-path
// (or GHOSTLIGHT_AUDIT_PATH) is the command line's say on audit.path, so
// it may not move the audit away from a path a layer fixed.
func policyAudit(a *governance.Authority, flagPath string) (audit.Config, error) {
	path, maxBytes, keep := a.AuditSettings()
	if flagPath != "" && path != "" && filepath.Clean(flagPath) != filepath.Clean(path) {
		_, layer, _ := a.Value("/audit/path")
		return audit.Config{}, fmt.Errorf("--audit-path %s differs from audit.path, which the %s layer sets (%s): a lower layer may only narrow", flagPath, layer, a.Locate()(layer, "/audit/path"))
	}
	if flagPath != "" {
		path = flagPath
	}
	return audit.Config{Path: path, MaxBytes: int64(maxBytes), Keep: keep}, nil
}
