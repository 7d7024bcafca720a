package main

// `ghostlight workbench`: a fresh single-use workbench link from the running
// server. serve writes, for each workbench it serves, a file only the user
// can read ($XDG_STATE_HOME/ghostlight/workbench/<pid>.json: the
// workbench's address and a random link key) and removes it at exit; the
// command posts the key to <address>/workbench/link and prints the link the
// server mints. The key mints links and opens nothing itself.

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// linkFile is what serve leaves for `ghostlight workbench`.
type linkFile struct {
	URL string `json:"url"` // http://host:port
	Key string `json:"key"`
}

// linkDir is $XDG_STATE_HOME/ghostlight/workbench (beside the audit).
func linkDir() (string, error) {
	p, err := audit.DefaultPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), "workbench"), nil
}

// publish gives the workbench a link key and writes its file; the returned
// function removes it.
func publish(wb *workbench.Workbench, base string) (func(), error) {
	key, err := randomKey()
	if err != nil {
		return nil, err
	}
	dir, err := linkDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	b, _ := json.Marshal(linkFile{URL: base, Key: key})
	path := filepath.Join(dir, strconv.Itoa(os.Getpid())+".json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, err
	}
	wb.SetLinkKey(key)
	return func() { _ = os.Remove(path) }, nil
}

// workbenchCmd prints a fresh link from every running server that left a
// file.
func workbenchCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("workbench", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := linkDir()
	if err != nil {
		return err
	}
	entries, _ := os.ReadDir(dir)
	client := &http.Client{Timeout: time.Duration(surface.HttpHeaderMsMax) * time.Millisecond}
	found := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 != 0 {
			continue // not one serve wrote
		}
		b, err := os.ReadFile(path)
		var lf linkFile
		if err != nil || json.Unmarshal(b, &lf) != nil || !strings.HasPrefix(lf.URL, "http://") {
			continue
		}
		req, _ := http.NewRequest(http.MethodPost, lf.URL+workbench.Path+"/link", nil)
		req.Header.Set(workbench.LinkKeyHeader, lf.Key)
		resp, err := client.Do(req)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				_ = os.Remove(path) // nothing listens there: a killed server's file
			}
			continue
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			continue
		}
		found++
		fmt.Fprintf(out, "%s", body)
	}
	if found == 0 {
		return errors.New("no running `ghostlight serve` with a workbench answered: start one with --workbench ADDR (or --http); it prints its first link on its standard error")
	}
	return nil
}

// randomKey is 32 random bytes, URL-safe.
func randomKey() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}
