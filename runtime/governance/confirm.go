package governance

import (
	"sort"
	"strings"
	"unicode"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Consequential actions (policy `confirm`, top level and per site): a
// click or key on a control whose accessible name holds a listed action's
// words, a form submission to a listed host, a download. Each such action
// waits for the person (action_confirm) before anything is dispatched.
// Every layer's confirmations apply, a site entry's on its pages only:
// lists are narrow=adds and the booleans order true before false, so a
// lower layer adds confirmations and never removes one.

// ConfirmAction is one confirm.actions entry, parsed: "NAME" or
// "ROLE: NAME".
type ConfirmAction struct {
	Role  string   // "" any role
	Words []string // NAME's words, lower case
	As    string   // as written
}

// ParseConfirmAction reads "place order" or "button: place order". A
// prefix before ": " that is not one of the contract's roles is part of the
// name.
func ParseConfirmAction(s string) ConfirmAction {
	c := ConfirmAction{As: s}
	name := s
	if r, n, ok := strings.Cut(s, ":"); ok && isRole(strings.TrimSpace(r)) {
		c.Role, name = strings.ToLower(strings.TrimSpace(r)), n
	}
	c.Words = words(name)
	return c
}

func isRole(s string) bool {
	for _, r := range surface.RoleValues {
		if strings.EqualFold(string(r), s) {
			return true
		}
	}
	return false
}

// words splits a name into lower-case runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Matches: the control's name holds the action's words consecutively as
// whole words (case-insensitive), and its role is the action's when one is
// named. Pure.
func (c ConfirmAction) Matches(role, name string) bool {
	return c.matchWords(role, words(name))
}

// matchWords is Matches on a name already split by words.
func (c ConfirmAction) matchWords(role string, w []string) bool {
	if len(c.Words) == 0 || c.Role != "" && !strings.EqualFold(c.Role, role) {
		return false
	}
	for i := 0; i+len(c.Words) <= len(w); i++ {
		ok := true
		for j, x := range c.Words {
			if w[i+j] != x {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// confirmRule is one layer's confirm, or one site entry's.
type confirmRule struct {
	layer     string
	monitor   bool
	site      *hostPat // nil: every page
	siteAs    string
	actions   []ConfirmAction
	submitTo  []hostPat
	downloads bool
}

// compileConfirm reads a confirm section (nil when it sets nothing).
func compileConfirm(actions, submitTo []string, downloads, defaults *bool) *confirmRule {
	r := &confirmRule{}
	for _, a := range actions {
		r.actions = append(r.actions, ParseConfirmAction(a))
	}
	if defaults != nil && *defaults {
		for _, a := range surface.ConfirmDefaultActions {
			r.actions = append(r.actions, ParseConfirmAction(a))
		}
	}
	for _, s := range submitTo {
		if p, err := parsePattern(s); err == nil {
			r.submitTo = append(r.submitTo, p)
		}
	}
	r.downloads = downloads != nil && *downloads
	if len(r.actions) == 0 && len(r.submitTo) == 0 && !r.downloads {
		return nil
	}
	return r
}

// confirmRules compiles every layer's confirm and its site entries'.
func confirmRules(l Layer) []confirmRule {
	var out []confirmRule
	if l.policy == nil {
		return nil
	}
	if c := l.policy.Confirm; c != nil {
		if r := compileConfirm(c.Actions, c.SubmitTo, c.Downloads, c.Defaults); r != nil {
			r.layer, r.monitor = l.Name, l.Monitor
			out = append(out, *r)
		}
	}
	keys := make([]string, 0, len(l.policy.Sites))
	for k := range l.policy.Sites {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := l.policy.Sites[k]
		if e == nil || e.Confirm == nil {
			continue
		}
		pat, err := parsePattern(k)
		if err != nil {
			continue
		}
		c := e.Confirm
		if r := compileConfirm(c.Actions, c.SubmitTo, c.Downloads, c.Defaults); r != nil {
			r.layer, r.monitor, r.site, r.siteAs = l.Name, l.Monitor, &pat, pat.String()
			out = append(out, *r)
		}
	}
	return out
}

// urlHost is a URL's canonical host and port (ok false: no http(s) host).
func urlHost(raw string) (chost, string, bool) {
	scheme, authority := urlAuthority(raw)
	if scheme != "http" && scheme != "https" || authority == "" {
		return chost{}, "", false
	}
	h, port, err := splitHostPort(authority)
	if err != nil {
		return chost{}, "", false
	}
	c, err := canonicalHost(h)
	if err != nil {
		return chost{}, "", false
	}
	return c, port, true
}

// applies: the rule holds on the page at pageURL.
func (r confirmRule) applies(c chost, port string, ok bool) bool {
	return r.site == nil || ok && r.site.matches(c, port, false)
}

// Confirmation is what a call must wait for, or nil. A monitor-mode
// layer's match is noted on the call's watch instead (would_deny).
func (a *Authority) confirmation(pageURL string, match func(r confirmRule) string) *surface.Refusal {
	if a == nil {
		return nil
	}
	host := ""
	c, port, ok := urlHost(pageURL)
	if ok {
		host = c.name
	}
	for _, l := range a.layers {
		for _, r := range l.confirms {
			if !r.applies(c, port, ok) {
				continue
			}
			what := match(r)
			if what == "" {
				continue
			}
			where := ""
			if r.site != nil {
				where = " on pages of " + r.siteAs
			}
			ref := &surface.Refusal{Reason: surface.ReasonActionConfirm, Layer: l.Name, Host: host,
				Message: what + " waits for the user (the " + l.Name + " layer's confirm" + where + ")"}
			if ref = a.refuse(l, ref); ref != nil {
				return ref
			}
		}
	}
	return nil
}

// ConfirmAction is the wait for an action on a control of role and
// accessible name on the page at pageURL (nil: it runs).
func (a *Authority) ConfirmAction(pageURL, role, name string) *surface.Refusal {
	if !a.HasConfirmations() {
		return nil
	}
	w := words(name)
	return a.confirmation(pageURL, func(r confirmRule) string {
		for _, c := range r.actions {
			if c.matchWords(role, w) {
				return "an action on a control named like \"" + c.As + "\""
			}
		}
		return ""
	})
}

// ConfirmSubmit is the wait for a form on the page at pageURL submitted
// to actionURL.
func (a *Authority) ConfirmSubmit(pageURL, actionURL string) *surface.Refusal {
	c, port, ok := urlHost(actionURL)
	if !ok {
		return nil
	}
	return a.confirmation(pageURL, func(r confirmRule) string {
		for _, p := range r.submitTo {
			if p.matches(c, port, false) {
				return "a form submission to " + c.name
			}
		}
		return ""
	})
}

// ConfirmDownload is the wait for a download started on the page at
// pageURL.
func (a *Authority) ConfirmDownload(pageURL string) *surface.Refusal {
	return a.confirmation(pageURL, func(r confirmRule) string {
		if r.downloads {
			return "a download"
		}
		return ""
	})
}

// HasConfirmations: some layer (monitored or not) names a confirmation,
// so an action's target is worth describing.
func (a *Authority) HasConfirmations() bool {
	if a == nil {
		return false
	}
	for _, l := range a.layers {
		if len(l.confirms) > 0 {
			return true
		}
	}
	return false
}

// ConfirmsDownloads is ConfirmDownload without a monitor layer's note (a
// call holds downloads before it knows whether it starts one): the wait a
// download on the page at pageURL would get, or nil.
func (a *Authority) ConfirmsDownloads(pageURL string) *surface.Refusal {
	if a == nil {
		return nil
	}
	quiet := *a
	quiet.watch = nil
	return quiet.ConfirmDownload(pageURL)
}

// Confirmations lists the confirmations in force, for policy_explain:
// "WHAT (layer)", a site entry's as "WHAT on PATTERN (layer)".
func (a *Authority) Confirmations() []string {
	var out []string
	for _, l := range a.layers {
		if l.Monitor {
			continue
		}
		for _, r := range l.confirms {
			where := ""
			if r.site != nil {
				where = " on " + r.siteAs
			}
			for _, c := range r.actions {
				out = append(out, "action \""+c.As+"\""+where+" ("+l.Name+")")
			}
			for _, p := range r.submitTo {
				out = append(out, "submission to "+p.String()+where+" ("+l.Name+")")
			}
			if r.downloads {
				out = append(out, "downloads"+where+" ("+l.Name+")")
			}
		}
	}
	return out
}
