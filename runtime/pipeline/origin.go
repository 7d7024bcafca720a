package pipeline

// The origin guard's place on the one invocation path (issue 26): every
// result's page-derived text is fingerprinted under its site as the result
// is authored (finish), and every value a call asks to write is checked
// before it reaches the page: a navigation's URL here, before dispatch, and
// a write on a tab when the handler admits the tab's page (AdmitPage, from
// runtime/tools' admitPage), the moment the target site is known.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/origin"
)

// originLimits are the store's bounds, from spec/bounds_dataflow.cue.
var originLimits = origin.Limits{
	MinChars: surface.DataFlowMinCharsMax,
	Entries:  surface.DataFlowEntriesMax,
	Bytes:    surface.DataFlowBytesMax,
	Age:      time.Duration(surface.DataFlowAgeMsMax) * time.Millisecond,
	KeyChars: surface.DataFlowKeyCharsMax,
}

// origins holds each session's store.
type origins struct {
	mu sync.Mutex
	m  map[string]*origin.Store
}

func (p *Pipeline) originsOf(session string) *origin.Store {
	if session == "" {
		return nil
	}
	p.origins.mu.Lock()
	defer p.origins.mu.Unlock()
	if p.origins.m == nil {
		p.origins.m = map[string]*origin.Store{}
	}
	s := p.origins.m[session]
	if s == nil {
		s = origin.NewStore(originLimits)
		p.origins.m[session] = s
	}
	return s
}

// SessionClosed forgets what the session's results said.
func (p *Pipeline) SessionClosed(session string) {
	p.origins.mu.Lock()
	delete(p.origins.m, session)
	p.origins.mu.Unlock()
	p.approvals.end(session)
}

// siteOf is a URL's site with its host canonical as governance spells it.
func siteOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	h, err := governance.CanonicalHost(u.Hostname())
	if err != nil {
		return ""
	}
	return origin.SiteOfHost(strings.ToLower(u.Scheme), h)
}

// remember fingerprints the strings of a result under their sites: the
// nearest enclosing object's "url" decides a string's site, else the page
// the call acted on; a string that is itself a URL belongs to the site it
// names (a link to B read on A is B's address, and following it is no
// flow).
func (p *Pipeline) remember(inv *Invocation, facts json.RawMessage, summary string) {
	st := p.originsOf(inv.Session)
	if st == nil {
		return
	}
	page := inv.pageSite()
	texts := map[string][]string{}
	if page != "" && summary != "" {
		texts[page] = append(texts[page], summary)
	}
	var v any
	if len(facts) > 2 && json.Unmarshal(facts, &v) == nil {
		walkStrings(v, page, texts)
	}
	now := time.Now()
	for site, ts := range texts {
		st.Record(site, now, ts...)
	}
}

func walkStrings(v any, site string, into map[string][]string) {
	switch x := v.(type) {
	case map[string]any:
		if u, ok := x["url"].(string); ok {
			if s := siteOf(u); s != "" {
				site = s
			}
		}
		for _, e := range x {
			walkStrings(e, site, into)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, site, into)
		}
	case string:
		if len(x) < originLimits.MinChars {
			return
		}
		if strings.Contains(x, "://") {
			if s := siteOf(x); s != "" {
				into[s] = append(into[s], x)
				return
			}
		}
		if site != "" {
			into[site] = append(into[site], x)
		}
	}
}

// pageSite is the site of the first page the call acted on ("" none).
func (inv *Invocation) pageSite() string {
	inv.touchedMu.Lock()
	defer inv.touchedMu.Unlock()
	return inv.page
}

// writeValues are the values a call asks to write, as the model sent them
// (flow_ref substitutions included: a flow's steps arrive resolved).
func (p *Pipeline) writeValues(inv *Invocation, args surface.Args) []string {
	switch a := args.(type) {
	case *surface.BrowserTypeTextArgs:
		return []string{a.Text}
	case *surface.BrowserFillFormArgs:
		var out []string
		for _, f := range a.Fields {
			if f != nil && f.Value.Kind == surface.ScalarString {
				out = append(out, f.Value.String)
			}
		}
		return out
	case *surface.BrowserPressKeyArgs:
		strokes := printable(a)
		if strokes == "" {
			return nil
		}
		st := p.originsOf(inv.Session)
		if st == nil {
			return nil
		}
		return []string{st.Keys(keyTarget(a), strokes)}
	case *surface.BrowserExecuteArgs:
		return stringLiterals(a.Script)
	case *surface.BrowserUploadArgs:
		var out []string
		for _, f := range a.Files {
			if f == nil {
				continue
			}
			out = append(out, f.Name)
			if b, err := base64.StdEncoding.DecodeString(f.DataBase64); err == nil {
				out = append(out, string(b))
			}
		}
		return out
	}
	return nil
}

// printable is the text a key call types: single characters, repeated,
// with no modifier but Shift.
func printable(a *surface.BrowserPressKeyArgs) string {
	for _, m := range a.Modifiers {
		if m != "Shift" {
			return ""
		}
	}
	keys := a.Strokes
	if a.Key != "" {
		keys = []string{a.Key}
	}
	var b strings.Builder
	n := max(a.Repeat, 1)
	for i := 0; i < n; i++ {
		for _, k := range keys {
			switch {
			case k == "Space":
				b.WriteByte(' ')
			case len([]rune(k)) == 1:
				b.WriteString(k)
			}
		}
	}
	return b.String()
}

