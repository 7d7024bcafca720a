package main

// The widget corpus's tasks (conformance/corpus_test.go does the same with
// assertions), written once as steps each driver turns into its own
// server's calls, the way a model reading that server's tools would.

// act is one step of a task. Role "*" matches any role (text a model found
// rather than a control it observed).
type act struct {
	do         string // open, observe, click, select, type, typeFocused, key, appear, drag, fill, scrollUntil, waitFor
	role, name string
	text       string    // typed text; for key, the key
	repeat     int       // key presses
	to         [2]string // drag destination role, name
	fields     []field   // fill
	submit     [2]string
}

type field struct {
	role, name string
	value      any
}

// corpusTask is one task: its page, its steps, and the state the page must
// report when the task is done.
type corpusTask struct {
	name, page string
	report     string // the page whose report decides (the frame form reports as "frame")
	steps      []act
	done       func(map[string]any) bool
}

func corpusTasks() []corpusTask {
	return []corpusTask{
		{name: "react-select: search, pick", page: "react-select", steps: []act{
			{do: "observe"},
			{do: "type", role: "combobox", name: "Flavour", text: "pist"},
			{do: "appear", role: "option", name: "Pistachio"},
			{do: "select", role: "option", name: "Pistachio"},
		}, done: func(m map[string]any) bool { return m["flavour"] == "pistachio" }},
		{name: "MUI: select, switch, autocomplete, dialog", page: "mui", steps: []act{
			{do: "observe"},
			{do: "click", role: "combobox", name: "Age"},
			{do: "appear", role: "option", name: "Twenty"},
			{do: "select", role: "option", name: "Twenty"},
			{do: "click", role: "switch", name: "Notifications"},
			{do: "type", role: "combobox", name: "Movie", text: "godf"},
			{do: "appear", role: "option", name: "The Godfather"},
			{do: "select", role: "option", name: "The Godfather"},
			{do: "click", role: "button", name: "Delete account"},
			{do: "appear", role: "button", name: "Delete forever"},
			{do: "click", role: "button", name: "Delete forever"},
		}, done: func(m map[string]any) bool {
			return m["age"] == float64(20) && m["notifications"] == true && m["movie"] == "The Godfather" && m["answer"] == "confirm"
		}},
		{name: "Radix: tabs, checkbox, slider keys, menu", page: "radix", steps: []act{
			{do: "observe"},
			{do: "click", role: "tab", name: "Password"},
			{do: "click", role: "checkbox", name: "Accept terms"},
			{do: "key", role: "slider", name: "Volume", text: "ArrowRight", repeat: 5},
			{do: "click", role: "button", name: "Options"},
			{do: "appear", role: "menuitem", name: "Duplicate"},
			{do: "select", role: "menuitem", name: "Duplicate"},
		}, done: func(m map[string]any) bool {
			return m["tab"] == "password" && m["terms"] == true && m["volume"] == float64(55) && m["action"] == "duplicate"
		}},
		{name: "Headless UI: combobox", page: "headlessui", steps: []act{
			{do: "observe"},
			{do: "type", role: "combobox", name: "Assignee", text: "tom"},
			{do: "appear", role: "option", name: "Tom Cook"},
			{do: "select", role: "option", name: "Tom Cook"},
		}, done: func(m map[string]any) bool { return m["assignee"] == "Tom Cook" }},
		{name: "CodeMirror 6: type", page: "codemirror", steps: []act{
			{do: "observe"},
			{do: "type", role: "textbox", name: "Code", text: "let answer = 42;"},
		}, done: func(m map[string]any) bool { return m["doc"] == "let answer = 42;" }},
		{name: "Shoelace (shadow DOM): input, checkbox, switch, select", page: "shoelace", steps: []act{
			{do: "observe"},
			{do: "type", role: "textbox", name: "Full name", text: "Ada Lovelace"},
			{do: "click", role: "checkbox", name: "Send newsletter"},
			{do: "click", role: "switch", name: "Dark mode"},
			{do: "click", role: "combobox", name: "Shirt size"},
			{do: "appear", role: "option", name: "Medium"},
			{do: "select", role: "option", name: "Medium"},
		}, done: func(m map[string]any) bool {
			return m["size"] == "medium" && m["name"] == "Ada Lovelace" && m["news"] == true && m["dark"] == true
		}},
		{name: "TipTap: type, bold, type", page: "tiptap", steps: []act{
			{do: "observe"},
			{do: "type", role: "textbox", name: "Story", text: "Hello corpus"},
			{do: "click", role: "button", name: "Bold"},
			{do: "typeFocused", text: " loud words"},
		}, done: func(m map[string]any) bool { return m["text"] == "Hello corpus loud words" }},
		{name: "react-datepicker: open, pick a day", page: "datepicker", steps: []act{
			{do: "observe"},
			{do: "click", role: "textbox", name: "Start date"},
			{do: "appear", role: "button", name: "Next Month"},
			{do: "select", role: "cell", name: "Choose Sunday, March 15th, 2026"},
		}, done: func(m map[string]any) bool { return m["date"] == "2026-03-15" }},
		{name: "TanStack virtual: scroll to row 60, pick", page: "virtual", steps: []act{
			{do: "observe"},
			{do: "scrollUntil", role: "button", name: "Row 60"},
			{do: "click", role: "button", name: "Row 60"},
		}, done: func(m map[string]any) bool { return m["picked"] == "Row 60" }},
		{name: "Cross-origin frame form: fill, submit", page: "checkout", report: "frame", steps: []act{
			{do: "waitFor", role: "button", name: "Pay now"},
			{do: "fill", fields: []field{
				{"textbox", "Card holder", "Ada Lovelace"}, {"textbox", "City", "Lyon"},
				{"combobox", "Country", "France"}, {"checkbox", "Remember card", true}},
				submit: [2]string{"button", "Pay now"}},
		}, done: func(m map[string]any) bool {
			return m["holder"] == "Ada Lovelace" && m["city"] == "Lyon" && m["country"] == "fr" && m["save"] == true && m["submitted"] == true
		}},
		{name: "SortableJS: drag a list item", page: "sortable", steps: []act{
			{do: "observe"},
			{do: "drag", role: "*", name: "Task Alpha", to: [2]string{"*", "Task Delta"}},
		}, done: func(m map[string]any) bool { return m["order"] == "Bravo,Charlie,Delta,Alpha,Echo" }},
		{name: "dnd-kit: drag a card", page: "dndkit", steps: []act{
			{do: "observe"},
			{do: "drag", role: "button", name: "Card One", to: [2]string{"button", "Card Four"}},
		}, done: func(m map[string]any) bool { return m["order"] == "Two,Three,Four,One,Five" }},
	}
}

// scrollRowsJS scrolls the virtual list's region down by most of its
// height: what a model writes when the list has no wheel tool.
const scrollRowsJS = `document.querySelector('[aria-label="Rows"]').scrollTop += 240`
