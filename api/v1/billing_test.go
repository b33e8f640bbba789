package v1_test

import (
	"slices"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

const webhookSecret = "whsec_test_secret"

func pro() config.PlanConfig {
	q := int64(100_000)
	return config.PlanConfig{ID: "pro", Name: "Pro", MonthlyQuota: &q, Price: 4900, Currency: "usd", StripePriceID: "price_pro"}
}

func business() config.PlanConfig {
	return config.PlanConfig{ID: "business", Name: "Business", Price: 24900, Currency: "usd", StripePriceID: "price_biz"}
}

func withStripe(f *stripeFake) func(*config.Config) {
	return func(c *config.Config) {
		c.Ops.BillingProvider = "stripe"
		c.Ops.StripeSecretKey = "sk_test_123"
		c.Ops.StripeWebhookSecret = webhookSecret
		c.Ops.StripePublishableKey = "pk_test_123"
		c.Ops.StripeAPIURL = f.URL
	}
}

// hook posts a signed payment webhook.
func (e *env) hook(payload []byte, at time.Time) *stacktest.Response {
	return e.Do("POST", "/v1/webhook/payments", payload, stacktest.Headers{billing.SignatureHeader: billing.Sign(payload, webhookSecret, at)})
}

func TestBillingOffAnswersWithTheFreePlan(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "selfhost@example.com")
	plans := must(t, e.Do("GET", "/v1/plans", nil, nil), 200, "plans")
	var list []map[string]any
	plans.JSON(t, &list)
	if len(list) != 1 || list[0]["id"] != "free" || list[0]["price"] != 0.0 || list[0]["monthlyQuota"] != 10000.0 {
		t.Errorf("plans %v", list)
	}
	sub := must(t, e.Do("GET", a.clientPath("/subscription"), nil, bearer(a.tok)), 200, "subscription").Map(t)
	if sub["source"] != "free" || sub["provider"] != "none" || sub["status"] != "active" || sub["plan"].(map[string]any)["id"] != "free" {
		t.Errorf("subscription %v", sub)
	}
	wantMessages(t, e.Do("PUT", a.clientPath("/subscription"), map[string]string{"plan": "pro"}, bearer(a.tok)), "plan must be one of free")
	must(t, e.Do("PUT", a.clientPath("/subscription"), map[string]string{"plan": "free"}, bearer(a.tok)), 200, "free stays free")
	must(t, e.Do("DELETE", a.clientPath("/subscription"), nil, bearer(a.tok)), 200, "nothing to cancel")
	if pm := must(t, e.Do("GET", a.clientPath("/paymentMethods"), nil, bearer(a.tok)), 200, "cards").Map(t); len(pm["paymentMethods"].([]any)) != 0 || pm["defaultPaymentMethod"] != nil {
		t.Errorf("payment methods %v", pm)
	}
	if pm := must(t, e.Do("GET", a.clientPath("/payment_method"), nil, bearer(a.tok)), 200, "card").Map(t); pm["paymentMethod"] != nil {
		t.Errorf("default card %v", pm)
	}
	if inv := must(t, e.Do("GET", a.clientPath("/invoices"), nil, bearer(a.tok)), 200, "invoices").Map(t); len(inv["invoices"].([]any)) != 0 {
		t.Errorf("invoices %v", inv)
	}
	off := "billing is off on this installation (HERALD_BILLING_PROVIDER=none): there is nothing to pay"
	wantError(t, e.Do("GET", a.clientPath("/setupIntent"), nil, bearer(a.tok)), 404, off)
	wantError(t, e.Do("POST", a.clientPath("/paymentMethod/pm_1/default"), nil, bearer(a.tok)), 404, "payment method not found")
	wantError(t, e.Do("DELETE", a.clientPath("/paymentMethod/pm_1"), nil, bearer(a.tok)), 404, "payment method not found")
	// The payment webhook exists without billing: a JSON 503 saying why, signed or not,
	// with a Retry-After of an hour rather than the usual second.
	unconfigured := "billing is not configured on this installation (HERALD_BILLING_PROVIDER=none): payment events are not accepted"
	for what, res := range map[string]*stacktest.Response{
		"signed event":   e.hook([]byte(`{"id":"evt_1","type":"invoice.paid"}`), time.Now()),
		"unsigned event": e.Do("POST", "/v1/webhook/payments", `{"id":"evt_1"}`, nil),
		"empty body":     e.Do("POST", "/v1/webhook/payments", nil, nil),
	} {
		wantError(t, res, 503, unconfigured)
		if ct, ra := res.Header.Get("Content-Type"), res.Header.Get("Retry-After"); ct != "application/json" || ra != "3600" {
			t.Errorf("%s: Content-Type %q, Retry-After %q", what, ct, ra)
		}
	}
}

