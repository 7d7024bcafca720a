package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/registry"
)

// openCmd starts a browser `ghostlight install` prepared, the registered way, in a
// visible window (--headless for machines without a display), detached so that it
// outlives the command. A server whose startup is left to the person attaches to it
// on its next call.
func openCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("open", flag.ContinueOnError)
	fs.SetOutput(out)
	headless := fs.Bool("headless", false, "start without a window (machines without a display)")
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: ghostlight open [--headless] NAME\n  NAME: %s (or chromium, chrome, chrome-for-testing, edge, brave)\n",
			strings.Join(browser.ProductNames(), ", "))
		fs.PrintDefaults()
	}
	// NAME may come before the flags, as people type it.
	var name string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if name == "" && fs.NArg() > 0 {
		name = fs.Arg(0)
	}
	if name == "" {
		fs.Usage()
		return errors.New("open needs the name of a browser")
	}
	store, err := registry.ForThisProcess(nil)
	if err != nil {
		return err
	}
	res, err := store.Open(context.Background(), name, registry.OpenOptions{Headless: *headless})
	if err != nil {
		return err
	}
	if res.Already {
		fmt.Fprintf(out, "%s is already open for Ghostlight (DevTools %s)\n", res.Browser.Name, res.Endpoint)
		return nil
	}
	fmt.Fprintf(out, "%s is open for Ghostlight (pid %d, DevTools %s); repeat the call in your MCP client\n", res.Browser.Name, res.PID, res.Endpoint)
	return nil
}
