package actionable

// A click's press and release are two events, and the page can change
// between them. A listbox animating out (Shoelace's sl-select) is drawn at
// full size again for the frame between its animation's end and the end
// handler that hides it: a press taken by the checkbox below can then
// release on the listbox, whose mouseup handler picks the option under the
// pointer. So after each press the point is looked at again, once per
// animation frame, and DecideRelease says release, hold the button a frame
// longer, or withhold the release (the page never sees it, and the click
// reports what happened).

// ReleaseSample is one look at the click point after the press.
type ReleaseSample struct {
	// Frame counts the animation frames waited since the press (0 for the
	// look right after it).
	Frame int
	// Hit: the element at the point is the target (or inside it), or the
	// target is gone (nothing is left to protect).
	Hit bool
	// Fresh: what covers the point was added to the document after the
	// press was armed, so the press brought it up (a select whose menu opens
	// on mousedown over its own trigger); a person's release lands there too.
	Fresh bool
	// Beneath: the point reaches an ancestor of the target (a menu that
	// opened on the press set pointer-events: none on the body, as Radix's
	// modal menus do): nothing covers the target, it stopped taking pointer
	// events; a person's release lands there too.
	Beneath bool
}

// ReleaseVerdict is what to do with the release after the looks so far.
type ReleaseVerdict uint8

const (
	// Release: send it now.
	Release ReleaseVerdict = iota
	// Hold: keep the button down and look again next frame.
	Hold
	// Withhold: a cover not of the press's making stayed for maxFrames
	// frames (or the deadline came): the release must not reach it.
	Withhold
)

// DecideRelease reads the latest look: a hit, a fresh cover or a point
// beneath the target releases at once; any other cover holds until it has been seen in maxFrames frames
// after the press, or until past is true (the action's deadline), then
// withholds.
func DecideRelease(last ReleaseSample, maxFrames int, past bool) ReleaseVerdict {
	switch {
	case last.Hit || last.Fresh || last.Beneath:
		return Release
	case past || last.Frame >= maxFrames:
		return Withhold
	}
	return Hold
}