func TestStripeSubscriptionLifecycle(t *testing.T) {
	f := newStripeFake(t)
	e := newEnv(t, withStripe(f), withPlans(1000, pro(), business()))
	a := e.tenant(t, "payer@example.com")

	var plans []map[string]any
	must(t, e.Do("GET", "/v1/plans", nil, nil), 200, "plans").JSON(t, &plans)
	if len(plans) != 3 || plans[1]["id"] != "pro" || plans[2]["monthlyQuota"] != nil {
		t.Errorf("plans %v", plans)
	}
	// Bad bodies change nothing and call no one.
	wantMessages(t, e.Do("PUT", a.clientPath("/subscription"), `{}`, bearer(a.tok)), "plan should not be empty")
	wantMessages(t, e.Do("PUT", a.clientPath("/subscription"), `{"plan":5}`, bearer(a.tok)), "plan must be a string")
	wantMessages(t, e.Do("PUT", a.clientPath("/subscription"), `{"plan":"gold"}`, bearer(a.tok)), "plan must be one of free, pro, business")
	wantMessages(t, e.Do("PUT", a.clientPath("/subscription"), `[1]`, bearer(a.tok)), "body must be a JSON object")
	if n := len(f.requests()); n != 0 {
		t.Fatalf("bad bodies reached Stripe: %v", f.requests())
	}

	// Subscribing creates the customer and an incomplete subscription to confirm in the browser.
	sub := must(t, e.Do("PUT", a.clientPath("/subscription"), map[string]string{"plan": "pro"}, bearer(a.tok)), 200, "subscribe").Map(t)
	if !slices.Equal(f.requests(), []string{"POST /v1/customers", "POST /v1/subscriptions"}) {
		t.Fatalf("Stripe calls %v", f.requests())
	}
	cust := f.last("POST", "/v1/customers")
	if cust.Form.Get("metadata[herald_client_id]") == "" || cust.Form.Get("name") != "Client of payer@example.com" {
		t.Errorf("customer created with %v", cust.Form)
	}
	if s := f.last("POST", "/v1/subscriptions"); s.Form.Get("customer") != "cus_1" || s.Form.Get("items[0][price]") != "price_pro" || s.Form.Get("payment_behavior") != "default_incomplete" {
		t.Errorf("subscription created with %v", s.Form)
	}
	if sub["status"] != "incomplete" || sub["clientSecret"] != "pi_0_secret" || sub["source"] != "free" {
		t.Errorf("answer %v: unpaid, the plan is still free", sub)
	}

	// The payment goes through: Stripe says so by webhook, and the plan is in force.
	f.setStatus("active")
	active := event("evt_1", "customer.subscription.updated", time.Now(), f.subscription("active", "price_pro", false))
	if res := e.hook(active, time.Now()); res.Status != 201 || string(res.Body) != "true" {
		t.Fatalf("webhook: %d %s", res.Status, res.Body)
	}
	sub = must(t, e.Do("GET", a.clientPath("/subscription"), nil, bearer(a.tok)), 200, "subscription").Map(t)
	if sub["status"] != "active" || sub["source"] != "subscription" || sub["plan"].(map[string]any)["id"] != "pro" || sub["currentPeriodEnd"] == nil {
		t.Errorf("after payment %v", sub)
	}
	if u := must(t, e.Do("GET", a.clientPath("/usage"), nil, bearer(a.tok)), 200, "usage").Map(t); u["quota"] != 100000.0 || u["plan"] != "pro" {
		t.Errorf("usage against the paid plan %v", u)
	}

	// An older event arriving late does not undo a newer state.
	stale := event("evt_0", "customer.subscription.updated", time.Now().Add(-time.Hour), f.subscription("incomplete", "price_pro", false))
	must(t, e.hook(stale, time.Now()), 201, "late event")
	if s := must(t, e.Do("GET", a.clientPath("/subscription"), nil, bearer(a.tok)), 200, "subscription").Map(t); s["status"] != "active" {
		t.Errorf("a late event undid the state: %v", s)
	}

	// Invoices arrive by webhook and are listed newest first.
	must(t, e.hook(event("evt_2", "invoice.paid", time.Now(), invoiceObject("in_1", "paid", 4900)), time.Now()), 201, "invoice")
	inv := must(t, e.Do("GET", a.clientPath("/invoices"), nil, bearer(a.tok)), 200, "invoices").Map(t)["invoices"].([]any)
	if len(inv) != 1 || inv[0].(map[string]any)["status"] != "paid" || inv[0].(map[string]any)["amountPaid"] != 4900.0 || inv[0].(map[string]any)["hostedInvoiceUrl"] != "https://pay.example.com/in_1" {
		t.Errorf("invoices %v", inv)
	}

	// Upgrading changes the price of the same subscription.
	sub = must(t, e.Do("PUT", a.clientPath("/subscription"), map[string]string{"plan": "business"}, bearer(a.tok)), 200, "upgrade").Map(t)
	if up := f.last("POST", "/v1/subscriptions/sub_1"); up == nil || up.Form.Get("items[0][id]") != "si_1" || up.Form.Get("items[0][price]") != "price_biz" {
		t.Errorf("upgrade sent %v", up)
	}
	if sub["plan"].(map[string]any)["id"] != "business" || sub["plan"].(map[string]any)["monthlyQuota"] != nil {
		t.Errorf("after upgrade %v", sub)
	}

	// Cancel at the period's end, withdraw the cancellation, then cancel at once.
	sub = must(t, e.Do("DELETE", a.clientPath("/subscription"), nil, bearer(a.tok)), 200, "cancel").Map(t)
	if f.last("POST", "/v1/subscriptions/sub_1").Form.Get("cancel_at_period_end") != "true" || sub["cancelAtPeriodEnd"] != true || sub["plan"].(map[string]any)["id"] != "business" {
		t.Errorf("cancel at period end: %v", sub)
	}
	sub = must(t, e.Do("DELETE", a.clientPath("/subscription/cancellationRequest"), nil, bearer(a.tok)), 200, "resume").Map(t)
	if f.last("POST", "/v1/subscriptions/sub_1").Form.Get("cancel_at_period_end") != "false" || sub["cancelAtPeriodEnd"] != false {
		t.Errorf("resume: %v", sub)
	}
	wantMessages(t, e.Do("DELETE", a.clientPath("/subscription?immediately=maybe"), nil, bearer(a.tok)), "immediately must be true or false")
	sub = must(t, e.Do("DELETE", a.clientPath("/subscription?immediately=true"), nil, bearer(a.tok)), 200, "cancel now").Map(t)
	if f.last("DELETE", "/v1/subscriptions/sub_1") == nil || sub["status"] != "canceled" || sub["source"] != "free" {
		t.Errorf("cancel now: %v", sub)
	}
}

