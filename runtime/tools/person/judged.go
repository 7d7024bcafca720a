package person

import (
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/echomask"
)

// A text query the page answers (browser_find, a wait on text or on the URL,
// a selector by name) would tell by match or no match what the mask hides
// ("Card 41", then "Card 411", ...). In a session where the person typed a
// secret it is answered on the text the model would see: a match counts
// only if it still holds on its text masked (runtime/echomask.Holds). Other
// sessions pay nothing: their requests and answers are unchanged.

// Judge is the pagejs.Judge of query in s: nil where the person typed no
// secret.
func Judge(s Session, query string) pagejs.Judge {
	mask := s.Person().Masker(s.Workspace().ID())
	if mask == nil {
		return nil
	}
	return func(h pagejs.Haystack) bool { return echomask.Holds(mask, query, echomask.Haystack(h)) }
}

// URLShown says whether a url, which contains query, still does as the
// model would see it (true where the person typed no secret).
func URLShown(s Session, query string) func(url string) bool {
	return func(url string) bool {
		mask := s.Person().Masker(s.Workspace().ID())
		return mask == nil || echomask.Contains(mask, url, query)
	}
}
