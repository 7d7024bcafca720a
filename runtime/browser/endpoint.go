package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-rod/rod/lib/cdp"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// A configured endpoint is a browser on this machine, on another host, in a
// container, or behind a pool (browserless, a Selenium Grid 4 node):
//
//   - ws:// or wss://: the DevTools browser websocket as given, path and query
//     kept (a pool's `ws://pool:3000/chromium?token=…`, a Grid node's
//     `ws://node:4444/session/<id>/se/cdp`);
//   - http(s)://host:port[/prefix][?query] or bare host:port: resolved through
//     `<prefix>/json/version` (query kept), reached at the host as written
//     (a browser reports "localhost" or its container address), the query
//     carried onto the websocket when the browser's URL has none;
//   - user:password@ in either form is sent as HTTP basic authorization.
//
// Chromium answers 500 to a Host header that is a name other than localhost
// (DNS-rebinding protection; measured on Chromium 156, /json/version and the
// websocket alike): a browser reached by a container or host name is asked
// again with the address the name resolves to as Host.

// endpoint is a resolved DevTools browser websocket and the headers its
// handshake carries.
type endpoint struct {
	ws     string
	header http.Header // Authorization, Host; nil when neither is needed
}

// hostRefusal is the start of Chromium's answer to a Host header it refuses.
const hostRefusal = "Host header is specified and is not an IP address or localhost"

// resolveEndpoint turns a configured endpoint into the browser websocket to dial.
func resolveEndpoint(ctx context.Context, raw string) (endpoint, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return endpoint{}, errors.New("no endpoint configured")
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return endpoint{}, errors.New("the endpoint is not a URL with a host")
	}
	var ep endpoint
	if u.User != nil { // sent as a header, never in the URL
		pw, _ := u.User.Password()
		ep.header = http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw))}}
		u.User = nil
	}
	switch u.Scheme {
	case "ws", "wss":
		ep.ws = u.String()
		return ep, nil
	case "http", "https":
	default:
		return endpoint{}, fmt.Errorf("unsupported endpoint scheme %q (ws, wss, http or https)", u.Scheme)
	}
	v := *u
	v.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/json/version"), "/") + "/json/version"
	body, status, err := getVersion(ctx, &v, ep.header, "")
	if err == nil && status == http.StatusInternalServerError && strings.Contains(body, hostRefusal) {
		var host string
		if host, err = addressHost(ctx, u.Host); err == nil {
			body, status, err = getVersion(ctx, &v, ep.header, host)
			ep.header = withHeader(ep.header, "Host", host)
		}
	}
	if err != nil {
		return endpoint{}, err
	}
	if status != http.StatusOK {
		return endpoint{}, fmt.Errorf("%s/json/version answered %d", u.Host, status)
	}
	var version struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.Unmarshal([]byte(body), &version); err != nil {
		return endpoint{}, fmt.Errorf("%s/json/version is not DevTools JSON", u.Host)
	}
	ws, err := url.Parse(version.WebSocketDebuggerURL)
	if err != nil || version.WebSocketDebuggerURL == "" {
		return endpoint{}, fmt.Errorf("no webSocketDebuggerUrl at %s/json/version", u.Host)
	}
	ws.Host, ws.User = u.Host, nil
	ws.Scheme = "ws"
	if u.Scheme == "https" {
		ws.Scheme = "wss"
	}
	if ws.RawQuery == "" {
		ws.RawQuery = u.RawQuery // a pool's token is needed on the socket too
	}
	ep.ws = ws.String()
	return ep, nil
}

// getVersion fetches /json/version (the body bounded), with host as the Host
// header when it is not "".
func getVersion(ctx context.Context, u *url.URL, header http.Header, host string) (string, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", 0, err
	}
	for k, vs := range header {
		if k != "Host" {
			req.Header[k] = vs
		}
	}
	if host != "" {
		req.Host = host
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", 0, err
	}
	defer func() { _ = res.Body.Close() }()
	b, err := io.ReadAll(io.LimitReader(res.Body, limits.DevtoolsVersionBytesMax))
	return string(b), res.StatusCode, err
}

// addressHost is host:port with the name resolved to an address, as the Host
// header Chromium accepts.
func addressHost(ctx context.Context, hostport string) (string, error) {
	h, port, err := net.SplitHostPort(hostport)
	if err != nil {
		h, port = hostport, ""
	}
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, h)
	if err != nil || len(ips) == 0 {
		return "", fmt.Errorf("%s does not resolve: %w", h, err)
	}
	a := ips[0].IP.String()
	if port == "" {
		if strings.Contains(a, ":") {
			return "[" + a + "]", nil
		}
		return a, nil
	}
	return net.JoinHostPort(a, port), nil
}

func withHeader(h http.Header, k, v string) http.Header {
	if h == nil {
		h = http.Header{}
	}
	h.Set(k, v)
	return h
}

// hostRefused reports a websocket handshake Chromium refused for its Host.
func hostRefused(err error) bool {
	var bh *cdp.BadHandshakeError
	return errors.As(err, &bh) && strings.Contains(bh.Body, hostRefusal)
}

// EndpointHost is the host:port of a configured endpoint, as a refusal names it (never
// its path, query or credentials); the endpoint as written when it does not parse.
func EndpointHost(endpoint string) string {
	e := strings.TrimSpace(endpoint)
	if !strings.Contains(e, "://") {
		e = "http://" + e
	}
	if u, err := url.Parse(e); err == nil && u.Host != "" {
		return u.Host
	}
	return strings.TrimSpace(endpoint)
}

// connectionError is the error a connection attempt met, without the request line Go's
// HTTP client wraps around it ("Get \"http://…/json/version\": dial tcp …" becomes
// "dial tcp …: connection refused"), so no path, query token or credential of the
// endpoint reaches a refusal or a log.
func connectionError(err error) error {
	if err == nil {
		return errors.New("no DevTools endpoint answered")
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}
