package governance

import (
	"errors"
	"log/slog"
	"os"
	"sync"
)

// stamp is what a file looked like when it was read: present or not, and
// its identity, size and modification time.
type stamp struct {
	path string
	fi   os.FileInfo // nil: absent
}

func statAll(paths []string) []stamp {
	out := make([]stamp, len(paths))
	for i, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			fi = nil
		}
		out[i] = stamp{path: p, fi: fi}
	}
	return out
}

func (s stamp) same(fi os.FileInfo) bool {
	if s.fi == nil || fi == nil {
		return s.fi == nil && fi == nil
	}
	return os.SameFile(s.fi, fi) && s.fi.Size() == fi.Size() && s.fi.ModTime().Equal(fi.ModTime())
}

func changed(stamps []stamp) bool {
	for _, s := range stamps {
		fi, err := os.Stat(s.path)
		if err != nil {
			fi = nil
		}
		if !s.same(fi) {
			return true
		}
	}
	return false
}

// Loader holds the authority in force and re-reads the layers between
// calls when a file changed (a stat of each file: identity, size, time).
// Each Authority it returns is immutable, so a call keeps the snapshot it
// started with. A file that becomes invalid keeps the last good authority
// in force, says so in its Note, and logs the problem once.
type Loader struct {
	cfg Config
	log *slog.Logger

	mu      sync.Mutex
	cur     *Authority
	stamps  []stamp
	failing string
	// Problem is the person's account of the invalid files ("" when the
	// files on disk are in force).
	problem string
	inUse   *startupInUse // the running browser's startup posture (reloadstate.go)
}

// Load reads the layers once; an error means the server must not start.
func Load(cfg Config, log *slog.Logger) (*Loader, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a, st, err := load(cfg)
	for tries := 0; errors.Is(err, errChanging) && tries < 10; tries++ {
		a, st, err = load(cfg)
	}
	if err != nil {
		return nil, err
	}
	l := &Loader{cfg: cfg, log: log, cur: a, stamps: st, inUse: &startupInUse{}}
	a.gen, a.inUse = 1, l.inUse
	return l, nil
}

// Current returns the authority for a call starting now.
func (l *Loader) Current() *Authority {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !changed(l.stamps) {
		return l.cur
	}
	a, st, err := load(l.cfg)
	if errors.Is(err, errChanging) {
		return l.cur // the next call reads it again
	}
	l.stamps = st
	if err != nil {
		msg := err.Error()
		if msg != l.failing {
			l.failing, l.problem = msg, msg
			l.log.Error("policy reload refused; the last good authority stays in force", "err", msg)
		}
		text := "A policy file changed and does not load, so the last good authority stays in force"
		if le, ok := err.(*LoadError); ok {
			text += ": " + le.modelText()
		}
		n := *l.cur
		n.note = text + "."
		n.gen++
		l.cur = &n
		return l.cur
	}
	if l.failing != "" {
		l.log.Info("policy files load again")
	}
	l.failing, l.problem = "", ""
	a.gen, a.inUse = l.cur.gen+1, l.inUse
	l.cur = a
	l.log.Info("policy reloaded", "digest", a.Digest())
	return a
}

// Problem is the person's account of files that do not load while the last
// good authority stays in force ("" when the files on disk are in force).
func (l *Loader) Problem() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.problem
}
