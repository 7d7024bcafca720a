package browser

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fakeExe writes an executable file at root/rel and returns its path.
func fakeExe(t *testing.T, root, rel string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func noPath(string) (string, error) { return "", errors.New("not on PATH") }

type found struct{ name, slug, path string }

func listed(in []Installed) []found {
	var out []found
	for _, i := range in {
		out = append(out, found{i.Name, i.Slug, i.Path})
	}
	return out
}

// TestFindBrowsersLayouts: each platform's standard locations, read from a fake tree,
// name every product once, in product order, by product name.
func TestFindBrowsersLayouts(t *testing.T) {
	t.Run("linux", func(t *testing.T) {
		root := t.TempDir()
		edge := fakeExe(t, root, "opt/microsoft/msedge/msedge")
		chrome := fakeExe(t, root, "opt/google/chrome/chrome")
		brave := fakeExe(t, root, "opt/brave.com/brave/brave")
		chromium := fakeExe(t, root, "usr/bin/chromium")
		fakeExe(t, root, "usr/bin/chromium-browser") // a second Chromium: listed once
		home := t.TempDir()
		cft := fakeExe(t, home, ".cache/puppeteer/chrome/linux-131.0.6778.85/chrome-linux64/chrome")
		got := listed(Places{GOOS: "linux", Root: root, Home: home, LookPath: noPath}.Find(""))
		want := []found{{"Chromium", "chromium", chromium}, {"Google Chrome", "chrome", chrome},
			{"Chrome for Testing", "chrome-for-testing", cft}, {"Microsoft Edge", "edge", edge}, {"Brave", "brave", brave}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
	t.Run("darwin", func(t *testing.T) {
		root, home := t.TempDir(), t.TempDir()
		chrome := fakeExe(t, root, "Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
		brave := fakeExe(t, home, "Applications/Brave Browser.app/Contents/MacOS/Brave Browser")
		got := listed(Places{GOOS: "darwin", Root: root, Home: home, LookPath: noPath}.Find(""))
		want := []found{{"Google Chrome", "chrome", chrome}, {"Brave", "brave", brave}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
	t.Run("windows", func(t *testing.T) {
		root := t.TempDir()
		env := map[string]string{"ProgramFiles": filepath.Join(root, "Program Files"),
			"ProgramFiles(x86)": filepath.Join(root, "Program Files (x86)"), "LocalAppData": filepath.Join(root, "Local")}
		edge := fakeExe(t, root, "Program Files (x86)/Microsoft/Edge/Application/msedge.exe")
		chrome := fakeExe(t, root, "Local/Google/Chrome/Application/chrome.exe")
		got := listed(Places{GOOS: "windows", Home: t.TempDir(), Env: func(k string) string { return env[k] }, LookPath: noPath}.Find(""))
		want := []found{{"Google Chrome", "chrome", chrome}, {"Microsoft Edge", "edge", edge}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
}

// TestFindBrowsersPathAndExplicit: PATH comes before standard locations, a configured
// binary comes first under its product's name, and one binary reached by two names
// (a symlink) is listed once.
func TestFindBrowsersPathAndExplicit(t *testing.T) {
	root, bin := t.TempDir(), t.TempDir()
	fakeExe(t, root, "usr/bin/chromium")
	onPath := fakeExe(t, bin, "chromium")
	if err := os.Symlink(onPath, filepath.Join(bin, "google-chrome")); err != nil { // not a Chrome
		t.Fatal(err)
	}
	look := func(name string) (string, error) {
		p := filepath.Join(bin, name)
		if _, err := os.Stat(p); err != nil {
			return "", err
		}
		return p, nil
	}
	pl := Places{GOOS: "linux", Root: root, Home: t.TempDir(), LookPath: look}
	if got, want := listed(pl.Find("")), []found{{"Chromium", "chromium", onPath}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	edge := fakeExe(t, t.TempDir(), "msedge")
	if got := listed(pl.Find(edge)); len(got) != 2 || got[0] != (found{"Microsoft Edge", "edge", edge}) || got[1].name != "Chromium" {
		t.Fatalf("a configured browser comes first under its product name: %v", got)
	}
	if got := pl.Find(filepath.Join(root, "missing")); len(got) != 1 {
		t.Fatalf("a configured path that is not a file is skipped: %v", got)
	}
	if n := pl.Find(fakeExe(t, t.TempDir(), "my-browser"))[0].Name; n != "my-browser" {
		t.Fatalf("an unknown binary keeps its file name (never its directory): %q", n)
	}
}

func TestProductSlug(t *testing.T) {
	for in, want := range map[string]string{"Chromium": "chromium", "google chrome": "chrome", "chrome": "chrome",
		"Chrome for Testing": "chrome-for-testing", "MICROSOFT EDGE": "edge", "edge": "edge", " brave ": "brave"} {
		if got, ok := ProductSlug(in); !ok || got != want {
			t.Errorf("ProductSlug(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := ProductSlug("firefox"); ok {
		t.Error("firefox is not a Chromium-family browser")
	}
}
