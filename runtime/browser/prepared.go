package browser

import "context"

// Prepared finds the browsers a person opened the way this installation prepared them
// (runtime/browser/registry implements it over the registrations `ghostlight install`
// writes). The executor asks it on every start that may not launch, so a browser the
// person opens after a refusal is found by the next call, with no server restart.
type Prepared interface {
	// Survey reads the registrations of the installed browsers, repairing stale ones
	// of this installation silently, and says what it found.
	Survey(ctx context.Context, installed []Installed) Survey
}

// Survey is what the registrations say about the installed browsers.
type Survey struct {
	// Live is the DevTools websocket URL of a running prepared browser ("" = none runs),
	// LiveName its product name.
	Live, LiveName string
	// Prepared are the installed browsers with a usable registration of this
	// installation, in listing order.
	Prepared []Installed
	// Foreign: an installed browser's registration belongs to another installation.
	Foreign bool
}
