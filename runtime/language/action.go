package language

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Act is what one action did, as its receipt tells it. Every value a
// sentence names (host, landing host and title, tab handles, counts) is one
// the facts beside it carry.
type Act struct {
	// Verb is past tense and may carry a count: "Clicked", "Double-clicked",
	// "Typed 12 characters in".
	Verb string
	// Object is what it acted on: Element(...), At(...), or "" when the verb
	// says it all ("Pressed Enter").
	Object string
	// Host is the host of the page acted on.
	Host string
	// Landing is the URL of a committed navigation the action caused ("" =
	// none); LandingTitle its title; LandingDenied says the authority does not
	// reach that host.
	Landing       string
	LandingTitle  string
	LandingDenied bool
	// Opened are the handles of tabs the action opened, now controlled.
	Opened []string
	// Dialog is the type of a JavaScript dialog the action opened ("" = none).
	Dialog string
	// Loading: a navigation the action started was still loading when the
	// call's time ran out.
	Loading bool
	// Pending: requests the action started had not finished by then.
	Pending bool
	// Tail is one more sentence of the tool's own, ending with a period.
	Tail string
}

// At names a view point: "(120, 48) in view_3".
func At(x, y int, view string) string { return fmt.Sprintf("(%d, %d) in %s", x, y, view) }

// Clicked is a click receipt's verb: "Clicked", "Double-clicked",
// "Right-clicked", "Middle-triple-clicked".
func Clicked(button string, count int) string {
	verb := "clicked"
	switch count {
	case 2:
		verb = "double-clicked"
	case 3:
		verb = "triple-clicked"
	}
	switch button {
	case surface.BrowserClickButtonSecondary:
		return "Right-" + verb
	case surface.BrowserClickButtonMiddle:
		return "Middle-" + verb
	}
	return capitalize(verb)
}

// Pressed is a key press receipt's verb: "Pressed Enter", "Pressed Tab 3
// times"; in when the keys went to a target the receipt names ("Pressed
// Enter in").
func Pressed(label string, repeat int, in bool) string {
	verb := "Pressed " + label
	if repeat > 1 {
		verb += " " + strconv.Itoa(repeat) + " times"
	}
	if in {
		verb += " in"
	}
	return verb
}

// Filled is a form fill receipt's verb: "Filled 2 fields"; of > 0 says how
// many were asked when not all reached the page ("Filled 1 field of 3").
func Filled(n, of int) string {
	verb := "Filled " + Plural(n, "field", "fields")
	if of > 0 {
		verb += " of " + strconv.Itoa(of)
	}
	return verb
}

// FilledAndClicked is Filled, every field set, then the submit control
// clicked: "Filled 2 fields and clicked".
func FilledAndClicked(n int) string { return Filled(n, 0) + " and clicked" }

// What an action's input is called when its result is unknown
// (ActionUnknown's what).
const (
	WhatClick       = "the click"
	WhatDrag        = "the drag"
	WhatKeyPress    = "the key press"
	WhatPointerMove = "the pointer move"
	WhatScript      = "the script"
	WhatScroll      = "the scroll"
	WhatSubmitClick = "the submit click"
	WhatTyping      = "the typing"
	WhatUpload      = "the upload"
)

// Receipt verbs that do not vary.
const (
	Dragged     = "Dragged"
	HoveredOver = "Hovered over"
	RanScript   = "Ran the script"
)

// Acted is the element an action hit: its role noun and, when names are
// kept, its accessible name. The receipt says it in the summary only (the
// facts carry no copy of the sentence's words).
type Acted struct {
	Role surface.Role
	Name string
}

// Target names the element an action hit: the role noun and, when names
// are kept, the accessible name. nil is "the page".
func Target(el *Acted, withName bool) string {
	if el == nil {
		return "the page"
	}
	return Element(surface.Role(el.Role), el.Name, withName)
}

