package conformance

import (
	"testing"
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
	s.observe(t, "option", "Pistachio")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "Pistachio")})
	site.wait(t, "react-select", "flavour pistachio", func(m map[string]any) bool { return m["flavour"] == "pistachio" })
}

// TestCorpusMUI: a Select (open, pick an option), a Switch, an Autocomplete
// (type, pick) and a Dialog (open, confirm).
func TestCorpusMUI(t *testing.T) {
	site, s := corpusOpen(t, "mui")
	s.observe(t, "combobox", "Age")
	s.must(t, "browser_click", map[string]any{"selector": sel("combobox", "Age")})
	s.observe(t, "option", "Twenty")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "Twenty")})
	site.wait(t, "mui", "age 20", func(m map[string]any) bool { return m["age"] == float64(20) })

	s.observe(t, "switch", "Notifications")
	s.must(t, "browser_click", map[string]any{"selector": sel("switch", "Notifications")})
	site.wait(t, "mui", "notifications on", func(m map[string]any) bool { return m["notifications"] == true })

	s.observe(t, "combobox", "Movie")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("combobox", "Movie"), "text": "godf"})
	s.observe(t, "option", "The Godfather")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "The Godfather")})
	site.wait(t, "mui", "movie The Godfather", func(m map[string]any) bool { return m["movie"] == "The Godfather" })

	s.must(t, "browser_click", map[string]any{"selector": sel("button", "Delete account")})
	site.wait(t, "mui", "the dialog open", func(m map[string]any) bool { return m["dialogOpen"] == true })
	s.observe(t, "button", "Delete forever")
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
	s.observe(t, "menuitem", "Duplicate")
	s.must(t, "browser_click", map[string]any{"selector": sel("menuitem", "Duplicate")})
	site.wait(t, "radix", "action duplicate", func(m map[string]any) bool { return m["action"] == "duplicate" })
}

// TestCorpusHeadlessUI: type into a Headless UI combobox, pick the option.
func TestCorpusHeadlessUI(t *testing.T) {
	site, s := corpusOpen(t, "headlessui")
	s.observe(t, "combobox", "Assignee")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("combobox", "Assignee"), "text": "tom"})
	s.observe(t, "option", "Tom Cook")
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
// root: an input, a select, a checkbox and a switch.
func TestCorpusShoelace(t *testing.T) {
	site, s := corpusOpen(t, "shoelace")
	s.observe(t, "textbox", "Full name")
	s.must(t, "browser_type_text", map[string]any{"selector": sel("textbox", "Full name"), "text": "Ada Lovelace"})
	site.wait(t, "shoelace", "the name", func(m map[string]any) bool { return m["name"] == "Ada Lovelace" })

	s.observe(t, "combobox", "Shirt size")
	s.must(t, "browser_click", map[string]any{"selector": sel("combobox", "Shirt size")})
	s.observe(t, "option", "Medium")
	s.must(t, "browser_click", map[string]any{"selector": sel("option", "Medium")})
	site.wait(t, "shoelace", "size medium", func(m map[string]any) bool { return m["size"] == "medium" })

	s.observe(t, "checkbox", "Send newsletter")
	s.must(t, "browser_click", map[string]any{"selector": sel("checkbox", "Send newsletter")})
	site.wait(t, "shoelace", "newsletter on", func(m map[string]any) bool { return m["news"] == true })

	s.observe(t, "switch", "Dark mode")
	s.must(t, "browser_click", map[string]any{"selector": sel("switch", "Dark mode")})
	site.wait(t, "shoelace", "dark mode on", func(m map[string]any) bool { return m["dark"] == true })
}
