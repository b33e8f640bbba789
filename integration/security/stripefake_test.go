package security

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// stripeFake stands in for the Stripe API (a third-party service) with several customers:
// each has its cards and its default card, so a payment method of one tenant is another
// customer's at the fake, as at Stripe. Its state is part of the suites' snapshots (rows),
// so a request that detaches or promotes another tenant's card is caught like a database
// write.
type stripeFake struct {
	*httptest.Server
	mu        sync.Mutex
	customers map[string]*fakeCustomer
	cards     map[string]*fakeCard
	n         int
}

type fakeCustomer struct {
	id, name, defaultCard string
	clientID              int64
}

type fakeCard struct {
	id, customer, last4 string
}

func newStripeFake(t *testing.T) *stripeFake {
	t.Helper()
	f := &stripeFake{customers: map[string]*fakeCustomer{}, cards: map[string]*fakeCard{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// addCard saves a card for the customer of a client, as the browser does once a setup
// intent is confirmed, and makes it the default when the customer has none.
func (f *stripeFake) addCard(t *testing.T, clientID int64) string {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.customers {
		if c.clientID == clientID {
			f.n++
			card := &fakeCard{id: fmt.Sprintf("pm_%d", f.n), customer: c.id, last4: fmt.Sprintf("%04d", f.n)}
			f.cards[card.id] = card
			if c.defaultCard == "" {
				c.defaultCard = card.id
			}
			return card.id
		}
	}
	t.Fatalf("stripe fake: client %d has no customer", clientID)
	return ""
}

// rows is the fake's state as snapshot tables: customers and cards, each naming the
// client it belongs to (client_id), so ownerOf tells whose they are.
func (f *stripeFake) rows() map[string]map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]map[string]string{"stripe.customers": {}, "stripe.payment_methods": {}}
	for _, c := range f.customers {
		b, _ := json.Marshal(map[string]any{"id": c.id, "client_id": c.clientID, "name": c.name, "default_payment_method": c.defaultCard})
		out["stripe.customers"][c.id] = string(b)
	}
	for _, p := range f.cards {
		owner := int64(0)
		if c := f.customers[p.customer]; c != nil {
			owner = c.clientID
		}
		b, _ := json.Marshal(map[string]any{"id": p.id, "customer": p.customer, "client_id": owner})
		out["stripe.payment_methods"][p.id] = string(b)
	}
	return out
}

func (f *stripeFake) card(p *fakeCard) map[string]any {
	var customer any
	if p.customer != "" {
		customer = p.customer
	}
	return map[string]any{"id": p.id, "object": "payment_method", "type": "card", "customer": customer,
		"card": map[string]any{"brand": "visa", "last4": p.last4, "exp_month": 12, "exp_year": 2030}}
}

func (f *stripeFake) serve(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f.mu.Lock()
	defer f.mu.Unlock()
	answer := func(v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	missing := func() {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"type": "invalid_request_error", "code": "resource_missing", "message": "No such object"}})
	}
	p := r.URL.Path
	switch {
	case r.Method == "POST" && p == "/v1/customers":
		f.n++
		client, _ := strconv.ParseInt(r.Form.Get("metadata[herald_client_id]"), 10, 64)
		c := &fakeCustomer{id: fmt.Sprintf("cus_%d", f.n), name: r.Form.Get("name"), clientID: client}
		f.customers[c.id] = c
		answer(map[string]any{"id": c.id, "object": "customer", "name": c.name})
	case strings.HasPrefix(p, "/v1/customers/"):
		c := f.customers[strings.TrimPrefix(p, "/v1/customers/")]
		if c == nil {
			missing()
			return
		}
		if r.Method == "POST" {
			if pm := r.Form.Get("invoice_settings[default_payment_method]"); pm != "" {
				if card := f.cards[pm]; card == nil || card.customer != c.id {
					missing()
					return
				}
				c.defaultCard = pm
			}
		}
		var def any
		if c.defaultCard != "" {
			def = c.defaultCard
		}
		answer(map[string]any{"id": c.id, "object": "customer", "name": c.name, "invoice_settings": map[string]any{"default_payment_method": def}})
	case r.Method == "GET" && p == "/v1/payment_methods":
		list := []any{}
		for _, card := range f.cards {
			if card.customer != "" && card.customer == r.Form.Get("customer") {
				list = append(list, f.card(card))
			}
		}
		answer(map[string]any{"object": "list", "url": "/v1/payment_methods", "has_more": false, "data": list})
	case strings.HasPrefix(p, "/v1/payment_methods/"):
		id, detach := strings.CutSuffix(strings.TrimPrefix(p, "/v1/payment_methods/"), "/detach")
		card := f.cards[id]
		switch {
		case card == nil:
			missing()
		case detach && r.Method == "POST":
			if c := f.customers[card.customer]; c != nil && c.defaultCard == id {
				c.defaultCard = ""
			}
			card.customer = ""
			answer(f.card(card))
		case !detach && r.Method == "GET":
			answer(f.card(card))
		default:
			missing()
		}
	case r.Method == "POST" && p == "/v1/setup_intents":
		if f.customers[r.Form.Get("customer")] == nil {
			missing()
			return
		}
		f.n++
		answer(map[string]any{"id": fmt.Sprintf("seti_%d", f.n), "object": "setup_intent", "client_secret": fmt.Sprintf("seti_%d_secret", f.n), "customer": r.Form.Get("customer")})
	default:
		missing()
	}
}
