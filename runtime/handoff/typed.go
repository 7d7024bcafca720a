package handoff

import (
	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/echomask"
)

// What the person typed into a credential field is masked wherever a result
// would quote it back (runtime/echomask): a page that shows it, or a script
// the person let run after releasing the document. The workbench's live view
// reports what the field holds after each key of a run (one field, from its
// first key until focus leaves it); only a keyed hash and a length are
// kept, per session.

var typedLimits = echomask.Limits{
	Kept:     limits.TypedSecretsKeptMax,
	MinChars: limits.TypedSecretMinCharsMin,
	Chars:    limits.TypedSecretCharsMax,
}

// NewRun names a new typing run (the person's keys into one field).
func (s *Store) NewRun() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs++
	return s.runs
}

// Typed records what the person has typed so far in run, on session's tabs
// (as characters: the caller's, which Typed does not keep).
func (s *Store) Typed(session string, run uint64, typed []rune) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.typed == nil {
		s.typed = map[string]*echomask.Set{}
	}
	set := s.typed[session]
	if set == nil {
		set = echomask.New(typedLimits)
		s.typed[session] = set
	}
	set.PutRunes(run, typed)
}

// Masker returns the function that masks session's typed secrets in a
// text, or nil when the person typed none there (the common case: results
// then pass untouched).
func (s *Store) Masker(session string) func(string) (string, bool) {
	s.mu.Lock()
	set := s.typed[session]
	empty := set == nil || set.Empty()
	s.mu.Unlock()
	if empty {
		return nil
	}
	return func(text string) (string, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return set.Mask(text)
	}
}

// Forget drops what the session's person typed (the session ended).
func (s *Store) Forget(session string) {
	s.mu.Lock()
	delete(s.typed, session)
	s.mu.Unlock()
}
