package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
)

// Registration is one browser prepared for Ghostlight, as browsers/<name>.json holds it.
type Registration struct {
	Format  int    `json:"format"`  // registrationFormat
	Name    string `json:"name"`    // the product's registration name: "chromium", "chrome", …
	Product string `json:"product"` // its product name: "Chromium", "Google Chrome", …
	Binary  string `json:"binary"`  // the browser executable
	Profile string `json:"profile"` // its dedicated profile directory
	// DevTools says how this installation reaches the browser.
	DevTools DevTools `json:"devtools"`
	// Owner is the installation that wrote the registration.
	Owner Identity `json:"owner"`
}

// DevTools is how a registered browser is reached: the browser listens on a port of
// its own choosing on 127.0.0.1 (--remote-debugging-port=0) and writes it, with its
// browser target's path, to the DevToolsActivePort file in its profile.
type DevTools struct {
	Via     string `json:"via"`     // viaActivePort
	Address string `json:"address"` // "127.0.0.1"
}

const (
	registrationFormat = 1
	viaActivePort      = "DevToolsActivePort"
	loopback           = "127.0.0.1"
)

// Ownership is whose a registration is.
type Ownership int

// Ownerships.
const (
	Mine    Ownership = iota // written by this installation
	Moved                    // by this installation from a binary path that no longer exists
	Foreign                  // by another installation: never touched by recovery
)

// ownership compares a registration's stamp with self. The install id tells
// installations apart; a stamp with this id and another binary path is this
// installation moved when nothing is left at that path, and another installation
// sharing the config directory when a binary still is.
func ownership(owner, self Identity) Ownership {
	switch {
	case self.ID == "" || owner.ID != self.ID:
		return Foreign
	case owner.Binary == self.Binary:
		return Mine
	}
	if st, err := os.Stat(owner.Binary); err == nil && !st.IsDir() {
		return Foreign
	}
	return Moved
}

// errNoRegistration: the browser is not prepared.
var errNoRegistration = errors.New("no registration")

// read loads the registration of slug.
func (s *Store) read(slug string) (*Registration, error) {
	b, err := readBounded(s.registrationPath(slug))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoRegistration
	}
	if err != nil {
		return nil, err
	}
	var r Registration
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", s.registrationPath(slug), err)
	}
	if r.Format != registrationFormat || r.Owner.ID == "" {
		return nil, fmt.Errorf("%s: not a registration this version reads (format %d)", s.registrationPath(slug), r.Format)
	}
	return &r, nil
}

func (s *Store) write(r *Registration) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(s.registrationPath(r.Name), append(b, '\n'))
}

// fresh is the registration this installation writes for in.
func (s *Store) fresh(in browser.Installed, self Identity) *Registration {
	return &Registration{
		Format: registrationFormat, Name: in.Slug, Product: in.Name, Binary: in.Path,
		Profile:  s.ProfileDir(in.Slug),
		DevTools: DevTools{Via: viaActivePort, Address: loopback},
		Owner:    self,
	}
}

// repair brings a registration of this installation up to date with in, the browser
// as installed now, changing only details inside this installation's own directory
// and its own stamp: a ghostlight binary that moved, a browser binary that moved, a
// profile path that moved within the directory (and a profile directory that is
// missing). usable is false when it cannot be repaired silently (its profile lies
// outside the directory); changed says it must be written back.
func (s *Store) repair(r *Registration, in browser.Installed, self Identity) (usable, changed bool, what []string) {
	if r.Owner.Binary != self.Binary {
		r.Owner.Binary = self.Binary
		changed, what = true, append(what, "ghostlight binary moved")
	}
	if !executable(r.Binary) {
		r.Binary = in.Path
		changed, what = true, append(what, "browser binary moved")
	}
	if r.Name != in.Slug || r.Product != in.Name {
		r.Name, r.Product = in.Slug, in.Name
		changed, what = true, append(what, "product renamed")
	}
	if canon := s.ProfileDir(in.Slug); filepath.Clean(r.Profile) != canon {
		if !within(s.Dir, r.Profile) {
			return false, false, append(what, "profile outside "+s.Dir)
		}
		r.Profile = canon
		changed, what = true, append(what, "profile path moved")
	}
	if r.DevTools.Via != viaActivePort || r.DevTools.Address != loopback {
		r.DevTools = DevTools{Via: viaActivePort, Address: loopback}
		changed, what = true, append(what, "devtools reach")
	}
	if _, err := os.Stat(r.Profile); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(r.Profile, 0o700); err != nil {
			return false, changed, append(what, "profile: "+err.Error())
		}
		what = append(what, "profile directory made")
	}
	return true, changed, what
}

func executable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && (st.Mode()&0o111 != 0 || filepath.Ext(path) == ".exe")
}
