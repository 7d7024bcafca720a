package handoff

// A credential the person typed stays theirs. Once the person has typed
// into a credential field through the workbench, the page holds it in its
// DOM, where script run by the model (browser_execute) could read and a
// screenshot could show it. The tab's document is then held until the
// tab's document changes (a navigation raises its generation) or the person
// releases it in the workbench; the handlers refuse what would expose it
// (runtime/tools/person).

// Hold records that the person typed into a credential field of the tab's
// document of generation gen.
func (s *Store) Hold(session, tab string, gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held == nil {
		s.held = map[key]uint64{}
	}
	s.held[key{session, tab}] = gen
}

// Release lets the model's script run on the tab's document again: the
// person says so. False when nothing was held.
func (s *Store) Release(session, tab string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key{session, tab}
	if _, ok := s.held[k]; !ok {
		return false
	}
	delete(s.held, k)
	return true
}

// Held reports whether the person typed a credential into the tab's
// document of generation gen and has not released it.
func (s *Store) Held(session, tab string, gen uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key{session, tab}
	g, ok := s.held[k]
	if ok && g != gen {
		delete(s.held, k) // the document changed: the typed value went with it
		return false
	}
	return ok
}
