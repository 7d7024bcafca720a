package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/registry"
)

// installCmd prepares every installed Chromium-family browser for this
// installation: one registration each, stamped with this binary and its install
// id, and a dedicated profile. A person then opens one with `ghostlight open NAME`.
func installCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	fs.SetOutput(out)
	explicit := fs.String("browser", os.Getenv("GHOSTLIGHT_BROWSER"), "also prepare this browser binary (env GHOSTLIGHT_BROWSER)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("install takes no arguments (got %q)", fs.Arg(0))
	}
	store, err := registry.ForThisProcess(nil)
	if err != nil {
		return err
	}
	found := browser.FindBrowsers(*explicit)
	if len(found) == 0 {
		return fmt.Errorf("no Chromium-family browser is installed (looked for %v on PATH and at the standard locations); install one, then run ghostlight install again", browser.ProductNames())
	}
	done, err := store.Install(found)
	for _, d := range done {
		fmt.Fprintf(out, "%s (%s): %s, profile %s; open it with: ghostlight open %s\n",
			d.Browser.Name, d.Browser.Path, d.Action, d.Registration.Profile, d.Browser.Slug)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "registrations in %s, owned by %s\n", store.Dir, store.Binary)
	return nil
}
