package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ghostlight-dev/ghostlight/runtime/audit"
)

// errChainBroken is verify's failure: the report is printed already.
var errChainBroken = errors.New("the audit chain is broken")

// auditVerifyCmd checks the audit's hash chain across the live file and
// its rotated siblings (runtime/audit/verify.go) and prints what it found;
// a break, a gap or a deleted file makes the exit status non-zero.
func auditVerifyCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	path := fs.String("audit-path", os.Getenv("GHOSTLIGHT_AUDIT_PATH"), "the audit file (env GHOSTLIGHT_AUDIT_PATH); default $XDG_STATE_HOME/ghostlight/audit.jsonl")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ghostlight audit verify [--audit-path FILE] [FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
	case 1:
		*path = fs.Arg(0)
	default:
		return fmt.Errorf("audit verify takes at most one file (got %d)", fs.NArg())
	}
	cfg, err := audit.Config{Path: *path}.Resolve()
	if err != nil {
		return err
	}
	files, err := audit.Files(cfg.Path)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no audit file at %s", cfg.Path)
	}
	rep, err := audit.Verify(cfg.Path)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: %d files, %d lines, %d call records\n", cfg.Path, len(rep.Files), rep.Lines, rep.Records)
	for _, t := range rep.Rotated {
		fmt.Fprintf(out, "rotated away as configured: file %d (%d lines, seq %d…%d, keep %d)\n", t.File, t.Lines, t.FirstSeq, t.LastSeq, t.Keep)
	}
	if rep.Unchained > 0 {
		fmt.Fprintf(out, "%d lines were written before the audit was chained (format 1): not checked\n", rep.Unchained)
	}
	for _, p := range rep.Problems {
		where := p.File
		if p.Line > 0 {
			where = fmt.Sprintf("%s:%d", p.File, p.Line)
		}
		fmt.Fprintf(out, "BROKEN %s: %s (%s)\n", where, p.Msg, p.Kind)
	}
	fmt.Fprintf(out, "chain tip: seq %d %s\n", rep.TipSeq, rep.TipHash)
	if !rep.OK() {
		return fmt.Errorf("%w: %d problems, the first in %s", errChainBroken, len(rep.Problems), rep.Problems[0].File)
	}
	fmt.Fprintln(out, "chain intact")
	return nil
}
