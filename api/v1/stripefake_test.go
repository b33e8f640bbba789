package v1_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// stripeFake is a local stand-in for the Stripe API: it keeps one customer's
// subscription and cards and records every request it gets.
type stripeFake struct {
	*httptest.Server
	mu       sync.Mutex
	calls    []stripeCall
	sub      map[string]any // the subscription, nil before one is created
	defaults string         // the customer's default payment method
	periodAt int64
}

type stripeCall struct {
	Method, Path string
	Form         url.Values
}

func newStripeFake(t *testing.T) *stripeFake {
	f := &stripeFake{defaults: "pm_1", periodAt: time.Now().Add(30 * 24 * time.Hour).Unix()}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// requests returns the recorded "METHOD path" of each call.
func (f *stripeFake) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.calls))
	for i, c := range f.calls {
		out[i] = c.Method + " " + c.Path
	}
	return out
}

// last returns the last call to a path.
func (f *stripeFake) last(method, path string) *stripeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.calls) - 1; i >= 0; i-- {
		if f.calls[i].Method == method && f.calls[i].Path == path {
			return &f.calls[i]
		}
	}
	return nil
}

// setStatus changes the subscription's status, as a payment would.
func (f *stripeFake) setStatus(status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sub["status"] = status
}

func (f *stripeFake) subscription(status, price string, cancelAtEnd bool) map[string]any {
	return map[string]any{"id": "sub_1", "object": "subscription", "customer": "cus_1", "status": status,
		"cancel_at_period_end": cancelAtEnd, "created": time.Now().Unix(),
		"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "object": "subscription_item",
			"current_period_end": f.periodAt, "price": map[string]any{"id": price, "object": "price"}}}}}
}

func card(id, customer, last4 string) map[string]any {
	return map[string]any{"id": id, "object": "payment_method", "type": "card", "customer": customer,
		"card": map[string]any{"brand": "visa", "last4": last4, "exp_month": 12, "exp_year": 2030}}
}

func (f *stripeFake) serve(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, stripeCall{Method: r.Method, Path: r.URL.Path, Form: r.Form})
	answer := func(v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	missing := func() {
		w.WriteHeader(http.StatusNotFound)
		answer(map[string]any{"error": map[string]any{"type": "invalid_request_error", "code": "resource_missing", "message": "No such object"}})
	}
	pms := map[string]map[string]any{"pm_1": card("pm_1", "cus_1", "4242"), "pm_2": card("pm_2", "cus_1", "5555"), "pm_other": card("pm_other", "cus_other", "0000")}
	switch p := r.URL.Path; {
	case r.Method == "POST" && p == "/v1/customers":
		answer(map[string]any{"id": "cus_1", "object": "customer", "name": r.Form.Get("name")})
	case r.Method == "GET" && p == "/v1/customers/cus_1":
		answer(map[string]any{"id": "cus_1", "object": "customer", "invoice_settings": map[string]any{"default_payment_method": f.defaults}})
	case r.Method == "POST" && p == "/v1/customers/cus_1":
		f.defaults = r.Form.Get("invoice_settings[default_payment_method]")
		answer(map[string]any{"id": "cus_1", "object": "customer"})
	case r.Method == "POST" && p == "/v1/subscriptions":
		f.sub = f.subscription("incomplete", r.Form.Get("items[0][price]"), false)
		out := f.sub
		out["latest_invoice"] = map[string]any{"id": "in_0", "object": "invoice", "confirmation_secret": map[string]any{"client_secret": "pi_0_secret", "type": "payment_intent"}}
		answer(out)
		delete(f.sub, "latest_invoice")
	case p == "/v1/subscriptions/sub_1" && f.sub != nil:
		switch r.Method {
		case "DELETE":
			f.sub["status"] = "canceled"
		case "POST":
			if v := r.Form.Get("cancel_at_period_end"); v != "" {
				f.sub["cancel_at_period_end"] = v == "true"
			}
			if price := r.Form.Get("items[0][price]"); price != "" {
				f.sub = f.subscription(f.sub["status"].(string), price, f.sub["cancel_at_period_end"].(bool))
			}
		}
		answer(f.sub)
	case r.Method == "GET" && p == "/v1/payment_methods":
		answer(map[string]any{"object": "list", "url": "/v1/payment_methods", "has_more": false, "data": []any{pms["pm_1"], pms["pm_2"]}})
	case r.Method == "GET" && strings.HasPrefix(p, "/v1/payment_methods/"):
		if pm, ok := pms[strings.TrimPrefix(p, "/v1/payment_methods/")]; ok {
			answer(pm)
			return
		}
		missing()
	case r.Method == "POST" && strings.HasSuffix(p, "/detach"):
		answer(pms[strings.TrimSuffix(strings.TrimPrefix(p, "/v1/payment_methods/"), "/detach")])
	case r.Method == "POST" && p == "/v1/setup_intents":
		answer(map[string]any{"id": "seti_1", "object": "setup_intent", "client_secret": "seti_1_secret_x", "customer": r.Form.Get("customer")})
	default:
		missing()
	}
}

// event is a Stripe webhook event around an object.
func event(id, typ string, created time.Time, object map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"id": id, "object": "event", "type": typ, "created": created.Unix(),
		"api_version": "2025-01-01", "data": map[string]any{"object": object}})
	return b
}

func invoiceObject(id, status string, paid int64) map[string]any {
	return map[string]any{"id": id, "object": "invoice", "customer": "cus_1", "number": "INV-" + id, "status": status,
		"currency": "usd", "amount_due": 4900, "amount_paid": paid, "created": time.Now().Add(-time.Minute).Unix(),
		"period_start": time.Now().Add(-time.Hour).Unix(), "period_end": time.Now().Unix(),
		"hosted_invoice_url": fmt.Sprintf("https://pay.example.com/%s", id), "invoice_pdf": fmt.Sprintf("https://pay.example.com/%s.pdf", id)}
}
