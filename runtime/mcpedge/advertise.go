package mcpedge

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Advertising (Options.Advertise). A session's tools/list names the tools
// the authority lets it call some way, as decided when the session starts.
// Within a session the list only grows: a policy that later allows more
// adds tools and sends notifications/tools/list_changed; one that allows
// less removes nothing, since a tool a model already saw must not vanish
// under it, and every call is checked when it runs anyway. Listed tools are
// served byte for byte as ever: the filter drops tools, never rewrites one.

// callingKey marks a tools/call over HTTP (stdio calls carry admissionKey):
// mcp-go runs its tool filters on calls too, and a call to a tool the list
// leaves out must still reach the pipeline, which refuses it with an
// envelope and an audit line rather than a bare "tool not found".
type callingKey struct{}

type advertiser struct {
	allowed func() func(tool string) bool
	tools   []string // every registered tool

	mu       sync.Mutex
	sessions map[string]map[string]bool // session → tools its list names
}

func newAdvertiser(allowed func() func(string) bool, tools []mcp.Tool) *advertiser {
	if allowed == nil {
		return nil
	}
	a := &advertiser{allowed: allowed, sessions: map[string]map[string]bool{}}
	for _, t := range tools {
		a.tools = append(a.tools, t.Name)
	}
	return a
}

// now is the set the authority in force advertises.
func (a *advertiser) now() map[string]bool {
	ok := a.allowed()
	set := make(map[string]bool, len(a.tools))
	for _, name := range a.tools {
		if ok == nil || ok(name) {
			set[name] = true
		}
	}
	return set
}

// start fixes a new session's list.
func (a *advertiser) start(session string) {
	set := a.now()
	a.mu.Lock()
	a.sessions[session] = set
	a.mu.Unlock()
}

func (a *advertiser) end(session string) {
	a.mu.Lock()
	delete(a.sessions, session)
	a.mu.Unlock()
}

// grow adds to every session's list what the authority now allows and
// returns the sessions whose list grew.
func (a *advertiser) grow() []string {
	set := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	var grew []string
	for id, shown := range a.sessions {
		added := false
		for name := range set {
			if !shown[name] {
				shown[name] = true
				added = true
			}
		}
		if added {
			grew = append(grew, id)
		}
	}
	return grew
}

// listed is the set session's list names; a session the edge never saw
// start is judged by the authority in force.
func (a *advertiser) listed(session string) map[string]bool {
	a.mu.Lock()
	shown := a.sessions[session]
	out := make(map[string]bool, len(shown))
	for k, v := range shown {
		out[k] = v
	}
	a.mu.Unlock()
	if shown == nil {
		return a.now()
	}
	return out
}

// filter is the mcp-go tool filter: tools/list keeps the session's tools;
// a tools/call passes whatever it names.
func (e *Edge) filter(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	if ctx.Value(admissionKey{}) != nil || ctx.Value(callingKey{}) != nil {
		return tools
	}
	session := sessionID(ctx)
	// A list is a moment to learn that the policy allows more: this list
	// shows it, and the session's other streams hear list_changed.
	e.announce(ctx, e.adv.grow(), session)
	shown := e.adv.listed(session)
	out := make([]mcp.Tool, 0, len(tools))
	for _, t := range tools {
		if shown[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// refreshTools runs after every call (the call re-read a changed policy):
// sessions whose list grew are told.
func (e *Edge) refreshTools(ctx context.Context) {
	if e.adv != nil {
		e.announce(ctx, e.adv.grow(), "")
	}
}

// announce sends notifications/tools/list_changed to each session, except
// skip (the session being answered a list that already shows the change).
// The calling session hears it on its call's own stream when the transport
// has one (HTTP), ahead of the answer; other sessions through mcp-go.
func (e *Edge) announce(ctx context.Context, sessions []string, skip string) {
	method := string(mcp.MethodNotificationToolsListChanged)
	current := sessionID(ctx)
	for _, id := range sessions {
		if id == skip {
			continue
		}
		var err error
		if own, ok := withholderFrom(ctx).(notifier); ok && id == current {
			err = own.notify(ctx, method, nil)
		} else {
			err = e.srv.SendNotificationToSpecificClient(id, method, nil)
		}
		if err != nil {
			e.log.Debug("mcpedge: tools list_changed not sent", "err", err)
		}
	}
}

// registerAdvertising fixes each session's list when it starts.
func (e *Edge) registerAdvertising(hooks *server.Hooks) {
	if e.adv == nil {
		return
	}
	hooks.AddOnRegisterSession(func(_ context.Context, s server.ClientSession) {
		e.adv.start(s.SessionID())
	})
}
