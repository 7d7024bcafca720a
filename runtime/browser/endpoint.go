package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// resolveEndpoint turns a configured endpoint into a DevTools browser websocket URL:
// ws:// and wss:// pass through; http(s)://host:port (or bare host:port) is resolved
// through /json/version, keeping the configured host so a browser that reports
// "localhost" or a container address is still reached the way the user wrote it.
func resolveEndpoint(ctx context.Context, endpoint string) (string, error) {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		return "", fmt.Errorf("no endpoint configured")
	}
	if !strings.Contains(endpoint, "://") {
		endpoint = "http://" + endpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", err
	}
	switch u.Scheme {
	case "ws", "wss":
		return u.String(), nil
	case "http", "https":
	default:
		return "", fmt.Errorf("unsupported endpoint scheme %q", u.Scheme)
	}
	u.Path = "/json/version"
	u.RawQuery = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = res.Body.Close() }()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s", u.Redacted(), res.Status)
	}
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<16)).Decode(&v); err != nil {
		return "", err
	}
	ws, err := url.Parse(v.WebSocketDebuggerURL)
	if err != nil || ws.Path == "" {
		return "", fmt.Errorf("no webSocketDebuggerUrl at %s", u.Redacted())
	}
	ws.Host = u.Host
	if u.Scheme == "https" {
		ws.Scheme = "wss"
	} else {
		ws.Scheme = "ws"
	}
	return ws.String(), nil
}

// EndpointHost is the host:port of a configured endpoint, as a refusal names it (never
// its path or credentials); the endpoint as written when it does not parse.
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
// "dial tcp …: connection refused").
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
