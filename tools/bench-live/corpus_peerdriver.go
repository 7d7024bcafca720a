package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// peerDriver drives chrome-devtools-mcp as its tools invite: take a
// snapshot, act on an element by the uid the snapshot gave it, take a new
// snapshot when the element is not in the last one (it appeared later) or
// the server says the uid is stale, wait_for text the action brings up.
type peerDriver struct {
	c    *client
	log  *callLog
	snap string // the last snapshot's text
}

func (p *peerDriver) name() string { return "chrome-devtools-mcp" }

func (p *peerDriver) call(kind, tool string, args map[string]any) (reply, error) {
	if tool != "list_pages" {
		args["pageId"] = 1
	}
	b, _ := json.Marshal(args)
	r, err := p.c.call(tool, string(b))
	if err != nil {
		return r, err
	}
	p.log.add(kind, tool, r)
	if os.Getenv("BENCH_SHOW") != "" {
		fmt.Fprintf(os.Stderr, "--- %s %s\n%s\n", tool, b, r.Text)
	}
	if r.IsError {
		return r, fmt.Errorf("%s %s: %s", tool, b, r.Text)
	}
	if tool == "take_snapshot" || args["includeSnapshot"] == true {
		p.snap = r.Text
	}
	return r, nil
}

func (p *peerDriver) open(url string) error {
	p.snap = ""
	_, err := p.call("open", "navigate_page", map[string]any{"type": "url", "url": url})
	return err
}

// ariaOf maps Ghostlight's role nouns to the ARIA roles the peer's
// snapshot shows, where they differ.
var ariaOf = map[string]string{"cell": "gridcell"}

// uidIn finds the element with this role and name in a snapshot's text.
func uidIn(snap, role, name string) string {
	if aria, ok := ariaOf[role]; ok {
		role = aria
	}
	r := regexp.QuoteMeta(role) + " "
	if role == "*" {
		r = `(?:[a-zA-Z]+ )?`
	}
	// Names match whatever their case: the peer's snapshot gives rendered
	// text (MUI's "DELETE ACCOUNT"), and a model reads past that.
	re := regexp.MustCompile(`uid=(\S+) ` + r + `(?i:` + regexp.QuoteMeta(fmt.Sprintf("%q", name)) + `)`)
	if m := re.FindStringSubmatch(snap); m != nil {
		return m[1]
	}
	return ""
}

// uid answers the element's uid, taking a new snapshot when the last one
// does not list it.
func (p *peerDriver) uid(role, name string) (string, error) {
	if u := uidIn(p.snap, role, name); u != "" {
		return u, nil
	}
	if _, err := p.call("observe", "take_snapshot", map[string]any{}); err != nil {
		return "", err
	}
	if u := uidIn(p.snap, role, name); u != "" {
		return u, nil
	}
	// Still not there: wait for its name to show, as a model would, and
	// look once more.
	if _, err := p.call("wait", "wait_for", map[string]any{"text": []string{name}, "timeout": 10000}); err != nil {
		return "", err
	}
	if _, err := p.call("observe", "take_snapshot", map[string]any{}); err != nil {
		return "", err
	}
	if u := uidIn(p.snap, role, name); u != "" {
		return u, nil
	}
	return "", fmt.Errorf("the snapshot lists no %s %q", role, name)
}

// onUID runs a tool on an element, once more after a fresh snapshot when
// the server refuses the uid (a model's retry).
func (p *peerDriver) onUID(kind, tool, role, name string, args map[string]any) error {
	u, err := p.uid(role, name)
	if err != nil {
		return err
	}
	args["uid"] = u
	if _, err = p.call(kind, tool, args); err == nil {
		return nil
	}
	p.snap = ""
	if u, err = p.uid(role, name); err != nil {
		return err
	}
	args["uid"] = u
	_, err = p.call(kind, tool, args)
	return err
}

func (p *peerDriver) do(a act) error {
	switch a.do {
	case "observe":
		_, err := p.call("observe", "take_snapshot", map[string]any{})
		return err
	case "click", "select":
		return p.onUID(a.do, "click", a.role, a.name, map[string]any{})
	case "type":
		return p.onUID("type", "fill", a.role, a.name, map[string]any{"value": a.text})
	case "typeFocused":
		_, err := p.call("type", "type_text", map[string]any{"text": a.text})
		return err
	case "key":
		// The peer's keys go to the focused element: focus the slider's
		// thumb first (a click on it keeps its value), then press.
		if err := p.onUID("click", "click", a.role, a.name, map[string]any{}); err != nil {
			return err
		}
		for i := 0; i < max(a.repeat, 1); i++ {
			if _, err := p.call("key", "press_key", map[string]any{"key": a.text}); err != nil {
				return err
			}
		}
		return nil
	case "appear", "waitFor":
		if _, err := p.call("wait", "wait_for", map[string]any{"text": []string{a.name}, "timeout": 10000}); err != nil {
			return err
		}
		_, err := p.call("observe", "take_snapshot", map[string]any{})
		return err
	case "drag":
		from, err := p.uid(a.role, a.name)
		if err != nil {
			return err
		}
		to, err := p.uid(a.to[0], a.to[1])
		if err != nil {
			return err
		}
		_, err = p.call("drag", "drag", map[string]any{"from_uid": from, "to_uid": to})
		return err
	case "fill":
		var es []map[string]any
		for _, f := range a.fields {
			u, err := p.uid(f.role, f.name)
			if err != nil {
				return err
			}
			v := fmt.Sprint(f.value)
			es = append(es, map[string]any{"uid": u, "value": v})
		}
		if _, err := p.call("fill", "fill_form", map[string]any{"elements": es}); err != nil {
			return err
		}
		return p.onUID("click", "click", a.submit[0], a.submit[1], map[string]any{})
	case "scrollUntil":
		for turn := 0; turn < 40; turn++ {
			if strings.Contains(p.snap, fmt.Sprintf("%s %q", a.role, a.name)) {
				return nil
			}
			if _, err := p.call("scroll", "evaluate_script", map[string]any{"function": "() => { " + scrollRowsJS + " }"}); err != nil {
				return err
			}
			if _, err := p.call("observe", "take_snapshot", map[string]any{}); err != nil {
				return err
			}
		}
		return fmt.Errorf("%s never appeared", a.name)
	}
	return fmt.Errorf("unknown step %q", a.do)
}
