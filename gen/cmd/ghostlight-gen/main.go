// Command ghostlight-gen renders spec/ (CUE) into generated/: Go decoders and
// bindings, MCP tool JSON, docs and conformance fixtures. It renders
// everything in memory first and writes only when every step succeeded.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ghostlight-dev/ghostlight/gen/emit"
	"github.com/ghostlight-dev/ghostlight/gen/load"
	"github.com/ghostlight-dev/ghostlight/gen/write"
)

func main() {
	specDir := flag.String("spec", "spec", "CUE spec directory")
	out := flag.String("out", "generated", "output directory (owned by the generator)")
	readme := flag.String("readme", "README.md", "README whose generated section to refresh (\"\" to skip)")
	importRoot := flag.String("import", "github.com/ghostlight-dev/ghostlight/generated", "Go import path of the output directory")
	flag.Parse()
	if err := run(*specDir, *out, *readme, *importRoot); err != nil {
		fmt.Fprintln(os.Stderr, "ghostlight-gen:", err)
		os.Exit(1)
	}
}

func run(specDir, out, readme, importRoot string) error {
	spec, err := load.Dir(specDir, nil)
	if err != nil {
		return err
	}
	files, err := emit.Render(spec, importRoot)
	if err != nil {
		return err
	}
	section, err := emit.ReadmeSection(spec)
	if err != nil {
		return err
	}
	changed, err := write.Tree(out, files, write.Owned)
	if err != nil {
		return err
	}
	if readme != "" {
		did, err := write.Splice(readme, emit.ReadmeBegin, emit.ReadmeEnd, section)
		if err != nil {
			return err
		}
		if did {
			changed = append(changed, filepath.Base(readme))
		}
	}
	for _, c := range changed {
		fmt.Println("ghostlight-gen: wrote", c)
	}
	return nil
}
