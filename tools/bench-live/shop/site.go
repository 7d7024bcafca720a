// Package shop is the site bench-live and the conformance suite serve on
// 127.0.0.1: one page for the routine steps, and a small shop for the task.
package shop

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"sync"
)

// routinePage holds what every routine step acts on: a title, a link that
// opens a new tab, a target far down the page, a 12-control form whose Save
// button changes the DOM (and starts no request), and a name field to type in.
const routinePage = `<!doctype html><title>Routine</title>
<h1>Routine steps</h1>
<p><a href="/other" target="_blank">Open the other page</a></p>
<form id="f" onsubmit="return false">
<label>Name <input id="name" name="name"></label>
<label>Email <input type="email" name="email"></label>
<label>Phone <input type="tel" name="phone"></label>
<label>Street <input name="street"></label>
<label>City <input name="city"></label>
<label>Postal code <input name="zip"></label>
<label>Country <select name="country"><option>France</option><option>Japan</option></select></label>
<label>Notes <textarea name="notes"></textarea></label>
<label><input type="checkbox" name="news"> Newsletter</label>
<label><input type="radio" name="ship" value="std" checked> Standard</label>
<label><input type="radio" name="ship" value="fast"> Express</label>
<button id="save" type="button" onclick="document.getElementById('out').insertAdjacentHTML('beforeend','<p>Saved</p>')">Save</button>
</form>
<div id="out"></div>
<div style="height:3000px"></div>
<p id="far">The far paragraph</p>
<div style="height:600px"></div>`

const otherPage = `<!doctype html><title>Other</title><p>The other page.</p>`

// shop is a store with search, two products, a cart and a checkout.
type shop struct {
	mu    sync.Mutex
	cart  []string
	order int
}

var products = []struct{ id, name, price string }{{"1", "Desk Lamp", "24.00"}, {"2", "Floor Lamp", "59.00"}}

func (s *shop) page(w http.ResponseWriter, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><title>%s - Lumen shop</title><header><a href="/shop">Lumen shop</a> <a href="/shop/cart">Cart</a></header><main>%s</main>`, html.EscapeString(title), body)
}

// Handler serves the routine page and a fresh shop.
func Handler() http.Handler { return (&shop{}).handler() }

func (s *shop) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/page":
			fmt.Fprint(w, routinePage)
		case "/other":
			fmt.Fprint(w, otherPage)
		default:
			http.NotFound(w, r)
		}
	})
	mux.HandleFunc("/shop", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.cart = nil // a fresh visit starts a fresh cart
		s.mu.Unlock()
		s.page(w, "Home", `<h1>Lumen shop</h1><form action="/shop/search" role="search"><input name="q" aria-label="Search products"> <button>Search</button></form>`)
	})
	mux.HandleFunc("/shop/search", func(w http.ResponseWriter, r *http.Request) {
		q := strings.ToLower(r.URL.Query().Get("q"))
		var b strings.Builder
		fmt.Fprintf(&b, `<h1>Results for %s</h1><ul>`, html.EscapeString(q))
		for _, p := range products {
			if strings.Contains(strings.ToLower(p.name), q) {
				fmt.Fprintf(&b, `<li><a href="/shop/p/%s">%s</a> %s EUR</li>`, p.id, p.name, p.price)
			}
		}
		b.WriteString(`</ul>`)
		s.page(w, "Search", b.String())
	})
	for _, p := range products {
		p := p
		mux.HandleFunc("/shop/p/"+p.id, func(w http.ResponseWriter, r *http.Request) {
			s.page(w, p.name, fmt.Sprintf(`<h1>%s</h1><p>%s EUR</p><button onclick="fetch('/shop/cart/add?id=%s',{method:'POST'}).then(function(){document.getElementById('st').textContent='Added to the cart'})">Add to cart</button><p id="st" role="status"></p>`, p.name, p.price, p.id))
		})
	}
	mux.HandleFunc("/shop/cart/add", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST", http.StatusMethodNotAllowed)
			return
		}
		s.mu.Lock()
		s.cart = append(s.cart, r.URL.Query().Get("id"))
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/shop/cart", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		items := append([]string(nil), s.cart...)
		s.mu.Unlock()
		var b strings.Builder
		b.WriteString(`<h1>Cart</h1><ul>`)
		for _, id := range items {
			for _, p := range products {
				if p.id == id {
					fmt.Fprintf(&b, `<li>%s %s EUR</li>`, p.name, p.price)
				}
			}
		}
		fmt.Fprintf(&b, `</ul><p>%d items</p><a href="/shop/checkout">Checkout</a>`, len(items))
		s.page(w, "Cart", b.String())
	})
	mux.HandleFunc("/shop/checkout", func(w http.ResponseWriter, r *http.Request) {
		s.page(w, "Checkout", `<h1>Checkout</h1><form method="post" action="/shop/order">
<label>Full name <input name="name" required></label>
<label>Email <input type="email" name="email" required></label>
<label>Address <input name="address" required></label>
<label>City <input name="city" required></label>
<label>Postal code <input name="zip" required></label>
<button>Place order</button></form>`)
	})
	mux.HandleFunc("/shop/order", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.order++
		n, items := s.order, len(s.cart)
		s.cart = nil
		s.mu.Unlock()
		_ = r.ParseForm()
		http.Redirect(w, r, fmt.Sprintf("/shop/done?order=%d&items=%d&name=%s", 1000+n, items, r.Form.Get("name")), http.StatusSeeOther)
	})
	mux.HandleFunc("/shop/done", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		s.page(w, "Order confirmed", fmt.Sprintf(`<h1>Thank you, %s</h1><p>Order %s is confirmed: %s items.</p>`,
			html.EscapeString(q.Get("name")), html.EscapeString(q.Get("order")), html.EscapeString(q.Get("items"))))
	})
	return mux
}

// Steps is the task: search, open two products, add both to the cart,
// check out, fill the form and place the order, read the confirmation.
func Steps(base string) [][2]string {
	return [][2]string{
		{"browser_navigate", `{"url":"` + base + `/shop"}`},
		{"browser_type_text", `{"selector":{"name":"Search products"},"text":"lamp"}`},
		{"browser_click", `{"selector":{"name":"Search","role":"button"}}`},
		{"browser_click", `{"selector":{"name":"Desk Lamp","role":"link"}}`},
		{"browser_click", `{"selector":{"name":"Add to cart","role":"button"}}`},
		{"browser_history", `{"action":"back"}`},
		{"browser_click", `{"selector":{"name":"Floor Lamp","role":"link"}}`},
		{"browser_click", `{"selector":{"name":"Add to cart","role":"button"}}`},
		{"browser_click", `{"selector":{"name":"Cart","role":"link"}}`},
		{"browser_click", `{"selector":{"name":"Checkout","role":"link"}}`},
		{"browser_fill_form", `{"fields":[{"selector":{"name":"Full name"},"value":"Ada Lovelace"},{"selector":{"name":"Email"},"value":"ada@example.com"},{"selector":{"name":"Address"},"value":"12 Analytical Row"},{"selector":{"name":"City"},"value":"London"},{"selector":{"name":"Postal code"},"value":"N1 9GU"}],"submit_selector":{"name":"Place order"}}`},
		{"browser_read", `{"mode":"visible"}`},
	}
}

// Confirmed says whether a result's text shows the order confirmed with both items.
func Confirmed(text string) bool { return strings.Contains(text, "is confirmed: 2 items") }
