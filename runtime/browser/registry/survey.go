package registry

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
)

// State is what one installed browser's registration says.
type State struct {
	Browser      browser.Installed
	Registration *Registration // nil when there is none (or it does not read)
	Ownership    Ownership
	Usable       bool   // this installation can open and reach it
	Live         string // DevTools websocket URL when it runs now
	Problem      string // why it is not usable, for people
}

// Inspect reads the registration of each installed browser, repairs stale ones of
// this installation silently (writing them back), and probes the usable ones.
func (s *Store) Inspect(ctx context.Context, installed []browser.Installed) []State {
	self := s.Self()
	out := make([]State, 0, len(installed))
	for _, in := range installed {
		st := State{Browser: in}
		r, err := s.read(in.Slug)
		switch {
		case errors.Is(err, errNoRegistration):
			st.Problem = "not prepared"
			out = append(out, st)
			continue
		case err != nil:
			st.Problem = err.Error()
			s.Log.Warn("a browser registration does not read", "err", err)
			out = append(out, st)
			continue
		}
		st.Registration, st.Ownership = r, ownership(r.Owner, self)
		if st.Ownership == Foreign {
			st.Problem = "owned by the installation at " + r.Owner.Binary
			out = append(out, st)
			continue
		}
		usable, changed, what := s.repair(r, in, self)
		if changed {
			if err := s.write(r); err != nil {
				usable, st.Problem = false, err.Error()
			} else {
				s.Log.Info("repaired a stale browser registration", "browser", in.Name, "what", strings.Join(what, ", "))
			}
		}
		st.Usable = usable
		if !usable {
			if st.Problem == "" {
				st.Problem = strings.Join(what, ", ")
			}
			out = append(out, st)
			continue
		}
		if u, err := s.live(ctx, r); err == nil {
			st.Live = u
		}
		out = append(out, st)
	}
	return out
}

// Survey implements browser.Prepared.
func (s *Store) Survey(ctx context.Context, installed []browser.Installed) browser.Survey {
	var sv browser.Survey
	for _, st := range s.Inspect(ctx, installed) {
		switch {
		case st.Ownership == Foreign && st.Registration != nil:
			sv.Foreign = true
		case st.Usable:
			sv.Prepared = append(sv.Prepared, st.Browser)
			if sv.Live == "" && st.Live != "" {
				sv.Live, sv.LiveName = st.Live, st.Browser.Name
			}
		}
	}
	return sv
}

// Installed is what Install did for one browser.
type Installed struct {
	Browser      browser.Installed
	Registration *Registration
	Action       string // "registered", "updated", "unchanged", or "took over from <binary>"
}

// Install writes a registration of this installation for each installed browser,
// taking over one another installation wrote (the person runs install from the
// installation that should own the browsers), and makes each dedicated profile.
func (s *Store) Install(installed []browser.Installed) ([]Installed, error) {
	id, err := s.ensureID()
	if err != nil {
		return nil, err
	}
	self := Identity{Binary: s.Binary, ID: id}
	var out []Installed
	var errs []error
	for _, in := range installed {
		action := "registered"
		r := s.fresh(in, self)
		if old, err := s.read(in.Slug); err == nil {
			switch ownership(old.Owner, self) {
			case Foreign:
				action = "took over from " + old.Owner.Binary
			default:
				action = "updated"
				if old.Binary == r.Binary && old.Profile == r.Profile && old.Owner == self && old.DevTools == r.DevTools && old.Product == r.Product {
					action = "unchanged"
				}
			}
		}
		if err := os.MkdirAll(r.Profile, 0o700); err != nil {
			errs = append(errs, err)
			continue
		}
		if action != "unchanged" {
			if err := s.write(r); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		out = append(out, Installed{Browser: in, Registration: r, Action: action})
	}
	return out, errors.Join(errs...)
}
