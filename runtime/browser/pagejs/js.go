package pagejs

import (
	"embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

//go:embed js/*.js
var jsFiles embed.FS

// jsOrder is the concatenation order: helpers first, the API object last
// (api.js ends the install function with its return statement).
var jsOrder = []string{
	"core.js", "cred.js", "registry.js", "visibility.js", "walk.js", "roles.js", "name.js", "state.js",
	"inspect.js", "find.js", "read.js", "act.js", "actionable.js", "release.js", "api.js",
}

// jsLimits are the page code's limits, from spec/, declared ahead of its
// files so the page code types none of them.
var jsLimits = fmt.Sprintf("const MAX_DEPTH = %d, ANCESTOR_STEPS = %d, COVER_STEPS = %d, SHADOW_STEPS = %d, FRAME_STEPS = %d,\n"+
	"  ERROR_CHARS = %d, SWEEP_EVERY = %d, ARTICLE_MIN_CHARS = %d, PARA_MIN_CHARS = %d, COVER_ANIMATION_MS = %d, COVER_ANIMATION_NODES = %d,\n"+
	"  HAY_CHARS = %d, HAY_PAD = %d, JUDGED_CANDIDATES = %d;\n",
	limits.PageDomDepthMax, limits.PageAncestorStepsMax, limits.PageCoverStepsMax, limits.PageShadowStepsMax,
	limits.PageFrameStepsMax, limits.PageErrorCharsMax, limits.RegistrySweepMax, limits.ArticleMinCharsMax,
	limits.ParagraphMinCharsMax, limits.CoverAnimationMs, limits.CoverAnimationNodes,
	limits.QueryHaystackCharsMax, hayPad, limits.JudgedCandidatesMax)

// hayPad is how far a window of a haystack reaches either side of a match
// (spec/bounds_secrets.cue, query_haystack_chars): a typed secret is kept
// over at most typed_secret_chars characters, so one shown with a separator
// between each of them spans less than twice that, and one that overlaps
// the match lies inside the window.
const hayPad = 2 * limits.TypedSecretCharsMax

// credDecl is spec/credentials.cue's table and its bounds, declared ahead
// of cred.js (in the page code and in CredentialFunction alike).
var credDecl = func() string {
	table, err := json.Marshal(surface.CredentialClasses)
	if err != nil {
		panic("pagejs: credential table: " + err.Error()) // generated data: a build defect
	}
	return fmt.Sprintf("const CRED = %s, CRED_NUMERIC_LENGTH = %d, CRED_CONTEXT_STEPS = %d, CRED_CONTEXT_CHARS = %d;\n",
		table, limits.CredentialNumericLengthMax, limits.CredentialContextStepsMax, limits.CredentialContextCharsMax)
}()

// CredentialSource is cred.js with the table declared ahead of it: a body
// that defines credClass(el), for a caller's own function declaration.
var CredentialSource = func() string {
	src, err := jsFiles.ReadFile("js/cred.js")
	if err != nil {
		panic("pagejs: missing embedded cred.js")
	}
	return credDecl + string(src)
}()

// CredentialFunction is a function declaration for Runtime.callFunctionOn
// with `this` an element: it returns the element's credential class
// (spec/credentials.cue), "" when it is none. It is cred.js, the page code's
// own classifier, standing alone, so the dispatch-time check reaches a field
// where the page code cannot (a closed shadow root).
var CredentialFunction = "function(){'use strict';\n" + CredentialSource + "\nreturn credClass(this);}"

// jsBody is the install function's body, assembled once.
var jsBody = func() string {
	var b strings.Builder
	b.WriteString("// ---- limits (spec/bounds.cue)\n" + jsLimits)
	b.WriteString("// ---- credential classes (spec/credentials.cue)\n" + credDecl)
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
