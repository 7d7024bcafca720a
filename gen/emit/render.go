package emit

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/format"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

//go:embed static/support.go.txt
var supportSource []byte

// GoPackage is where the generated Go lives, relative to the output root.
const GoPackage = "surface"

// Render renders every artifact of the spec in memory, keyed by path
// relative to the output directory. Nothing is written here.
func Render(spec *ir.Spec) (files map[string][]byte, err error) {
	defer func() {
		// Emitters panic only on IR the loader should have refused; report it
		// as an error rather than a crash.
		if r := recover(); r != nil {
			err = fmt.Errorf("render: %v", r)
		}
	}()
	files = map[string][]byte{}
	g := newGoGen(spec, GoPackage)
	for name, f := range g.all() {
		var b bytes.Buffer
		if err := f.Render(&b); err != nil {
			return nil, fmt.Errorf("render %s: %w", name, err)
		}
		files[GoPackage+"/"+name] = b.Bytes()
	}
	support, err := format.Source(append([]byte("// "+Header+"\n\n"), supportSource...))
	if err != nil {
		return nil, fmt.Errorf("format support: %w", err)
	}
	files[GoPackage+"/support.go"] = support
	for _, t := range spec.Tools {
		def, err := Definition(spec, t)
		if err != nil {
			return nil, fmt.Errorf("definition %s: %w", t.Name, err)
		}
		files[GoPackage+"/tools/"+t.Name+".json"] = def // served byte for byte: no trailing newline
	}
	docs, err := Docs(spec)
	if err != nil {
		return nil, err
	}
	files["docs/tools.md"] = docs
	fx, err := Fixtures(spec)
	if err != nil {
		return nil, err
	}
	for name, b := range fx {
		files["fixtures/"+name] = b
	}
	return files, nil
}
