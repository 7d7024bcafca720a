// Command dist builds Ghostlight's release archives (make dist): the server
// cross-compiled for each target with its version and commit stamped in
// (-ldflags -X), packed with the README as a tar.gz (zip for Windows), and
// SHA256SUMS over them. Archives are reproducible: fixed order, times and
// owners. It also writes the npm package set (npm/: a launcher and one
// package per target, see npm.go) and the MCP registry entry (server.json).
// Only the Go toolchain is needed; npm pack turns the package directories
// into tarballs.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// targets are the platforms a release covers.
var targets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64"}

// epoch stamps every archive entry, so the same sources give the same bytes.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func main() {
	out := flag.String("out", "dist", "directory the archives are written to (emptied first)")
	version := flag.String("version", "", "version to stamp (default: git describe, else dev)")
	commit := flag.String("commit", "", "commit to stamp (default: git rev-parse HEAD)")
	only := flag.String("targets", strings.Join(targets, ","), "comma-separated GOOS/GOARCH list")
	npm := flag.Bool("npm", true, "also write the npm packages (npm/) and server.json")
	flag.Parse()
	if *version == "" {
		*version = git("describe", "--tags", "--always", "--dirty")
		if *version == "" {
			*version = "dev"
		}
	}
	if *commit == "" {
		*commit = git("rev-parse", "HEAD")
	}
	if err := run(*out, *version, *commit, strings.Split(*only, ","), *npm); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

func git(args ...string) string {
	b, err := exec.Command("git", args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func run(out, version, commit string, list []string, npm bool) error {
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		return err
	}
	license, err := os.ReadFile("LICENSE")
	if err != nil {
		return err
	}
	var sums []string
	for _, t := range list {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(t), "/")
		if !ok {
			return fmt.Errorf("target %q is not GOOS/GOARCH", t)
		}
		exe := "ghostlight"
		if goos == "windows" {
			exe += ".exe"
		}
		bin := filepath.Join(out, ".build", goos+"_"+goarch, exe)
		ldflags := "-s -w -X main.version=" + version + " -X main.commit=" + commit
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", bin, "./tools/ghostlight")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("build %s/%s: %w", goos, goarch, err)
		}
		exeBytes, err := os.ReadFile(bin)
		if err != nil {
			return err
		}
		if npm {
			name, err := writePlatformPackage(out, goos, goarch, npmVersion(version), exeBytes)
			if err != nil {
				return err
			}
			fmt.Printf("npm/%s\t%s\n", name, npmVersion(version))
		}
		base := "ghostlight_" + strings.TrimPrefix(version, "v") + "_" + goos + "_" + goarch
		files := []entry{{base + "/" + exe, exeBytes, 0o755}, {base + "/README.md", readme, 0o644}, {base + "/LICENSE", license, 0o644}}
		var archive []byte
		name := base + ".tar.gz"
		if goos == "windows" {
			name = base + ".zip"
			archive, err = zipOf(files)
		} else {
			archive, err = tarGzOf(files)
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, name), archive, 0o644); err != nil {
			return err
		}
		sums = append(sums, fmt.Sprintf("%x  %s\n", sha256.Sum256(archive), name))
		fmt.Printf("%s\t%d bytes\n", name, len(archive))
	}
	if err := os.RemoveAll(filepath.Join(out, ".build")); err != nil {
		return err
	}
	if npm {
		if err := writeLauncher(out, npmVersion(version)); err != nil {
			return err
		}
		if err := writeServerJSON(out, npmVersion(version)); err != nil {
			return err
		}
		fmt.Printf("npm/%s\t%s\nserver.json\n", launcherName, npmVersion(version))
	}
	// By file name, as sha256sum -c lists them.
	sort.Slice(sums, func(i, j int) bool { return sums[i][66:] < sums[j][66:] })
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(strings.Join(sums, "")), 0o644)
}

type entry struct {
	name string
	data []byte
	mode int64
}

func tarGzOf(files []entry) ([]byte, error) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	gz.ModTime = epoch
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: epoch, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipOf(files []entry) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: epoch}
		h.SetMode(os.FileMode(f.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := io.Copy(w, bytes.NewReader(f.data)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
