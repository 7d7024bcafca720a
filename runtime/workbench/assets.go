package workbench

import (
	"embed"
	"net/http"
	"path"
)

// The page, its script and its style: embedded, so the workbench works
// offline and loads nothing from elsewhere. No script or style is inline
// (the CSP forbids it).
//
//go:embed assets/index.html assets/app.js assets/app.css
var assets embed.FS

var assetTypes = map[string]string{
	"index.html": "text/html; charset=utf-8",
	"app.js":     "text/javascript; charset=utf-8",
	"app.css":    "text/css; charset=utf-8",
}

func (w *Workbench) asset(rw http.ResponseWriter, r *http.Request, rel string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if rel == "" {
		rel = "index.html"
	}
	typ, ok := assetTypes[rel]
	if !ok {
		http.NotFound(rw, r)
		return
	}
	data, err := assets.ReadFile(path.Join("assets", rel))
	if err != nil {
		http.NotFound(rw, r)
		return
	}
	rw.Header().Set("Content-Type", typ)
	_, _ = rw.Write(data)
}
