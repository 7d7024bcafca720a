package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Each test opens one corpus page in the shipped binary and does what a
// model would: observe (browser_inspect), find the control by its role and
// accessible name, act on it by selector, then check what the page itself
// reported to the test server.

// corpusOpen starts a server, opens the page and waits for its first report
// (the bundle ran and rendered).
func corpusOpen(t *testing.T, page string) (*corpusSite, *liveServer) {
	t.Helper()
	site := newCorpusSite(t)
	s := startStdio(t)
	t.Cleanup(func() { s.c.Close() })
	s.must(t, "browser_navigate", map[string]any{"url": site.A + "/" + page})
	site.wait(t, page, "its first state", func(map[string]any) bool { return true })
	return site, s
}

// TestCorpusReactSelect: type into react-select's search input, pick the
// option it filters to.
func TestCorpusReactSelect(t *testing.T) {
	site, s := corpusOpen(t, "react-select")
	s.observe(t, "combobox", "Flavour")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("combobox", "Flavour"), "text": "pist"})
	s.appear(t, "option", "Pistachio")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "Pistachio")})
	site.wait(t, "react-select", "flavour pistachio", func(m map[string]any) bool { return m["flavour"] == "pistachio" })
}

// TestCorpusMUI: a Select (open, pick an option), a Switch, an Autocomplete
// (type, pick) and a Dialog (open, confirm).
func TestCorpusMUI(t *testing.T) {
	site, s := corpusOpen(t, "mui")
	s.observe(t, "combobox", "Age")
	s.must(t, "browser_click", map[string]any{"selector": sel("combobox", "Age")})
	s.appear(t, "option", "Twenty")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "Twenty")})
	site.wait(t, "mui", "age 20", func(m map[string]any) bool { return m["age"] == float64(20) })

	s.observe(t, "switch", "Notifications")
	s.must(t, "browser_click", map[string]any{"selector": sel("switch", "Notifications")})
	site.wait(t, "mui", "notifications on", func(m map[string]any) bool { return m["notifications"] == true })

	s.observe(t, "combobox", "Movie")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("combobox", "Movie"), "text": "godf"})
	s.appear(t, "option", "The Godfather")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "The Godfather")})
	site.wait(t, "mui", "movie The Godfather", func(m map[string]any) bool { return m["movie"] == "The Godfather" })

	s.must(t, "browser_click", map[string]any{"selector": sel("button", "Delete account")})
	site.wait(t, "mui", "the dialog open", func(m map[string]any) bool { return m["dialogOpen"] == true })
	s.appear(t, "button", "Delete forever")
	s.must(t, "browser_click", map[string]any{"selector": sel("button", "Delete forever")})
	site.wait(t, "mui", "the dialog confirmed", func(m map[string]any) bool { return m["answer"] == "confirm" && m["dialogOpen"] == false })
}

// TestCorpusRadix: Tabs, Checkbox, Slider (keys on the focused thumb) and a
// DropdownMenu.
func TestCorpusRadix(t *testing.T) {
	site, s := corpusOpen(t, "radix")
	s.observe(t, "tab", "Password")
	s.must(t, "browser_click", map[string]any{"selector": sel("tab", "Password")})
	site.wait(t, "radix", "tab password", func(m map[string]any) bool { return m["tab"] == "password" })

	s.observe(t, "checkbox", "Accept terms")
	s.must(t, "browser_click", map[string]any{"selector": sel("checkbox", "Accept terms")})
	site.wait(t, "radix", "terms accepted", func(m map[string]any) bool { return m["terms"] == true })

	s.observe(t, "slider", "Volume")
	s.must(t, "browser_press_key", map[string]any{"selector": sel("slider", "Volume"), "strokes": []string{"ArrowRight"}, "repeat": 5})
	site.wait(t, "radix", "volume 55", func(m map[string]any) bool { return m["volume"] == float64(55) })

	s.observe(t, "button", "Options")
	s.must(t, "browser_click", map[string]any{"selector": sel("button", "Options")})
	s.appear(t, "menuitem", "Duplicate")
	s.must(t, "browser_click", map[string]any{"selector": sel("menuitem", "Duplicate")})
	site.wait(t, "radix", "action duplicate", func(m map[string]any) bool { return m["action"] == "duplicate" })
}