func TestPaymentWebhookRejectsBadSignaturesStaleAndReplayedEvents(t *testing.T) {
	f := newStripeFake(t)
	e := newEnv(t, withStripe(f), withPlans(1000, pro()))
	a := e.tenant(t, "hooks@example.com")
	must(t, e.Do("GET", a.clientPath("/setupIntent"), nil, bearer(a.tok)), 200, "creates the customer")

	payload := event("evt_9", "invoice.paid", time.Now(), invoiceObject("in_9", "paid", 4900))
	wantMessages(t, e.Do("POST", "/v1/webhook/payments", payload, nil), "Stripe-Signature header is missing")
	wantMessages(t, e.Do("POST", "/v1/webhook/payments", payload, stacktest.Headers{billing.SignatureHeader: "garbage"}),
		"Stripe-Signature header must look like t=<unix time>,v1=<hex signature>")
	wantMessages(t, e.Do("POST", "/v1/webhook/payments", payload, stacktest.Headers{billing.SignatureHeader: billing.Sign(payload, "whsec_wrong", time.Now())}),
		"Stripe-Signature does not match the payload and the webhook secret")
	tampered := append([]byte{}, payload...)
	tampered[len(tampered)-2] = ' '
	wantMessages(t, e.Do("POST", "/v1/webhook/payments", tampered, stacktest.Headers{billing.SignatureHeader: billing.Sign(payload, webhookSecret, time.Now())}),
		"Stripe-Signature does not match the payload and the webhook secret")
	wantMessages(t, e.hook(payload, time.Now().Add(-6*time.Minute)), "Stripe-Signature timestamp is more than 5 minutes old: the event is stale or replayed")
	wantMessages(t, e.hook(payload, time.Now().Add(6*time.Minute)), "Stripe-Signature timestamp is more than 5 minutes in the future")
	wantMessages(t, e.hook([]byte(`{"object":"event"}`), time.Now()), "body must be a Stripe event with id, type and data.object")
	if inv := must(t, e.Do("GET", a.clientPath("/invoices"), nil, bearer(a.tok)), 200, "invoices").Map(t)["invoices"].([]any); len(inv) != 0 {
		t.Fatalf("a rejected event was applied: %v", inv)
	}

	if res := e.hook(payload, time.Now()); res.Status != 201 || string(res.Body) != "true" {
		t.Fatalf("first delivery: %d %s", res.Status, res.Body)
	}
	// The same event again (a redelivery, or a replay within the 5 minutes) is acknowledged
	// and not applied: even with different content under the same id.
	if res := e.hook(payload, time.Now()); res.Status != 200 || string(res.Body) != "false" {
		t.Errorf("replay: %d %s", res.Status, res.Body)
	}
	changed := event("evt_9", "invoice.voided", time.Now(), invoiceObject("in_9", "void", 0))
	if res := e.hook(changed, time.Now()); res.Status != 200 || string(res.Body) != "false" {
		t.Errorf("replayed id with other content: %d %s", res.Status, res.Body)
	}
	inv := must(t, e.Do("GET", a.clientPath("/invoices"), nil, bearer(a.tok)), 200, "invoices").Map(t)["invoices"].([]any)
	if len(inv) != 1 || inv[0].(map[string]any)["status"] != "paid" {
		t.Errorf("invoices after replays %v", inv)
	}
	// Events of customers Herald does not know are acknowledged and ignored.
	other := invoiceObject("in_x", "paid", 1)
	other["customer"] = "cus_unknown"
	must(t, e.hook(event("evt_10", "invoice.paid", time.Now(), other), time.Now()), 201, "unknown customer")
}