// Action words a receipt: `Clicked the "Save" button on example.com.`
func Action(a Act) string {
	var b strings.Builder
	b.WriteString(a.Verb)
	if a.Object != "" {
		b.WriteString(" " + a.Object)
	}
	b.WriteString(" on " + hostOr(a.Host))
	if a.Landing != "" {
		title := Quote(a.LandingTitle)
		switch {
		case a.LandingDenied:
			fmt.Fprintf(&b, "; the tab moved to %s, which this session may not act on", Host(a.Landing))
		case title != "":
			fmt.Fprintf(&b, "; the tab landed on %s (%s)", Host(a.Landing), title)
		default:
			fmt.Fprintf(&b, "; the tab landed on %s", Host(a.Landing))
		}
	}
	b.WriteString(".")
	if len(a.Opened) > 0 {
		fmt.Fprintf(&b, " It opened %s, now controlled.", strings.Join(a.Opened, ", "))
	}
	if a.Loading {
		b.WriteString(" A navigation it started was still loading when the call's time ran out.")
	} else if a.Pending {
		b.WriteString(" A request it started had not finished when the call's time ran out.")
	}
	if a.Dialog != "" {
		fmt.Fprintf(&b, " %s %s dialog opened and is blocking the page.", capitalize(article(a.Dialog)), a.Dialog)
	}
	if a.Tail != "" {
		b.WriteString(" " + a.Tail)
	}
	return b.String()
}

// ActionSteps are the safe next steps after an action, most pressing first.
// They never suggest repeating the action.
func ActionSteps(a Act) []string {
	var out []string
	if a.Dialog != "" {
		out = append(out, stepDialog)
	}
	if a.LandingDenied {
		out = append(out, stepPolicy)
	}
	if a.Loading {
		out = append(out, `Call browser_wait with {"condition":"load_ready"} before acting on the new page.`)
	} else if a.Landing != "" && !a.LandingDenied {
		out = append(out, "Call browser_inspect or browser_find for targets on the new page.")
	} else if a.Pending {
		out = append(out, "Call browser_wait for what that request should change (text_present, say) before relying on the page.")
	}
	if len(a.Opened) > 0 {
		out = append(out, fmt.Sprintf(`Pass "tab":%q to act in the tab it opened.`, a.Opened[0]))
	}
	if len(out) > surface.NextStepsMax {
		out = out[:surface.NextStepsMax]
	}
	return out
}

// ActionUnknown words an action cut off while its input was in flight: the
// page may or may not have acted on it, so it must be checked, never
// replayed blindly.
func ActionUnknown(tool, what string, limitMs string) Text {
	return Say(fmt.Sprintf("%s did not finish within %s ms; %s may or may not have reached the page.", tool, limitMs, what),
		"Check the page with browser_read or browser_screenshot before acting again.")
}

// ActionPartial words an action that stopped part way: done says what
// reached the page before the refusal r. The refusal's own suggestions are
// dropped: after a partial effect, repeating the call is never suggested.
func ActionPartial(tool, done string, r *surface.Refusal) Text {
	why := Refusal(tool, r)
	return Say(fmt.Sprintf("%s stopped part way: %s %s", tool, done, why.Summary),
		"Check the page with browser_read or browser_inspect; what already happened stands, so continue from there.")
}

// Typed is a typing receipt's verb: "Typed 12 characters in", "Typed 3 of
// 12 characters in" when not all reached the page, "Cleared and typed ..."
// when the control was cleared first, "Cleared" when there was nothing to type.
func Typed(cleared bool, typed, total int) string {
	var v string
	switch {
	case total == 0:
		return "Cleared"
	case typed < total:
		v = "Typed " + strconv.Itoa(typed) + " of " + Characters(total) + " in"
	default:
		v = "Typed " + Characters(typed) + " in"
	}
	if cleared {
		return "Cleared and t" + v[1:]
	}
	return v
}

// Characters says "1 character" or "12 characters".
func Characters(n int) string { return Plural(n, "character", "characters") }
