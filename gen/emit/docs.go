package emit

import (
	"bytes"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// Docs renders the Markdown tool reference.
func Docs(spec *ir.Spec) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("<!-- " + Header + " -->\n\n# Tool reference\n")
	return b.Bytes(), nil
}

// Markers around the README section the generator owns.
const (
	ReadmeBegin = "<!-- BEGIN GENERATED TOOLS -->"
	ReadmeEnd   = "<!-- END GENERATED TOOLS -->"
)

// ReadmeSection renders the README's tool table.
func ReadmeSection(spec *ir.Spec) ([]byte, error) {
	return nil, nil
}