func TestPaymentMethodsAndSetupIntents(t *testing.T) {
	f := newStripeFake(t)
	e := newEnv(t, withStripe(f), withPlans(1000, pro()))
	a := e.tenant(t, "cards@example.com")
	// No customer yet: no cards, and none to change.
	if pm := must(t, e.Do("GET", a.clientPath("/paymentMethods"), nil, bearer(a.tok)), 200, "no cards").Map(t); len(pm["paymentMethods"].([]any)) != 0 {
		t.Errorf("cards before any customer %v", pm)
	}
	wantError(t, e.Do("POST", a.clientPath("/paymentMethod/pm_1/default"), nil, bearer(a.tok)), 404, "payment method not found")

	si := must(t, e.Do("GET", a.clientPath("/setupIntent"), nil, bearer(a.tok)), 200, "setup intent").Map(t)
	if si["clientSecret"] != "seti_1_secret_x" || si["publishableKey"] != "pk_test_123" {
		t.Errorf("setup intent %v", si)
	}
	if c := f.last("POST", "/v1/setup_intents"); c.Form.Get("customer") != "cus_1" || c.Form.Get("usage") != "off_session" {
		t.Errorf("setup intent created with %v", c.Form)
	}
	pm := must(t, e.Do("GET", a.clientPath("/paymentMethods"), nil, bearer(a.tok)), 200, "cards").Map(t)
	list := pm["paymentMethods"].([]any)
	if len(list) != 2 || list[0].(map[string]any)["default"] != true || list[1].(map[string]any)["last4"] != "5555" || pm["defaultPaymentMethod"].(map[string]any)["id"] != "pm_1" {
		t.Errorf("cards %v", pm)
	}
	must(t, e.Do("POST", a.clientPath("/paymentMethod/pm_2/default"), nil, bearer(a.tok)), 200, "make pm_2 the default")
	if c := f.last("POST", "/v1/customers/cus_1"); c == nil || c.Form.Get("invoice_settings[default_payment_method]") != "pm_2" {
		t.Errorf("default set with %v", c)
	}
	if d := must(t, e.Do("GET", a.clientPath("/payment_method"), nil, bearer(a.tok)), 200, "default").Map(t)["paymentMethod"].(map[string]any); d["id"] != "pm_2" {
		t.Errorf("default card %v", d)
	}
	// Cards of another customer, or unknown ones, are not found and not touched.
	before := len(f.requests())
	wantError(t, e.Do("DELETE", a.clientPath("/paymentMethod/pm_other"), nil, bearer(a.tok)), 404, "payment method not found")
	wantError(t, e.Do("POST", a.clientPath("/paymentMethod/pm_missing/default"), nil, bearer(a.tok)), 404, "payment method not found")
	for _, r := range f.requests()[before:] {
		if r != "GET /v1/payment_methods/pm_other" && r != "GET /v1/payment_methods/pm_missing" {
			t.Errorf("unexpected Stripe call %s", r)
		}
	}
	must(t, e.Do("DELETE", a.clientPath("/paymentMethod/pm_1"), nil, bearer(a.tok)), 200, "remove pm_1")
	if f.last("POST", "/v1/payment_methods/pm_1/detach") == nil {
		t.Error("pm_1 was not detached")
	}
}

