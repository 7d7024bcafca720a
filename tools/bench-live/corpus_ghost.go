package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// ghostDriver drives Ghostlight as its tools and instructions invite:
// inspect once, then act by semantic selectors (role and name, as inspect
// lists them; an action waits for its control to appear), find for text
// that is not a control, and a composite only where one tool does the whole
// step (fill_form with its submit).
type ghostDriver struct {
	c   *client
	log *callLog
}

func (g *ghostDriver) name() string { return "Ghostlight" }

func sel(role, name string) map[string]any {
	return map[string]any{"role": role, "name": name, "exact": true}
}

func (g *ghostDriver) call(kind, tool string, args any) (reply, error) {
	b, _ := json.Marshal(args)
	r, err := g.c.call(tool, string(b))
	if err != nil {
		return r, err
	}
	g.log.add(kind, tool, r)
	if os.Getenv("BENCH_SHOW") != "" {
		fmt.Fprintf(os.Stderr, "--- %s %s\n%s\n", tool, b, r.Text)
	}
	var env struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(r.Structure, &env)
	if env.Status != "succeeded" {
		return r, fmt.Errorf("%s %s: %s: %s", tool, b, env.Status, r.Text)
	}
	return r, nil
}

func (g *ghostDriver) open(url string) error {
	_, err := g.call("open", "browser_navigate", map[string]any{"url": url})
	return err
}

// found runs browser_find and answers the target of the match named name.
func (g *ghostDriver) found(kind, text, name string) (string, error) {
	r, err := g.call(kind, "browser_find", map[string]any{"text": text})
	if err != nil {
		return "", err
	}
	ms, _ := fact(r, "matches").([]any)
	for _, m := range ms {
		m, _ := m.(map[string]any)
		if m["name"] == name {
			t, _ := m["target"].(string)
			return t, nil
		}
	}
	return "", nil
}

func (g *ghostDriver) do(a act) error {
	switch a.do {
	case "observe":
		_, err := g.call("observe", "browser_inspect", map[string]any{})
		return err
	case "click", "select":
		if a.role == "*" {
			t, err := g.found("find", a.text, a.name)
			if err != nil || t == "" {
				return fmt.Errorf("find %q: no match named %q (%v)", a.text, a.name, err)
			}
			_, err = g.call(a.do, "browser_click", map[string]any{"target": t})
			return err
		}
		_, err := g.call(a.do, "browser_click", map[string]any{"selector": sel(a.role, a.name)})
		return err
	case "type":
		_, err := g.call("type", "browser_type_text", map[string]any{"selector": sel(a.role, a.name), "text": a.text})
		return err
	case "typeFocused":
		_, err := g.call("type", "browser_type_text", map[string]any{"focused": true, "text": a.text})
		return err
	case "key":
		_, err := g.call("key", "browser_press_key", map[string]any{"selector": sel(a.role, a.name), "strokes": []string{a.text}, "repeat": a.repeat})
		return err
	case "appear", "waitFor":
		// An action by selector waits for its control to appear (the
		// server's instructions say so): no call.
		return nil
	case "drag":
		args := map[string]any{}
		for i, end := range [][2]string{{a.role, a.name}, a.to} {
			side := [...]string{"source", "destination"}[i]
			if end[0] != "*" {
				args[side+"_selector"] = sel(end[0], end[1])
				continue
			}
			t, err := g.found("find", end[1], end[1])
			if err != nil || t == "" {
				return fmt.Errorf("find %q: no match (%v)", end[1], err)
			}
			args[side+"_target"] = t
		}
		_, err := g.call("drag", "browser_drag", args)
		return err
	case "fill":
		var fs []map[string]any
		for _, f := range a.fields {
			fs = append(fs, map[string]any{"selector": sel(f.role, f.name), "value": f.value})
		}
		_, err := g.call("fill", "browser_fill_form", map[string]any{"fields": fs, "submit_selector": sel(a.submit[0], a.submit[1])})
		return err
	case "scrollUntil":
		for turn := 0; turn < 40; turn++ {
			t, err := g.found("find", a.name, a.name)
			if err != nil {
				return err
			}
			if t != "" {
				return nil
			}
			if _, err := g.call("scroll", "browser_execute", map[string]any{"script": scrollRowsJS}); err != nil {
				return err
			}
		}
		return fmt.Errorf("%s never appeared", a.name)
	}
	return fmt.Errorf("unknown step %q", a.do)
}

// callLog keeps every call's bytes for the table.
type callLog struct {
	calls []loggedCall
}

type loggedCall struct {
	kind, tool       string
	text, structured int
}

func (l *callLog) add(kind, tool string, r reply) {
	l.calls = append(l.calls, loggedCall{kind: kind, tool: tool, text: r.TextBytes, structured: len(r.Structure)})
}

func (l *callLog) reset() { l.calls = nil }
