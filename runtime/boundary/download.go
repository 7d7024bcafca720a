package boundary

// Downloads a page starts (a click, a script, a navigation to an attachment):
// the call's policy goes to the executor with the call's context (Governed),
// and the result carries the download fact and one sentence.

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

// CarryDownloads has the call's result carry what ws's downloads did since
// its previous result (facts download) and say it in one sentence. held is
// told, as the result is written, whether a download was held for the
// person (the handlers open the handoff then).
func CarryDownloads(ws *browser.Workspace, inv *pipeline.Invocation, held func(bool)) {
	inv.Carry(func(r *surface.Refusal) {
		d, n := ws.TakeDownloads()
		held(n > 0 && d.Held)
		if n == 0 {
			return
		}
		f := DownloadFact(d, n)
		r.Download = f
		if d.Held {
			inv.Note(language.DownloadHeld(d.Name))
			return
		}
		inv.Note(language.Download(f, d.Name))
	})
}

// DownloadFact is the download fact of n downloads, d the first: the page's
// suggested name cleaned and bounded, never a path.
func DownloadFact(d browser.Download, n int) *surface.Download {
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

// DownloadsDenied refuses a download Ghostlight would start itself (a replay)
// while the call's policy denies downloads.
func DownloadsDenied(inv *pipeline.Invocation) *surface.Refusal {
	return &surface.Refusal{Reason: surface.ReasonConstraintDenied, Pointer: "/download", Layer: downloadLayer(inv),
		Message: language.MsgDownloadsDenied}
}
