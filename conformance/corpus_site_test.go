package conformance

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/conformance/corpussite"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// The widget corpus: pages built from real UI libraries (corpus/, pinned in
// its package-lock.json, bundled by its build.sh) that report their widgets'
// state to the test server on every change. Tests drive them through the
// shipped binary as a model would and assert on what the page reported.

var (
	corpusOnce sync.Once
	corpusErr  error
	corpusDir  string
)

// corpusDist runs corpus/build.sh once (npm ci when the lockfile changed,
// esbuild) and returns its dist/.
func corpusDist(t *testing.T) string {
	t.Helper()
	corpusOnce.Do(func() { corpusDir, corpusErr = corpussite.Build("corpus") })
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusDir
}

// corpusSite is the corpus served for one test (corpussite.Site), failing
// the test when a page never reports what it waits for.
type corpusSite struct{ *corpussite.Site }

func newCorpusSite(t *testing.T) *corpusSite {
	t.Helper()
	site, err := corpussite.New(corpusDist(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(site.Close)
	return &corpusSite{site}
}

// wait polls the page's latest report until ok holds, for at most 5 s, and
// fails the test with the last report otherwise.
func (c *corpusSite) wait(t *testing.T, page, what string, ok func(map[string]any) bool) map[string]any {
	t.Helper()
	st, err := c.Wait(page, what, 5*time.Second, ok)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// must runs a tool and fails the test unless it succeeded.
func (s *liveServer) must(t *testing.T, tool string, args map[string]any) surface.Envelope {
	t.Helper()
	res, env := s.call(t, tool, args)
	if env.Status != surface.StatusSucceeded {
		t.Fatalf("%s %v: %s\n%s", tool, mustJSON(args), env.Status, textOf(res))
	}
	return env
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// observe lists the page's controls as a model would first, and returns the
// target of the one with this role and name (it fails the test, listing what
// inspect saw, when there is none).
func (s *liveServer) observe(t *testing.T, role, name string) string {
	t.Helper()
	env := s.must(t, "browser_inspect", map[string]any{"max_items": 200})
	var f surface.BrowserInspectFacts
	if err := json.Unmarshal(env.Facts, &f); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, it := range f.Items {
		if string(it.Role) == role && it.Name == name {
			return it.Target
		}
		seen = append(seen, string(it.Role)+" "+strconv.Quote(it.Name))
	}
	t.Fatalf("inspect lists no %s %q; it lists: %s", role, name, strings.Join(seen, ", "))
	return ""
}

// sel is a semantic selector, as a model writes one from inspect's list.
func sel(role, name string) map[string]any {
	return map[string]any{"role": role, "name": name, "exact": true}
}

type found struct{ role, target string }

// findAll runs browser_find and returns the best match of each name.
func (s *liveServer) findAll(t *testing.T, text string) map[string]found {
	t.Helper()
	env := s.must(t, "browser_find", map[string]any{"text": text})
	var f surface.BrowserFindFacts
	if err := json.Unmarshal(env.Facts, &f); err != nil {
		t.Fatal(err)
	}
	byName := map[string]found{}
	for _, m := range f.Matches {
		if _, ok := byName[m.Name]; !ok {
			byName[m.Name] = found{string(m.Role), m.Target}
		}
	}
	return byName
}

// find runs browser_find for text and returns the match named name (it
// fails the test, listing the matches, when there is none).
func (s *liveServer) find(t *testing.T, text, name string) found {
	t.Helper()
	all := s.findAll(t, text)
	m, ok := all[name]
	if !ok {
		t.Fatalf("find %q has no match named %q: %v", text, name, all)
	}
	return m
}

// appear waits (bounded, 5 s) for a control an action just brought up, as a
// careful model does with browser_wait, then observes it.
func (s *liveServer) appear(t *testing.T, role, name string) string {
	t.Helper()
	s.must(t, "browser_wait", map[string]any{"condition": "selector_present", "selector": sel(role, name), "timeout_ms": 5000})
	return s.observe(t, role, name)
}
