package uploads

import (
	"encoding/base64"
	"mime"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// Captured is a captured image of its MIME type as the page will get it,
// named by its type.
func Captured(mimeType string, data []byte) []input.File {
	return []input.File{{Name: ImageName(mimeType), MIME: mimeType, Data: data}}
}

// Inline are the files a call hands inline (base64) as the page will get
// them, each name kept to one path element.
func Inline(files []*surface.InlineFile) ([]input.File, *surface.Refusal) {
	var out []input.File
	for i, fl := range files {
		data, err := base64.StdEncoding.DecodeString(fl.DataBase64)
		if err != nil {
			return nil, &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/files/" + strconv.Itoa(i) + "/data_base64", Message: language.MsgNotBase64}
		}
		name := safeName(fl.Name)
		out = append(out, input.File{Name: name, MIME: mime.TypeByExtension(filepath.Ext(name)), Data: data})
	}
	return out, nil
}

// Stage writes files under dir, for a browser that opens this server's
// paths: one fresh directory per upload, one subdirectory per file so equal
// names never collide. The page reads attached files lazily, so they stay
// until dir is removed.
func Stage(dir string, files []input.File) ([]string, *surface.Refusal) {
	up, err := os.MkdirTemp(dir, "upload-")
	if err != nil {
		return nil, &surface.Refusal{Reason: surface.ReasonInternal, Message: language.MsgNotStaged}
	}
	var paths []string
	for i, f := range files {
		sub := filepath.Join(up, strconv.Itoa(i))
		p := filepath.Join(sub, f.Name)
		if os.Mkdir(sub, 0o700) != nil || os.WriteFile(p, f.Data, 0o600) != nil {
			return nil, &surface.Refusal{Reason: surface.ReasonInternal, Message: language.MsgNotStaged}
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// safeName keeps an inline file's name a single path element.
func safeName(n string) string {
	n = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, n)
	if n == "" || n == "." || n == ".." {
		return "file"
	}
	return n
}

// ImageName names a captured image by its type.
func ImageName(mime string) string {
	switch mime {
	case "image/jpeg":
		return "capture.jpg"
	case "image/webp":
		return "capture.webp"
	}
	return "capture.png"
}
