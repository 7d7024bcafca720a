package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/audit"
)

// auditCmd prints the last lines of the audit (rotated files included) for
// a person, or as the JSON lines themselves with --json.
func auditCmd(args []string, out io.Writer) error {
	if len(args) > 0 && args[0] == "verify" {
		return auditVerifyCmd(args[1:], out)
	}
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	path := fs.String("audit-path", os.Getenv("GHOSTLIGHT_AUDIT_PATH"), "the audit file (env GHOSTLIGHT_AUDIT_PATH); default $XDG_STATE_HOME/ghostlight/audit.jsonl")
	n := fs.Int("n", 20, "how many lines (the last ones); 0 prints every line")
	var f audit.Filter
	fs.StringVar(&f.Workspace, "session", "", "only this MCP session (the workspace column)")
	fs.StringVar(&f.Tool, "tool", "", "only this tool, e.g. browser_click")
	fs.StringVar(&f.Status, "status", "", "only this status: succeeded, blocked, failed, cancelled, attention_required, unknown")
	asJSON := fs.Bool("json", false, "print the matching lines as written (JSON lines)")
	wouldDeny := fs.Bool("would-deny", false, "summarise what monitor-mode layers would have refused, by reason and layer, over the matching lines (-n 0 by default)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ghostlight audit [-n N] [--session S] [--tool T] [--status S] [--json] [--audit-path FILE]")
		fmt.Fprintln(fs.Output(), "       ghostlight audit --would-deny [-n N] [--session S] [--tool T] [--audit-path FILE]   what monitor mode would have refused")
		fmt.Fprintln(fs.Output(), "       ghostlight audit verify [--audit-path FILE] [FILE]   check the hash chain across the kept files")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("audit takes no arguments (got %q)", fs.Arg(0))
	}
	if *n < 0 {
		return fmt.Errorf("-n must be 0 or more")
	}
	if *wouldDeny && *asJSON {
		return fmt.Errorf("--would-deny and --json do not combine: --json prints lines, --would-deny counts them")
	}
	if *wouldDeny && !flagSet(fs, "n") {
		*n = 0 // a week of a policy on trial: every line
	}
	cfg, err := audit.Config{Path: *path}.Resolve()
	if err != nil {
		return err
	}
	entries, skipped, err := audit.Tail(cfg.Path, *n, f)
	if err != nil {
		return err
	}
	if skipped > 0 {
		fmt.Fprintf(os.Stderr, "ghostlight audit: %d unreadable lines skipped\n", skipped)
	}
	if *asJSON {
		for _, e := range entries {
			if _, err := fmt.Fprintf(out, "%s\n", e.Raw); err != nil {
				return err
			}
		}
		return nil
	}
	if *wouldDeny {
		return printWouldDeny(out, cfg.Path, entries)
	}
	if len(entries) == 0 {
		fmt.Fprintf(out, "No audit lines match in %s.\n", cfg.Path)
		return nil
	}
	return printAudit(out, entries)
}

// printAudit lays the entries out as a table: one call a row, a step of a
// composite under its parent's id.
func printAudit(out io.Writer, entries []audit.Entry) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tSESSION\tINVOCATION\tTOOL\tCAPABILITIES\tDECISION\tSTATUS\tEFFECT\tHOSTS\tMS")
	for _, e := range entries {
		inv := e.Invocation
		if e.Parent != "" {
			inv += " (step of " + e.Parent + ")"
		}
		tool := e.Tool
		if e.Branch != "" {
			tool += " " + e.Branch
		}
		decision := e.Decision
		if e.Layer != "" {
			decision += " (" + e.Layer + ")"
		}
		status := e.Status
		if e.Reason != "" {
			status += " (" + e.Reason + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			e.Time.Local().Format("2006-01-02 15:04:05.000"), dash(e.Workspace), inv, tool,
			dash(strings.Join(e.Capabilities, ",")), decision, status, e.Effect,
			dash(strings.Join(e.Hosts, ",")), strconv.FormatFloat(e.DurationMS, 'f', 1, 64))
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// printWouldDeny counts the refusals monitor-mode layers did not make, by
// reason and layer, most frequent first, with the calls and tools they
// concerned and the first and last time seen: what enforcing the layer
// would have refused over the lines read.
func printWouldDeny(out io.Writer, path string, entries []audit.Entry) error {
	type key struct{ reason, layer string }
	type tally struct {
		n, calls    int
		tools       map[string]bool
		first, last time.Time
	}
	counts := map[key]*tally{}
	calls := 0
	for _, e := range entries {
		seen := map[key]bool{}
		for _, w := range e.WouldDeny {
			k := key{w.Reason, w.Layer}
			t := counts[k]
			if t == nil {
				t = &tally{tools: map[string]bool{}, first: e.Time}
				counts[k] = t
			}
			t.n++
			if !seen[k] {
				t.calls++
				seen[k] = true
			}
			t.tools[e.Tool] = true
			if e.Time.Before(t.first) {
				t.first = e.Time
			}
			if e.Time.After(t.last) {
				t.last = e.Time
			}
		}
		if len(e.WouldDeny) > 0 {
			calls++
		}
	}
	if len(counts) == 0 {
		fmt.Fprintf(out, "No would-deny decisions in %d audit lines of %s: no layer in monitor mode would have refused anything.\n", len(entries), path)
		return nil
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := counts[keys[i]], counts[keys[j]]
		if a.n != b.n {
			return a.n > b.n
		}
		return keys[i].reason+keys[i].layer < keys[j].reason+keys[j].layer
	})
	fmt.Fprintf(out, "%d of %d calls would have been refused by a layer in monitor mode.\n", calls, len(entries))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REASON\tLAYER\tDECISIONS\tCALLS\tTOOLS\tFIRST\tLAST")
	for _, k := range keys {
		t := counts[k]
		var tools []string
		for n := range t.tools {
			tools = append(tools, n)
		}
		sort.Strings(tools)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\n", k.reason, k.layer, t.n, t.calls, strings.Join(tools, ","),
			t.first.Local().Format("2006-01-02 15:04"), t.last.Local().Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}
