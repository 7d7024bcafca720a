package capture

import (
	"math"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// ShotKind selects what a capture covers.
type ShotKind int

const (
	// Viewport captures the visual viewport (scrollbars excluded).
	Viewport ShotKind = iota + 1
	// FullPage captures the whole scrollable document, scaled down so the
	// longest edge fits MaxEdge.
	FullPage
	// Element captures Request.Clip, the element's box in CSS page px.
	Element
	// Region captures Request.Area of Request.Parent's image, magnified.
	Region
)

func (k ShotKind) String() string {
	switch k {
	case Viewport:
		return "viewport"
	case FullPage:
		return "full_page"
	case Element:
		return "element"
	case Region:
		return "region"
	}
	return "unknown"
}

// Format is the encoding Chromium produces.
type Format string

const (
	PNG  Format = "png"
	JPEG Format = "jpeg"
	WebP Format = "webp"
)

// DefaultFormat is used when Request.Format is empty. PNG keeps text
// lossless; a language model pays per image pixel, not per byte, so the
// lossy formats only matter when the byte ceiling bites.
const DefaultFormat = PNG

// MIME is the media type of the encoding.
func (f Format) MIME() string {
	switch f {
	case PNG:
		return "image/png"
	case JPEG:
		return "image/jpeg"
	case WebP:
		return "image/webp"
	}
	return ""
}

func (f Format) lossy() bool { return f == JPEG || f == WebP }

// Capture tuning, from spec/.
const (
	// DefaultQuality is the JPEG/WebP quality when Request.Quality is 0.
	DefaultQuality = limits.CaptureQualityMax
	// DefaultMagnify is the output px per parent image px of a region
	// capture when Request.Magnify is 0 (still capped by MaxEdge).
	DefaultMagnify = float64(limits.RegionMagnificationMax)
	// fallbackQuality is the one lower quality tried before scaling down.
	fallbackQuality = limits.CaptureFallbackQualityMax
	// maxEncodeAttempts bounds captures spent fitting the byte ceiling.
	maxEncodeAttempts = limits.CaptureAttemptsMax
	// maxMovedRetries bounds re-captures after the geometry moved mid-capture.
	maxMovedRetries = limits.CaptureMovedRetriesMax
)

// Request describes one capture.
type Request struct {
	Kind ShotKind
	// Clip is the element box in CSS page px (Element only). Parts outside
	// the document are cut off.
	Clip Rect
	// Parent and Area select a region (Region only): Area is in Parent's
	// image px and must lie wholly inside it; Parent must be current.
	Parent View
	Area   ImageRect
	// Binding is the geometry the caller read with ReadBinding. Capture
	// re-reads it afterwards and retries if it moved; a zero Binding (no
	// DeviceScale) makes Capture read it first, with Binding.Generation.
	Binding Binding
	// MaxEdge bounds the longest output edge in image px (required).
	MaxEdge int
	// MaxBytes bounds the encoded size (required); larger images are
	// re-captured at lower quality or scale.
	MaxBytes int
	// MaxAspect bounds longest over shortest edge of a FullPage capture (0: no
	// bound). A longer document is refused with KindTooLong rather than scaled to
	// a sliver nobody can read.
	MaxAspect float64
	// Format defaults to DefaultFormat.
	Format Format
	// Quality is 1..100 for JPEG and WebP (0 means DefaultQuality); ignored for PNG.
	Quality int
	// Magnify is output px per Parent image px for Region (0 means
	// DefaultMagnify); values below 1 shrink.
	Magnify float64
}

func (r Request) normalized() (Request, error) {
	if r.Format == "" {
		r.Format = DefaultFormat
	}
	if r.Format.MIME() == "" {
		return r, invalid("unknown format " + string(r.Format))
	}
	if r.Format.lossy() {
		if r.Quality == 0 {
			r.Quality = DefaultQuality
		}
		if r.Quality < 1 || r.Quality > 100 {
			return r, invalid("quality must be 1..100")
		}
	} else {
		r.Quality = 0
	}
	if r.MaxEdge <= 0 {
		return r, invalid("MaxEdge must be positive")
	}
	if r.MaxBytes <= 0 {
		return r, invalid("MaxBytes must be positive")
	}
	if r.Magnify == 0 {
		r.Magnify = DefaultMagnify
	}
	if !(r.Magnify > 0) || math.IsInf(r.Magnify, 0) {
		return r, invalid("Magnify must be positive")
	}
	switch r.Kind {
	case Viewport, FullPage:
	case Element:
		if !r.Clip.finite() || r.Clip.empty() {
			return r, &Error{Kind: KindClipEmpty, Detail: "element box has no area"}
		}
	case Region:
		if !(r.Parent.Scale > 0) || r.Parent.ImageWidth <= 0 || r.Parent.ImageHeight <= 0 {
			return r, invalid("region needs a parent view")
		}
	default:
		return r, invalid("unknown capture kind")
	}
	return r, nil
}
