package tools

// Downloads a page starts (a click, a script, a navigation to an attachment): the call's
// policy goes to the executor with the call's context, an action waits for its downloads
// within its timeout, and the result carries the download fact and one sentence.

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// withDownloads carries the call's download policy (downloads: deny unless a layer
// allows them) to every tab the call creates or holds.
func withDownloads(ctx context.Context, inv *pipeline.Invocation) context.Context {
	p := browser.DownloadPolicy{}
	if inv != nil && inv.Authority != nil {
		p.Allow = inv.Authority.AllowsDownloads()
	}
	return browser.WithDownloads(ctx, p)
}

// downloadLayer is the layer that decided downloads, for a refusal's layer fact.
func downloadLayer(inv *pipeline.Invocation) string {
	if inv == nil || inv.Authority == nil {
		return ""
	}
	_, layer, _ := inv.Authority.Value("/downloads")
	return layer
}

// carryDownloads has the call's result carry what the session's downloads did since
// its previous result (facts download) and say it in one sentence.
func (s *session) carryDownloads(inv *pipeline.Invocation) {
	inv.Carry(func(r *surface.Refusal) {
		d, n := s.ws.TakeDownloads()
		s.askHeldDownload(inv, n > 0 && d.Held) // confirm.go
		if n == 0 {
			return
		}
		f := downloadFact(d, n)
		r.Download = f
		if d.Held {
			inv.Note(language.DownloadHeld(d.Name))
			return
		}
		inv.Note(language.Download(f, d.Name))
	})
}

// downloadFact is the download fact: the page's suggested name cleaned and bounded,
// never a path.
func downloadFact(d browser.Download, n int) *surface.Download {
	f := &surface.Download{State: d.State, Name: downloadName(d.Name), Bytes: int(d.Bytes)}
	if d.State == surface.DownloadStateTooLarge {
		f.Limit = surface.DownloadBytesMax
	}
	if n > 1 {
		f.Count = n
	}
	return f
}

// downloadName cleans a page's suggested file name like any page string and bounds
// it to download_name_chars.
func downloadName(name string) string {
	c := []rune(language.Clean(name))
	if len(c) > surface.DownloadNameCharsMax {
		c = c[:surface.DownloadNameCharsMax]
	}
	return string(c)
}

// downloadsDenied refuses a download Ghostlight would start itself (a replay) while
// the call's policy denies downloads.
func downloadsDenied(inv *pipeline.Invocation) *surface.Refusal {
	return &surface.Refusal{Reason: surface.ReasonConstraintDenied, Pointer: "/download", Layer: downloadLayer(inv),
		Message: language.MsgDownloadsDenied}
}

// replayName is the file name a replay is downloaded under.
func replayName(handle string) string { return "ghostlight-" + handle + ".gif" }

// navigatedToDownload is the outcome of a navigation whose URL answered with a
// download: nothing committed (the tab stayed on its page); the carried download fact
// and its sentence say what became of the file.
func navigatedToDownload(f *surface.BrowserNavigateFacts, l browser.Landing) surface.Outcome {
	f.URL, f.Title, f.DocumentGeneration = governedURL(l.URL), title(l.Title), int(l.Generation)
	eff := surface.EffectNone
	if f.Created {
		eff = surface.EffectApplied
	}
	return done(language.Say(language.AnsweredWithDownload), l.Readiness, eff, false)
}
