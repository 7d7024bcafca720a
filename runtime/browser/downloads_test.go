package browser

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// downloadSite serves a page with a link to an attachment and records, per request of
// the attachment, how many body bytes the server managed to send.
type downloadSite struct {
	*httptest.Server
	body  []byte
	mu    sync.Mutex
	sent  []int // bytes written per request of /file
	wrote chan int
}

func newDownloadSite(t *testing.T, size int) *downloadSite {
	t.Helper()
	ds := &downloadSite{body: bytes.Repeat([]byte("ghostlight-download\n"), size/20+1)[:size], wrote: make(chan int, 8)}
	ds.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/file":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", `attachment; filename="report.bin"`)
			w.Header().Set("Content-Length", strconv.Itoa(len(ds.body)))
			n := 0
			for n < len(ds.body) {
				m, err := w.Write(ds.body[n:min(n+64<<10, len(ds.body))])
				n += m
				if err != nil {
					break
				}
			}
			ds.mu.Lock()
			ds.sent = append(ds.sent, n)
			ds.mu.Unlock()
			ds.wrote <- n
		default:
			fmt.Fprint(w, `<title>dl</title><a id=a href="/file">get</a>`)
		}
	}))
	t.Cleanup(ds.Close)
	return ds
}

// clickDownload opens the page under policy p, clicks the link from page script and
// waits for the download to end within the call.
func clickDownload(t *testing.T, ws *Workspace, ds *downloadSite, p DownloadPolicy) (Download, int) {
	t.Helper()
	ctx := WithDownloads(ctxT(t, 20*time.Second), p)
	res, err := ws.Open(ctx, ds.URL+"/", OpenOptions{NewTab: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	err = res.Tab.Do(ctx, func(ctx context.Context) error {
		_, err := res.Tab.Page().Context(ctx).Eval(`() => document.getElementById('a').click()`)
		return err
	})
	if err != nil {
		t.Fatalf("click: %v", err)
	}
	// The browser announces the download after the click; AwaitDownloads then
	// waits for it to end.
	eventually(t, "the download to begin", func() bool {
		ws.mu.Lock()
		defer ws.mu.Unlock()
		return len(ws.dl.list) > 0
	})
	ws.AwaitDownloads(ctx)
	d, n := ws.TakeDownloads()
	return d, n
}

// Denied by default: the browser refuses the download, nothing reaches the disk, and the
// workspace has no download directory.
func TestDownloadDeniedByDefault(t *testing.T) {
	ds := newDownloadSite(t, 1<<20)
	ws := newWS(t)
	d, n := clickDownload(t, ws, ds, DownloadPolicy{})
	if n != 1 || d.State != surface.DownloadStateRefused || d.Name != "report.bin" {
		t.Fatalf("download %+v (%d), want one refused report.bin", d, n)
	}
	if dir := ws.DownloadDir(); dir != "" {
		t.Fatalf("a denying workspace has a download directory %s", dir)
	}
	if _, n := ws.TakeDownloads(); n != 0 {
		t.Fatalf("reported twice")
	}
	t.Logf("server sent %d of %d body bytes before the browser refused the download", <-ds.wrote, len(ds.body))
}

// Allowed: the file lands in the workspace's own directory with the server's bytes,
// and the directory goes with the workspace.
func TestDownloadAllowedLandsInWorkspaceDir(t *testing.T) {
	ds := newDownloadSite(t, 3<<20)
	id := fmt.Sprintf("dl-allow-%d", time.Now().UnixNano())
	ws := shared.Workspace(id)
	d, n := clickDownload(t, ws, ds, DownloadPolicy{Allow: true})
	if n != 1 || d.State != surface.DownloadStateCompleted || d.Bytes != int64(len(ds.body)) {
		t.Fatalf("download %+v (%d), want one completed of %d bytes", d, n, len(ds.body))
	}
	dir := ws.DownloadDir()
	files, _ := filepath.Glob(filepath.Join(dir, "[0-9a-f]*-*"))
	if len(files) != 1 {
		t.Fatalf("files in %s: %v", dir, files)
	}
	got, err := os.ReadFile(files[0])
	if err != nil || !bytes.Equal(got, ds.body) {
		t.Fatalf("file bytes differ (%d vs %d): %v", len(got), len(ds.body), err)
	}
	if _, err := os.Stat(filepath.Join(dir, ownerFile)); err != nil {
		t.Fatalf("download dir has no owner marker: %v", err)
	}
	if err := shared.ReleaseWorkspace(ctxT(t, 5*time.Second), id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("download dir %s outlived its workspace: %v", dir, err)
	}
}

// Past the bound: cancelled and reported too large, no file kept.
func TestDownloadTooLargeCancelled(t *testing.T) {
	ds := newDownloadSite(t, 2<<20)
	ws := newWS(t)
	d, n := clickDownload(t, ws, ds, DownloadPolicy{Allow: true, MaxBytes: 1 << 20})
	if n != 1 || d.State != surface.DownloadStateTooLarge {
		t.Fatalf("download %+v (%d), want too_large", d, n)
	}
	eventually(t, "no file kept", func() bool {
		files, _ := filepath.Glob(filepath.Join(ws.DownloadDir(), "[0-9a-f]*"))
		return len(files) == 0
	})
}
