package pagejs

import (
	"embed"
	"strconv"
	"strings"
)

//go:embed js/*.js
var jsFiles embed.FS

// jsOrder is the concatenation order: helpers first, the API object last
// (api.js ends the install function with its return statement).
var jsOrder = []string{
	"core.js", "registry.js", "visibility.js", "walk.js", "roles.js", "name.js", "state.js",
	"inspect.js", "find.js", "read.js", "act.js", "api.js",
}

// jsBody is the install function's body, assembled once.
var jsBody = func() string {
	var b strings.Builder
	for _, f := range jsOrder {
		src, err := jsFiles.ReadFile("js/" + f)
		if err != nil {
			// The file list is fixed at build time; a missing file is a
			// build defect caught by every test.
			panic("pagejs: missing embedded " + f)
		}
		b.WriteString("// ---- " + f + "\n")
		b.Write(src)
		b.WriteString("\n")
	}
	return b.String()
}()

// installScript is evaluated once per isolated world. It returns the API
// object; nothing is assigned to any global.
func installScript(serial int64) string {
	return "(function(SERIAL){'use strict';\n" + jsBody + "})(" + strconv.FormatInt(serial, 10) + ")"
}
