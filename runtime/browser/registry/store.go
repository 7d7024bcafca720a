package registry

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Identity names one Ghostlight installation: the binary that runs and the install id
// stored once in its config directory.
type Identity struct {
	Binary string `json:"binary"`
	ID     string `json:"install_id"`
}

// Store is the registry of one config directory, as one installation sees it.
type Store struct {
	Dir    string // the installation's own directory: $XDG_CONFIG_HOME/ghostlight
	Binary string // this installation's ghostlight binary (symlinks resolved)
	Log    *slog.Logger
}

// Dir is the registry's directory for this user: $XDG_CONFIG_HOME/ghostlight when
// XDG_CONFIG_HOME is absolute, else ~/.config/ghostlight (the user policy layer's rule).
func Dir(getenv func(string) string, home string) (string, error) {
	if base := getenv("XDG_CONFIG_HOME"); base != "" && filepath.IsAbs(base) {
		return filepath.Join(base, "ghostlight"), nil
	}
	if home == "" {
		return "", errors.New("no home directory for the browser registrations; set XDG_CONFIG_HOME")
	}
	return filepath.Join(home, ".config", "ghostlight"), nil
}

// ForThisProcess is the store of this user's config directory, for the running binary.
func ForThisProcess(log *slog.Logger) (*Store, error) {
	home, _ := os.UserHomeDir()
	dir, err := Dir(os.Getenv, home)
	if err != nil {
		return nil, err
	}
	bin, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("this installation's binary: %w", err)
	}
	return New(dir, bin, log), nil
}

// New is the store of dir for the installation whose binary is bin.
func New(dir, bin string, log *slog.Logger) *Store {
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{Dir: filepath.Clean(dir), Binary: bin, Log: log}
}

const (
	idFile      = "install-id"
	browsersDir = "browsers"
	profilesDir = "profiles"
	maxFile     = limits.RegistryFileBytesMax // a registration or id file past this is not ours
)

// Self is this installation's identity; ID is "" until `ghostlight install` wrote one.
// It is read on every use: an install that runs while a server does is seen at once.
func (s *Store) Self() Identity {
	id, _ := s.readID()
	return Identity{Binary: s.Binary, ID: id}
}

func (s *Store) readID() (string, error) {
	b, err := readBounded(filepath.Join(s.Dir, idFile))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// ensureID returns the install id, writing a new one when there is none. Written
// with O_EXCL, so two installs at once agree on the one that won.
func (s *Store) ensureID() (string, error) {
	if id, err := s.readID(); err == nil && id != "" {
		return id, nil
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", err
	}
	var raw [16]byte
	_, _ = rand.Read(raw[:])
	f, err := os.OpenFile(filepath.Join(s.Dir, idFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return s.readID()
	}
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(hex.EncodeToString(raw[:]) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return s.readID()
}

func (s *Store) registrationPath(slug string) string {
	return filepath.Join(s.Dir, browsersDir, slug+".json")
}

// ProfileDir is the dedicated profile of the browser named slug.
func (s *Store) ProfileDir(slug string) string { return filepath.Join(s.Dir, profilesDir, slug) }

func (s *Store) logPath(slug string) string {
	return filepath.Join(s.Dir, profilesDir, slug+".log")
}

// within reports whether path lies inside dir (not dir itself).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxFile)
	}
	return b, nil
}

// writeFile writes data whole (a temp file renamed over path), mode 0600, so a reader
// never sees half a registration.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o600)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
