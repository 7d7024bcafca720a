//go:build unix

package browser

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestPersonsDownloadsLeftAlone: attached to a browser under
// shared isolation, Ghostlight does not set the default context's download
// behaviour. The person's own download (a tab Ghostlight never touched)
// completes in the browser's own folder while a workspace that denies
// downloads is attached; that workspace's own download is refused and leaves
// no file; a workspace that allows them gets its file where the browser's
// own downloads go.
func TestPersonsDownloadsLeftAlone(t *testing.T) {
	r := startRemoteChromium(t)
	b := New(Config{Startup: StartupConnect, Endpoint: r.pool.browserless(), Headless: true, Isolation: IsolationShared})
	t.Cleanup(func() { _ = b.Close() })
	ds := newDownloadSite(t, 1<<20)
	folder := filepath.Join(r.home, "Downloads")

	deny := b.Workspace("deny")
	t.Cleanup(func() { _ = b.ReleaseWorkspace(context.Background(), "deny") })
	d, n := clickDownload(t, deny, ds, DownloadPolicy{})
	if n != 1 || d.State != surface.DownloadStateRefused {
		t.Fatalf("the denying workspace's download: %+v (%d), want one refused", d, n)
	}
	eventually(t, "the refused download's file removed", func() bool { return len(filesIn(folder)) == 0 })

	// The person's own tab, on a connection of its own, in the default context.
	person := rod.New().ControlURL("ws://" + r.local + r.wsPath)
	if err := person.Connect(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = person.Close() })
	page, err := person.Page(proto.TargetCreateTarget{URL: ds.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if err := page.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	if _, err := page.Eval(`() => document.getElementById('a').click()`); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the person's download to complete in the browser's folder", func() bool {
		got, err := os.ReadFile(filepath.Join(folder, "report.bin"))
		return err == nil && bytes.Equal(got, ds.body)
	})
	if _, n := deny.TakeDownloads(); n != 0 {
		t.Fatalf("the person's download was reported to a workspace (%d)", n)
	}
	if err := os.Remove(filepath.Join(folder, "report.bin")); err != nil {
		t.Fatal(err)
	}

	allow := b.Workspace("allow")
	t.Cleanup(func() { _ = b.ReleaseWorkspace(context.Background(), "allow") })
	d, n = clickDownload(t, allow, ds, DownloadPolicy{Allow: true})
	if n != 1 || d.State != surface.DownloadStateCompleted || d.Bytes != int64(len(ds.body)) {
		t.Fatalf("the allowing workspace's download: %+v (%d), want one completed of %d bytes", d, n, len(ds.body))
	}
	if got, err := os.ReadFile(filepath.Join(folder, "report.bin")); err != nil || !bytes.Equal(got, ds.body) {
		t.Fatalf("the allowed download is not in the browser's folder: %v", err)
	}
	if dir := allow.DownloadDir(); dir != "" {
		t.Fatalf("a workspace in the browser's own context made a download directory %s", dir)
	}
}

// filesIn lists the names in dir (none when it does not exist).
func filesIn(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}