func TestBillingRoutesCheckTheCaller(t *testing.T) {
	f := newStripeFake(t)
	e := newEnv(t, withStripe(f), withPlans(1000, pro()))
	a := e.tenant(t, "boss@example.com")
	b := e.tenant(t, "stranger@example.com")
	viewer := e.member(t, a.tok, a.client, "viewer@example.com", "viewer")
	dev := e.member(t, a.tok, a.client, "dev@example.com", "developer")
	must(t, e.Do("GET", a.clientPath("/subscription"), nil, bearer(viewer)), 200, "viewers see the plan")
	must(t, e.Do("GET", a.clientPath("/license"), nil, bearer(viewer)), 200, "viewers see the license")
	routes := [][2]string{{"GET", "/subscription"}, {"PUT", "/subscription"}, {"DELETE", "/subscription"}, {"DELETE", "/subscription/cancellationRequest"},
		{"GET", "/paymentMethods"}, {"POST", "/paymentMethod/pm_1/default"}, {"DELETE", "/paymentMethod/pm_1"}, {"GET", "/setupIntent"},
		{"GET", "/payment_method"}, {"GET", "/invoices"}, {"GET", "/license"}}
	for _, r := range routes {
		body := map[string]string{"plan": "pro"}
		if res := e.Do(r[0], a.clientPath(r[1]), body, nil); res.Status != 401 {
			t.Errorf("%s %s without a token: %d", r[0], r[1], res.Status)
		}
		if res := e.Do(r[0], a.clientPath(r[1]), body, bearer(b.tok)); res.Status != 404 {
			t.Errorf("%s %s of another client: %d", r[0], r[1], res.Status)
		}
		if r[1] == "/subscription" && r[0] == "GET" || r[1] == "/license" {
			continue
		}
		if res := e.Do(r[0], a.clientPath(r[1]), body, bearer(dev)); res.Status != 403 {
			t.Errorf("%s %s by a developer: %d", r[0], r[1], res.Status)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("refused calls reached Stripe: %v", f.requests())
	}
}
