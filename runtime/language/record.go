package language

import (
	"fmt"
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Sentences of browser_record. A saved replay's sentence says how long it
// plays and where it went; frame counts and bytes stay in the facts.

const (
	stepRecordSave  = `Do the work to record, then call browser_record with action "save" to get the GIF.`
	stepRecordStart = `Call browser_record with action "start" to record again.`
)

// Seconds words a duration in ms as seconds with at most one decimal.
func Seconds(ms int) string {
	s := strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	if s == "1" {
		return "1 second"
	}
	return s + " seconds"
}

// RecordStarted words a started recording.
func RecordStarted(tab, rec string, stopDeadlineMs int) Text {
	return Say(fmt.Sprintf("Started recording %s as %s; it stops by itself after %s.", tab, rec, Seconds(stopDeadlineMs)), stepRecordSave)
}

// RecordStatus words a status read.
func RecordStatus(rec, state string, stopDeadlineMs, retentionMs int) Text {
	switch state {
	case "recording":
		return Say(fmt.Sprintf("%s is recording; it stops by itself in %s.", rec, Seconds(stopDeadlineMs)), stepRecordSave)
	case "stopped":
		return Say(fmt.Sprintf("%s is stopped and can be saved for %s more.", rec, Seconds(retentionMs)), `Call browser_record with action "save" to get the GIF.`)
	case "discarded":
		return Say(fmt.Sprintf("%s was discarded; its frames are erased.", rec), stepRecordStart)
	}
	return Say(fmt.Sprintf("%s expired; its frames are erased.", rec), stepRecordStart)
}

// RecordStopped words a stop.
func RecordStopped(rec string, already bool, retentionMs int) Text {
	if already {
		return Say(fmt.Sprintf("%s was already stopped; it can be saved for %s more.", rec, Seconds(retentionMs)))
	}
	return Say(fmt.Sprintf("Stopped %s; it can be saved for %s.", rec, Seconds(retentionMs)), `Call browser_record with action "save" to get the GIF.`)
}

// RecordSaved words a delivered replay: how long it plays and where it went.
// reduced says it was scaled down or thinned to fit the image bound.
func RecordSaved(rec string, durationMs int, delivery, target string, reduced bool) Text {
	where := "returned it to you as a GIF"
	switch delivery {
	case "target":
		where = "attached it as a GIF to the file input " + target
	case "download":
		where = "had the browser download it as the GIF file " + target + " into this session's download directory"
	}
	s := fmt.Sprintf("Saved %s, a replay that plays for %s, and %s.", rec, Seconds(durationMs), where)
	if reduced {
		s += " It was reduced to fit the image size bound."
	}
	return Say(s)
}

// RecordDiscarded words a discard.
func RecordDiscarded(rec string, already bool) Text {
	if already {
		return Say(fmt.Sprintf("%s was already erased.", rec), stepRecordStart)
	}
	return Say(fmt.Sprintf("Discarded %s; its frames are erased.", rec), stepRecordStart)
}

// Download words what became of a download a page started during the call; name is
// the page's own suggestion (quoted, untrusted), never a path.
// DownloadHeld says a download was refused because downloads on the page
// wait for the person (policy confirm.downloads).
func DownloadHeld(name string) string {
	q := Quote(name)
	if name == "" {
		q = "a file"
	}
	return fmt.Sprintf("The page started a download of %s; it was refused, because downloads on this page wait for the user (policy confirm.downloads). Ask the user to approve it in the Ghostlight workbench, then repeat the call.", q)
}

func Download(d *surface.Download, name string) string {
	q := Quote(name)
	if name == "" {
		q = "a file"
	}
	var s string
	switch d.State {
	case surface.DownloadStateRefused:
		s = fmt.Sprintf("The page started a download of %s; it was refused, because downloads are denied.", q)
	case surface.DownloadStateCompleted:
		s = fmt.Sprintf("The page downloaded %s (%d bytes) into this session's download directory.", q, d.Bytes)
	case surface.DownloadStateInProgress:
		s = fmt.Sprintf("The page's download of %s was still running when the call answered (%d bytes so far).", q, d.Bytes)
	case surface.DownloadStateTooLarge:
		s = fmt.Sprintf("The page's download of %s was cancelled: it passed download_bytes (%d bytes).", q, d.Limit)
	default:
		s = fmt.Sprintf("The page's download of %s failed.", q)
	}
	if d.Count > 1 {
		s += fmt.Sprintf(" (%d downloads in all.)", d.Count)
	}
	return s
}

// FramesWithheldForSecret notes that n frames were left out of a replay:
// they were of a page that showed (or may have shown) what the user typed
// into a credential field, which a picture cannot mask.
func FramesWithheldForSecret(n int) string {
	return fmt.Sprintf("%s left out of the replay: %s show what the user typed into a credential field.",
		Plural(n, "frame was", "frames were"), map[bool]string{true: "it may", false: "they may"}[n == 1])
}
