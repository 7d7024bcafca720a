package tools

// Downloads a page starts (a click, a script, a navigation to an attachment): the call's
// policy goes to the executor with the call's context and the result carries the download
// fact and one sentence (runtime/boundary); an action waits for its downloads within its
// timeout (runtime/browser/action). What is left here is a tool's own: a navigation that
// answered with a download, and a replay's file name.

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// replayName is the file name a replay is downloaded under.
func replayName(handle string) string { return "ghostlight-" + handle + ".gif" }

// navigatedToDownload is the outcome of a navigation whose URL answered with a
// download: nothing committed (the tab stayed on its page); the carried download fact
// and its sentence say what became of the file.
func navigatedToDownload(f *surface.BrowserNavigateFacts, l browser.Landing) surface.Outcome {
	f.URL, f.Title, f.DocumentGeneration = outcome.URL(l.URL), outcome.Title(l.Title), int(l.Generation)
	eff := surface.EffectNone
	if f.Created {
		eff = surface.EffectApplied
	}
	return outcome.Done(language.Say(language.AnsweredWithDownload), l.Readiness, eff, false)
}
