package main

// Where serve --http finds its bearer token. The environment
// (GHOSTLIGHT_TOKEN) and a file (--token-file) keep it out of the process's
// command line: /proc/<pid>/cmdline is readable by every local user, while
// /proc/<pid>/environ and a mode-600 file are the owner's alone. --token
// still works, with a warning saying why it should not be used.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// tokenEnv names the environment variable that carries the token.
const tokenEnv = "GHOSTLIGHT_TOKEN"

// resolveToken picks the token from --token, --token-file or the
// environment (at most one of the flags), warning on stderr for --token. The
// variable is then removed from this process's environment, so a launched
// browser does not inherit it.
func resolveToken(flagToken, tokenFile string, stderr io.Writer) (string, error) {
	env := os.Getenv(tokenEnv)
	_ = os.Unsetenv(tokenEnv)
	switch {
	case flagToken != "" && tokenFile != "":
		return "", errors.New("pass --token or --token-file, not both")
	case flagToken != "":
		fmt.Fprintf(stderr, "ghostlight: warning: --token puts the token on the command line, where every local user can read it (/proc/<pid>/cmdline, ps); set %s or pass --token-file PATH (a file only you can read) instead\n", tokenEnv)
		return flagToken, nil
	case tokenFile != "":
		return readTokenFile(tokenFile)
	}
	return strings.TrimSpace(env), nil
}

// readTokenFile reads a token from a regular file that only this user owns
// and can read: a file others can read would hand them the browser.
func readTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("--token-file: %s is not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("--token-file: %s is readable or writable by other users (mode %04o): make it yours alone with chmod 600 %s", path, perm, path)
	}
	if err := ownedByMe(fi, path); err != nil {
		return "", err
	}
	b, err := io.ReadAll(io.LimitReader(f, surface.TokenFileBytesMax+1))
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if len(b) > surface.TokenFileBytesMax {
		return "", fmt.Errorf("--token-file: %s is longer than %d bytes: it should hold the token alone", path, surface.TokenFileBytesMax)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("--token-file: %s is empty", path)
	}
	return tok, nil
}