// TestCorpusHeadlessUI: type into a Headless UI combobox, pick the option.
func TestCorpusHeadlessUI(t *testing.T) {
	site, s := corpusOpen(t, "headlessui")
	s.observe(t, "combobox", "Assignee")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("combobox", "Assignee"), "text": "tom"})
	s.appear(t, "option", "Tom Cook")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "Tom Cook")})
	site.wait(t, "headlessui", "assignee Tom Cook", func(m map[string]any) bool { return m["assignee"] == "Tom Cook" })
}

// TestCorpusCodeMirror: type into a CodeMirror 6 editor.
func TestCorpusCodeMirror(t *testing.T) {
	site, s := corpusOpen(t, "codemirror")
	s.observe(t, "textbox", "Code")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("textbox", "Code"), "text": "let answer = 42;"})
	site.wait(t, "codemirror", "the typed line", func(m map[string]any) bool { return m["doc"] == "let answer = 42;" })
}

// TestCorpusShoelace: Shoelace web components, each control inside a shadow
// root: an input, a checkbox, a switch and a select.
//
// The checkbox comes right after the select, just below it: the select's
// listbox animates out, and for the frame between its animation's end and
// the handler that hides it, it is drawn over the checkbox again. A press
// on the checkbox could then release on the listbox, whose mouseup handler
// picks "Small" (1 of about 20 runs under load before clicks held their
// release while a cover is there: pagejs.PressWatch).
func TestCorpusShoelace(t *testing.T) {
	site, s := corpusOpen(t, "shoelace")
	s.observe(t, "textbox", "Full name")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("textbox", "Full name"), "text": "Ada Lovelace"})
	site.wait(t, "shoelace", "the name", func(m map[string]any) bool { return m["name"] == "Ada Lovelace" })

	s.observe(t, "combobox", "Shirt size")
	s.must(t, "browser_click", map[string]any{"selector": sel("combobox", "Shirt size")})
	s.appear(t, "option", "Medium")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "Medium")})
	s.must(t, "browser_click", map[string]any{"selector": sel("checkbox", "Send newsletter")})
	site.wait(t, "shoelace", "size medium, newsletter on", func(m map[string]any) bool { return m["size"] == "medium" && m["news"] == true })

	s.observe(t, "switch", "Dark mode")
	s.must(t, "browser_click", map[string]any{"selector": sel("switch", "Dark mode")})
	site.wait(t, "shoelace", "dark mode on, the rest kept", func(m map[string]any) bool {
		return m["dark"] == true && m["size"] == "medium" && m["name"] == "Ada Lovelace" && m["news"] == true
	})
}

// TestCorpusTipTap: type into a TipTap (ProseMirror) editor, turn Bold on
// from its toolbar, type on.
func TestCorpusTipTap(t *testing.T) {
	site, s := corpusOpen(t, "tiptap")
	s.observe(t, "textbox", "Story")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("textbox", "Story"), "text": "Hello corpus"})
	site.wait(t, "tiptap", "the typed words", func(m map[string]any) bool { return m["text"] == "Hello corpus" })
	s.observe(t, "button", "Bold")
	s.must(t, "browser_click", map[string]any{"selector": sel("button", "Bold")})
	s.must(t, "browser_type_text", map[string]any{"focused": true, "text": " loud words"})
	site.wait(t, "tiptap", "bold words after the plain ones", func(m map[string]any) bool {
		h, _ := m["html"].(string)
		return m["text"] == "Hello corpus loud words" && strings.HasSuffix(h, "loud words</strong></p>") && !strings.Contains(h, "<strong>Hello")
	})
}

// TestCorpusDatePicker: open react-datepicker's calendar from its input and
// pick a day by the name the calendar gives it.
func TestCorpusDatePicker(t *testing.T) {
	site, s := corpusOpen(t, "datepicker")
	s.observe(t, "textbox", "Start date")
	s.must(t, "browser_click", map[string]any{"selector": sel("textbox", "Start date")})
	s.appear(t, "button", "Next Month")
	// The calendar's days are grid cells with a roving tabindex (only the
	// selected day's is 0): each is a control a person clicks, listed by
	// inspect as a cell and named by a selector.
	s.observe(t, "cell", "Choose Sunday, March 15th, 2026")
	s.must(t, "browser_click", map[string]any{"selector": sel("cell", "Choose Sunday, March 15th, 2026")})
	site.wait(t, "datepicker", "date 2026-03-15", func(m map[string]any) bool { return m["date"] == "2026-03-15" })
}

