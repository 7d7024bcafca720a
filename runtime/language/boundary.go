package language

// What a result says of the host boundary: requests it stopped, pages
// outside the hosts a call may reach, a URL that answered with a download.

import (
	"fmt"
	"sort"
)

// BlockedKind is what the host boundary stopped; a call's sentences come in
// this order.
type BlockedKind int

const (
	BlockedNavigation BlockedKind = iota // a tab's own document
	BlockedFrame                         // a frame's document
	BlockedPopup                         // the first document of a tab a page opened
	BlockedRequest                       // any other request, WebSocket handshakes included
)

// Blocked is one request the host boundary stopped: its host (as governance
// names it) and the layer whose rules decided.
type Blocked struct {
	Kind        BlockedKind
	Host, Layer string
}

// BlockedSentences words a call's blocked requests: one sentence per kind,
// each naming the host and the deciding layer.
func BlockedSentences(recs []Blocked) []string {
	first := map[BlockedKind]Blocked{}
	count := map[BlockedKind]int{}
	mixed := map[BlockedKind]bool{} // requests to more than one host
	var order []BlockedKind
	for _, b := range recs {
		k := b.Kind
		if count[k] == 0 {
			first[k] = b
			order = append(order, k)
		} else if first[k].Host != b.Host {
			mixed[k] = true
		}
		count[k]++
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	var out []string
	for _, k := range order {
		b := first[k]
		by := LayerHostRules(b.Layer)
		switch k {
		case BlockedNavigation:
			out = append(out, fmt.Sprintf("The page's navigation to %s was stopped before it left the browser (%s); the tab stayed on its page.", b.Host, by))
		case BlockedPopup:
			what := "A popup"
			if count[k] > 1 {
				what = fmt.Sprintf("%d popups", count[k])
			}
			out = append(out, fmt.Sprintf("%s to %s %s closed before loading (%s).", what, b.Host, wasWere(count[k]), by))
		case BlockedFrame:
			out = append(out, fmt.Sprintf("A frame from %s was not loaded (%s).", b.Host, by))
		default:
			what, to := "A request", b.Host
			if count[k] > 1 {
				what = fmt.Sprintf("%d requests", count[k])
			}
			if mixed[k] {
				to += " and other hosts"
			}
			out = append(out, fmt.Sprintf("%s to %s %s failed in the browser (%s).", what, to, wasWere(count[k]), by))
		}
	}
	return out
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// Withheld says that some URLs and titles a result would name (what: "2
// tabs are") were cut to their origin.
func Withheld(what string, n int) string {
	its := "their"
	if n == 1 {
		its = "its"
	}
	return fmt.Sprintf("%s outside the hosts this call may reach: only %s origin is shown, the rest of the URL and the title are withheld.", what, its)
}

// LandedOutside says a navigation-like call landed on host, outside the
// hosts the session may reach.
func LandedOutside(host string) string {
	return fmt.Sprintf("The tab landed on %s, outside the hosts this session may reach; further calls on it are refused until it leaves.", host)
}

// AnsweredWithDownload says a navigation's URL answered with a download.
const AnsweredWithDownload = "The URL answered with a download, so no page loaded; the tab stayed on its page."
