package origin

import (
	"net/netip"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Site is a URL's site: its scheme and registrable domain
// ("https://example.co.uk" for https://mail.example.co.uk:8443/x), or its
// scheme and IP address ("http://127.0.0.2"; the port is not part of a
// site, as it is not of the web's schemeful site). "" for a URL that names
// no http or https host. The host is expected in canonical form (the
// pipeline canonicalizes it as governance does).
func Site(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return ""
	}
	return SiteOfHost(scheme, u.Hostname())
}

// SiteOfHost is Site for a scheme and a host without its port.
func SiteOfHost(scheme, host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return ""
	}
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if a.Is6() && !a.Is4In6() {
			return scheme + "://[" + a.String() + "]"
		}
		return scheme + "://" + a.Unmap().String()
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil { // a public suffix itself, or a single label (localhost)
		d = host
	}
	return scheme + "://" + d
}

// Domain is a site's host part: "example.co.uk", "127.0.0.2", "[::1]".
func Domain(site string) string {
	_, d, _ := strings.Cut(site, "://")
	return d
}