// TestCorpusVirtualList: a row far down a virtualized list is not in the
// DOM until the list scrolls; capture the list, turn the wheel over it until
// find sees the row, click it. Two notches a turn move the list less than
// the rows it keeps rendered, so no turn skips past the row.
func TestCorpusVirtualList(t *testing.T) {
	site, s := corpusOpen(t, "virtual")
	s.observe(t, "button", "Row 1")
	const want = "Row 60"
	found := func() bool { _, ok := s.findAll(t, want)[want]; return ok }
	if found() {
		t.Fatalf("%s is in the DOM before any scroll: the list is not virtualized", want)
	}
	var offsets []int
	for turns := 0; !found(); turns++ {
		if turns == 30 {
			t.Fatalf("%s never appeared after %d wheel turns over the list (offsets %v)", want, turns, offsets)
		}
		env := s.must(t, "browser_screenshot", map[string]any{"selector": sel("region", "Rows")})
		var v surface.BrowserScreenshotFacts
		if err := json.Unmarshal(env.Facts, &v); err != nil {
			t.Fatal(err)
		}
		env = s.must(t, "browser_scroll", map[string]any{"view": v.View, "x": v.Width / 2, "y": v.Height / 2, "ticks": 2, "direction": "down"})
		var sc surface.BrowserScrollFacts
		if err := json.Unmarshal(env.Facts, &sc); err != nil {
			t.Fatal(err)
		}
		offsets = append(offsets, sc.ScrollY)
	}
	t.Logf("%s found after wheel turns reaching offsets %v", want, offsets)
	s.must(t, "browser_click", map[string]any{"selector": sel("button", want)})
	site.wait(t, "virtual", want+" picked", func(m map[string]any) bool { return m["picked"] == want })
}

// TestCorpusCrossOriginFrameForm: a payment form in an out-of-process frame
// (127.0.0.2) inside a page on 127.0.0.1, filled by selectors and submitted.
func TestCorpusCrossOriginFrameForm(t *testing.T) {
	site := newCorpusSite(t)
	s := startStdio(t)
	t.Cleanup(func() { s.c.Close() })
	s.must(t, "browser_navigate", map[string]any{"url": site.A + "/checkout"})
	site.wait(t, "frame", "its first state", func(map[string]any) bool { return true })
	s.must(t, "browser_wait", map[string]any{"condition": "selector_present", "selector": sel("button", "Pay now"), "timeout_ms": 10000})
	s.observe(t, "textbox", "Card holder")
	s.observe(t, "combobox", "Country")
	s.must(t, "browser_fill_form", map[string]any{
		"fields": []map[string]any{
			{"selector": sel("textbox", "Card holder"), "value": "Ada Lovelace"},
			{"selector": sel("textbox", "City"), "value": "Lyon"},
			{"selector": sel("combobox", "Country"), "value": "France"},
			{"selector": sel("checkbox", "Remember card"), "value": true},
		},
		"submit_selector": sel("button", "Pay now"),
	})
	site.wait(t, "frame", "the submitted form", func(m map[string]any) bool {
		return m["holder"] == "Ada Lovelace" && m["city"] == "Lyon" && m["country"] == "fr" && m["save"] == true && m["submitted"] == true
	})
}

// TestCorpusSortable: SortableJS list items are plain list items, not
// controls: find each end by its text and drag one onto the other.
func TestCorpusSortable(t *testing.T) {
	site, s := corpusOpen(t, "sortable")
	src := s.find(t, "Task Alpha", "Task Alpha")
	dst := s.find(t, "Task Delta", "Task Delta")
	s.must(t, "browser_drag", map[string]any{"source_target": src.target, "destination_target": dst.target})
	site.wait(t, "sortable", "Alpha dropped at Delta's place", func(m map[string]any) bool { return m["order"] == "Bravo,Charlie,Delta,Alpha,Echo" })
}

// TestCorpusDndKit: dnd-kit sortable items are buttons; drag one onto
// another by selectors.
func TestCorpusDndKit(t *testing.T) {
	site, s := corpusOpen(t, "dndkit")
	s.observe(t, "button", "Card One")
	s.must(t, "browser_drag", map[string]any{"source_selector": sel("button", "Card One"), "destination_selector": sel("button", "Card Four")})
	site.wait(t, "dndkit", "One dropped at Four's place", func(m map[string]any) bool { return m["order"] == "Two,Three,Four,One,Five" })
}