// keyTarget names where strokes land, so strokes into one control
// accumulate apart from another's.
func keyTarget(a *surface.BrowserPressKeyArgs) string {
	switch {
	case a.Target != "":
		return a.Tab + "/" + a.Target
	case a.Selector != nil:
		return a.Tab + "/" + a.Selector.Role + ":" + a.Selector.Name
	}
	return a.Tab + "/focus"
}

// navigationValue is the part of a URL a navigation carries to its site:
// the decoded path and query.
func navigationValue(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	q, err := url.QueryUnescape(u.RawQuery)
	if err != nil {
		q = u.RawQuery
	}
	return u.Path + " " + q + " " + u.Fragment
}

// checkFlow decides the call's write values against the site they go to:
// nil to proceed (a logged or confirmed flow is carried as a fact and
// audited), or the refusal of a denied one, or of one waiting for the
// person. canAsk says the call has a page the person can be asked on (a
// navigation has none). Each target site is decided once per call.
func (p *Pipeline) checkFlow(inv *Invocation, to string, values []string, canAsk bool) *surface.Refusal {
	if to == "" || len(values) == 0 {
		return nil
	}
	st := p.originsOf(inv.Session)
	if st == nil {
		return nil
	}
	inv.flowMu.Lock()
	defer inv.flowMu.Unlock()
	if r, done := inv.flowDone[to]; done {
		return r
	}
	if inv.flowDone == nil {
		inv.flowDone = map[string]*surface.Refusal{}
	}
	now := time.Now()
	var best origin.Flow
	for _, v := range values {
		if f, ok := st.Match(to, now, v); ok && f.Chars > best.Chars {
			best = f
		}
	}
	for _, v := range values {
		st.Own(now, v)
	}
	var r *surface.Refusal
	if best.Chars > 0 {
		d, layer := inv.Authority.DataFlow(best.From, to)
		fact := surface.DataFlow{From: best.From, To: to, Chars: best.Chars, Decision: d, Layer: layer}
		proceed := d == governance.FlowLog
		switch d {
		case governance.FlowConfirm:
			key := approvalKey(inv, best.From, to)
			switch {
			case !canAsk:
				fact.Decision = governance.FlowDeny
				r = governance.DataFlowRefusal(fact)
				r.Message = "the " + layer + " layer asks the user to allow each write carrying text from " + best.From + " to " + to + ", and a navigation has no page to ask on"
			case p.approvals.take(inv.Session, key):
				fact.Decision = surface.DataFlowDecisionConfirmed
				proceed = true
			default:
				r = governance.DataFlowConfirmation(fact)
				session := inv.Session
				inv.approve = func() { p.approvals.grant(session, key) }
			}
		case governance.FlowDeny:
			r = governance.DataFlowRefusal(fact)
		}
		if d != governance.FlowAllow {
			inv.flow = &fact
		}
		if proceed {
			inv.Carry(func(cr *surface.Refusal) {
				if cr.DataFlow == nil {
					f := fact
					cr.DataFlow = &f
				}
			})
		}
	}
	inv.flowDone[to] = r
	return r
}

// approvals are the writes the person allowed, per session: each lets the
// model's repeat of that very call (same tool, same arguments, same two
// sites) run once.
type approvals struct {
	mu sync.Mutex
	m  map[string]map[uint64]bool
}

func (a *approvals) grant(session string, key uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string]map[uint64]bool{}
	}
	if a.m[session] == nil {
		a.m[session] = map[uint64]bool{}
	}
	a.m[session][key] = true
}

func (a *approvals) take(session string, key uint64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.m[session][key] {
		return false
	}
	delete(a.m[session], key)
	return true
}

func (a *approvals) end(session string) {
	a.mu.Lock()
	delete(a.m, session)
	a.mu.Unlock()
}

func approvalKey(inv *Invocation, from, to string) uint64 {
	h := fnv.New64a()
	b, _ := json.Marshal(inv.args)
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", inv.Tool, from, to)
	h.Write(b)
	return h.Sum64()
}

// FlowApproval is how the person allows the write this call was stopped
// for (data_flow_confirm): calling it lets the model's repeat of the call
// run once. nil when the call is waiting on no one.
func (inv *Invocation) FlowApproval() func() {
	if inv == nil {
		return nil
	}
	inv.flowMu.Lock()
	defer inv.flowMu.Unlock()
	return inv.approve
}

// AdmitPage is the check of a call on the page at pageURL, once the
// page's host is admitted (runtime/tools' admitPage calls it): the site
// rules for the capabilities the call needs (governance/sites.go), then
// what it writes against the page's site (the origin guard).
func (inv *Invocation) AdmitPage(pageURL string) *surface.Refusal {
	if inv == nil || inv.p == nil || inv.args == nil {
		return nil
	}
	if r := inv.Authority.AdmitSite(pageURL, inv.args.Needs().Caps); r != nil {
		return r
	}
	return inv.p.checkFlow(inv, siteOf(pageURL), inv.p.writeValuesOnce(inv), true)
}

func (p *Pipeline) writeValuesOnce(inv *Invocation) []string {
	inv.valuesOnce.Do(func() { inv.values = p.writeValues(inv, inv.args) })
	return inv.values
}
