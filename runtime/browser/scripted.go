package browser

// Sites the model's own script ran on. A script the model runs
// (browser_execute) may leave something behind that outlives its call: a
// listener on the document, a service worker, a value in storage for a
// later script to read. A secret the person types on such a site could
// reach the model through it, whatever Ghostlight refuses afterwards. So
// the executor remembers, per browser context (whose storage and workers
// that script could touch), the origins the model's script ran on; the
// person's keys never reach a credential field of one of them until the
// person clears the site (its storage, workers and cookies) and the page
// reloads without the script.

import (
	"context"
	"net/url"
	"sync"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// scriptedSites is every context's set of scripted origins. A context's
// key is "" for the browser's default context (shared isolation, which the
// person's own tabs share) and the workspace's id for its own context.
type scriptedSites struct {
	mu sync.Mutex
	m  map[string]*siteSet
}

// siteSet is one context's origins; all is set once more origins were
// scripted than a context remembers (limits.ScriptedSitesKeptMax): from
// then on every origin counts as scripted, since forgetting one would let
// the person type where the model's script may listen.
type siteSet struct {
	origins map[string]bool
	all     bool
}

func (s *scriptedSites) note(key, origin string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]*siteSet{}
	}
	set := s.m[key]
	if set == nil {
		set = &siteSet{origins: map[string]bool{}}
		s.m[key] = set
	}
	if set.all || set.origins[origin] {
		return
	}
	if len(set.origins) >= limits.ScriptedSitesKeptMax {
		set.all, set.origins = true, nil
		return
	}
	set.origins[origin] = true
}

func (s *scriptedSites) has(key, origin string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.m[key]
	return set != nil && (set.all || set.origins[origin])
}

// clear forgets origin once the person cleared it. A context past its
// bound stays all-scripted: its other origins were not cleared.
func (s *scriptedSites) clear(key, origin string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if set := s.m[key]; set != nil && !set.all {
		delete(set.origins, origin)
	}
}

// forget drops a context's set when its context is disposed.
func (s *scriptedSites) forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
}

// siteKey is the key of the context the workspace's tabs live in.
func (ws *Workspace) siteKey() string {
	if !ws.isolated() {
		return ""
	}
	return ws.id
}

// originOf is a URL's origin (scheme://host[:port]), "" for one that has
// none a script could persist anything under (about:blank, data:).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// NoteModelScript records that the model's script is about to run on the
// tab's current document: its origin counts as scripted in the tab's
// context from now on. Call it before the script is sent (a script that
// times out or throws may have run in part).
func (t *Tab) NoteModelScript() {
	if o := originOf(t.URL()); o != "" {
		t.ws.b.scripted.note(t.ws.siteKey(), o)
	}
}

// ModelScripted reports whether the model's script ran on the tab's
// current origin in its context (and the person has not cleared it since).
func (t *Tab) ModelScripted() bool {
	o := originOf(t.URL())
	return o != "" && t.ws.b.scripted.has(t.ws.siteKey(), o)
}

// ClearSite is the person's remedy on a scripted site: it clears the tab's
// origin's data in its context (storage, service workers, caches and
// cookies: whatever the model's script could have left), reloads the tab
// so no listener it added survives, and forgets the origin as scripted.
func (t *Tab) ClearSite(ctx context.Context) error {
	o := originOf(t.URL())
	if o == "" {
		return nil
	}
	page := t.Page()
	if page == nil {
		return &Error{Kind: KindClosed, Op: "clear site"}
	}
	// On the page's own session the browser clears the page's storage
	// partition, its context's (measured: TestClearSiteForgetsWhatTheScriptLeft).
	if err := (proto.StorageClearDataForOrigin{Origin: o, StorageTypes: "all"}).Call(page.Context(ctx)); err != nil {
		return err
	}
	if _, err := t.History(ctx, "reload", true); err != nil {
		return err
	}
	t.ws.b.scripted.clear(t.ws.siteKey(), o)
	return nil
}
