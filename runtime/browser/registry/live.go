package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// activePortFile is where Chromium writes the port it listens on and its browser
// target's path, in the profile directory.
const activePortFile = "DevToolsActivePort"

// probeTimeout bounds one liveness probe of a registered browser (loopback: a live
// browser answers in about a millisecond; a listener that never answers costs this).
const probeTimeout = time.Duration(limits.RegistryProbeMsMax) * time.Millisecond

// errNotRunning: the registered browser does not run (no DevToolsActivePort yet, or
// one being written).
var errNotRunning = errors.New("not running")

// live returns the DevTools websocket URL of the registered browser when it runs: its
// DevToolsActivePort names a port on 127.0.0.1 whose /json/version answers with the
// same browser target. A file whose port is dead, or answered by another browser, is
// left by a browser that is gone: it is removed (the dead-port repair), unless the
// file changed while it was checked (a browser starting now wrote it).
func (s *Store) live(ctx context.Context, r *Registration) (string, error) {
	path := filepath.Join(r.Profile, activePortFile)
	before, err := os.Stat(path)
	if err != nil {
		return "", errNotRunning
	}
	raw, err := readBounded(path)
	if err != nil {
		return "", errNotRunning
	}
	port, target, ok := parseActivePort(raw)
	if !ok {
		return "", errNotRunning // half-written: the next call reads it whole
	}
	host := net.JoinHostPort(loopback, strconv.Itoa(port))
	if err := probe(ctx, host, target); err != nil {
		if ctx.Err() == nil {
			s.removeStale(path, before, raw, err)
		}
		return "", err
	}
	return "ws://" + host + target, nil
}

// parseActivePort reads "PORT\n/devtools/browser/ID\n".
func parseActivePort(raw []byte) (port int, target string, ok bool) {
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 2 {
		return 0, "", false
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	target = strings.TrimSpace(lines[1])
	if err != nil || port <= 0 || port > 65535 || !strings.HasPrefix(target, "/devtools/browser/") {
		return 0, "", false
	}
	return port, target, true
}

// probe checks that the browser on host is the one whose browser target is target.
func probe(ctx context.Context, host, target string) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+host+"/json/version", nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = res.Body.Close() }()
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, limits.DevtoolsVersionBytesMax)).Decode(&v); err != nil {
		return err
	}
	if !strings.HasSuffix(v.WebSocketDebuggerURL, target) {
		return errors.New("another browser answers on " + host)
	}
	return nil
}

// removeStale removes a dead DevToolsActivePort when it is still the file that was
// read: same file, same size, same time, same bytes.
func (s *Store) removeStale(path string, before os.FileInfo, raw []byte, why error) {
	after, err := os.Stat(path)
	if err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		return
	}
	now, err := readBounded(path)
	if err != nil || !bytes.Equal(now, raw) {
		return
	}
	if os.Remove(path) == nil {
		s.Log.Info("removed a dead DevTools port of a registered browser", "file", path, "err", why)
	}
}
