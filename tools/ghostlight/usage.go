package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// commands are ghostlight's commands, one line each, in the order
// `ghostlight --help` lists them.
var commands = [][2]string{
	{"serve [flags]", "run the MCP server: stdio, or streamable HTTP with --http (the default command)"},
	{"explain [flags]", "print the policy in force, with the file and line deciding each setting"},
	{"audit [flags]", "print the audit's last lines, filtered (ghostlight audit -h)"},
	{"audit verify [FILE]", "check the audit's hash chain across the kept files; non-zero on a break"},
	{"install", "prepare the installed Chromium-family browsers for this installation"},
	{"open NAME [--headless]", "open a prepared browser (chromium, chrome, edge, brave, …)"},
	{"workbench", "print a fresh single-use link to the running server's workbench"},
	{"demo [--out DIR]", "drive a short real session on the built-in demo page, as an MCP client would"},
	{"version", "print the version, commit and MCP protocol versions"},
	{"help", "print this list"},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Ghostlight: an MCP server that lets a language model drive a real Chromium.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: ghostlight COMMAND [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	width := 0
	for _, c := range commands {
		width = max(width, len(c[0]))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c[0], c[1])
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "ghostlight serve --help" for the server's flags, by group.`)
}

// serveGroups sorts serve's flags for its help; a flag in no group is
// listed under "Other", so a new flag is never hidden.
var serveGroups = []struct {
	title string
	flags []string
}{
	{"Transport (stdio unless --http)", []string{"http", "token", "token-file", "insecure-no-token", "allow-host", "allow-origin", "allow-remote"}},
	{"Browser", []string{"browser", "browser-endpoint", "startup", "headful", "viewport"}},
	{"Policy, tools and audit", []string{"allow-downloads", "withhold-target-names", "surface", "audit-path"}},
	{"Workbench and demo", []string{"workbench", "demo-addr"}},
	{"Operations (replicas, metrics)", []string{"replica", "metrics"}},
	{"Logging", []string{"log-level"}},
}

// secretFlags never show their default: it may come from the environment.
var secretFlags = map[string]bool{"token": true}

// serveUsage prints serve's flags by group.
func serveUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "Usage: ghostlight serve [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Runs the MCP server over stdio, or over streamable HTTP at /mcp with --http.")
	grouped := map[string]bool{}
	for _, g := range serveGroups {
		var fl []*flag.Flag
		for _, name := range g.flags {
			if f := fs.Lookup(name); f != nil {
				fl = append(fl, f)
				grouped[name] = true
			}
		}
		printFlags(w, g.title, fl)
	}
	var other []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if !grouped[f.Name] {
			other = append(other, f)
		}
	})
	printFlags(w, "Other", other)
}

func printFlags(w io.Writer, title string, fl []*flag.Flag) {
	if len(fl) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, f := range fl {
		name, use := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if name != "" {
			head += " " + name
		}
		// A default read from the environment may be a secret (GHOSTLIGHT_TOKEN).
		if f.DefValue != "" && f.DefValue != "false" && !secretFlags[f.Name] {
			use += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n      %s\n", head, strings.ReplaceAll(use, "\n", "\n      "))
	}
}
