package governance

import "net/url"

// Shown is what a result may show of a page's URL (a landing, a tab listed,
// a page perceived): the URL itself when the authority reaches it, else only
// its origin (withheld: its path, query and title are not shown). A nil
// authority reaches every page.
func (a *Authority) Shown(raw string) (shown string, withheld bool) {
	if a == nil || a.AdmitURL(raw) == nil {
		return raw, false
	}
	return Origin(raw), true
}

// Origin keeps only the scheme and host of a URL ("" when it has none).
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}).String()
}
