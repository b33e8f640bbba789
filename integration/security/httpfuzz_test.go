package security

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// oddValues go into path parameters: out of range, not numbers, traversal, encodings,
// injection, very long.
var oddValues = []string{
	"0", "-1", "99999999999999999999", "1e3", "0x10", "null", "%00", "..%2F..%2Fetc%2Fpasswd", "%2e%2e",
	"%F0%9F%92%A9", url.PathEscape("'; DROP TABLE users; --"), url.PathEscape("{{7*7}}"), "%20", strings.Repeat("a", 4000),
}

// oddQuery is appended to the reads: bad paging, filters and identifiers.
const oddQuery = "?limit=-1&pageNo=0&page=abc&filter=%00&category=%27%22&userIdentifier=&pageNo=99999999999999999999&limit=1e9"

// nested is n levels of JSON arrays or objects.
func nested(n int, object bool) string {
	if object {
		return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
	}
	return strings.Repeat("[", n) + strings.Repeat("]", n)
}

// badBody is one malformed body with its content type.
type badBody struct {
	name, contentType, body string
}

// badBodies are sent to every route that takes a body.
func badBodies(limit int) []badBody {
	swapped, _ := json.Marshal(map[string]any{
		"title": []any{}, "name": map[string]any{}, "identifier": 123, "email": false, "users": "x", "channels": map[string]any{"a": 1},
		"notification": "x", "sendTo": 1, "recipients": map[string]any{}, "profile": []any{}, "state": 7, "role": []any{}, "password": map[string]any{},
		"code": 1.5, "data": "x", "steps": "x", "config": 1, "conditions": map[string]any{}, "enabled": "yes", "limit": -1, "page": "x",
		"priority": "high", "url": 123, "deviceType": []any{}, "refreshToken": 5, "recoveryCode": []any{}, "preference": "x", "op": 1, "path": []any{},
		"endpoint": 1, "keys": "x", "secureAuth": "x", "apiKey": 1, "locale": 5, "content": 1, "categoryId": "abc", "id": -1,
	})
	json := "application/json"
	return []badBody{
		{"truncated JSON", json, `{"a":`},
		{"not JSON", json, "\x00\xff\xfe garbage"},
		{"trailing garbage", json, `{} {}`},
		{"array", json, `[]`},
		{"string", json, `"string"`},
		{"number", json, `123`},
		{"null", json, `null`},
		{"wrong types", json, string(swapped)},
		{"invalid UTF-8 and surrogates", json, "{\"name\":\"\xff\",\"identifier\":\"\\ud800\",\"title\":\"\\u0000\"}"},
		{"huge number", json, `{"limit":1e400,"id":123456789012345678901234567890}`},
		{"deep arrays", json, nested(100000, false)},
		{"deep objects", json, nested(50000, true)},
		{"oversized", json, `{"a":"` + strings.Repeat("x", limit) + `"}`},
		{"form", "application/x-www-form-urlencoded", "a=1&b=%ZZ"},
		{"multipart without boundary", "multipart/form-data", "--x\r\n\r\n"},
		{"text", "text/plain", "{}"},
	}
}

// TestHTTPFuzzEveryRoute sends to every registered route odd path parameters, odd query
// strings, and malformed, wrongly typed, deeply nested and oversized bodies, with valid
// credentials so the handlers are reached (the payment webhook's bodies are signed; the
// world configures billing and licensing, so their handlers parse rather than answer "not
// configured"). No answer may be a 5xx or a broken connection (a panic would be a 500;
// the one exception is the health document, 503 while Temporal is down, as it is here),
// oversized bodies get 413, and a refused request writes nothing: the database and the
// Stripe fake are compared row by row after each request.
func TestHTTPFuzzEveryRoute(t *testing.T) {
	w := newWorld(t)
	e, a := w.e, w.a
	// Fuzzing sends what no document describes (huge headers, bodies to routes that take
	// none, any Content-Type): the answers are checked below, not against the documents.
	e.OutOfContract = true
	snap := newSnapshotter(t, e, w.stripe.rows)
	routes := registeredRoutes(t, e)
	// Signing out ends the session the other requests use: it goes last.
	sort.SliceStable(routes, func(i, j int) bool {
		return !strings.Contains(routes[i].path, "signout") && strings.Contains(routes[j].path, "signout")
	})
	bodies := badBodies(int(e.Cfg.BodyLimit))
	state := snap.take(t)
	requests := 0
	statuses := map[int]int{}
	ignoresBody := map[string]bool{}
	// send makes one request and checks the answer and what it wrote.
	send := func(r route, path, contentType, body, what string) {
		t.Helper()
		h := a.headers(e, r.path)
		if sign, ok := signedBodies[r.String()]; ok {
			h = sign(body)
		}
		res := rawDo(t, e, r.method, path, contentType, body, h)
		requests++
		statuses[res.Status]++
		after := snap.take(t)
		changes := state.diff(after)
		state = after
		what = r.String() + " with " + what
		switch {
		case (r.path == "/v1/health" || r.path == "/readyz") && (res.Status == 200 || res.Status == 503):
			// The health document and the readiness probe: 503 while a dependency (here
			// Temporal) is down.
		case res.Status == 0 || res.Status >= 500:
			t.Errorf("%s: %d %.300s", what, res.Status, res.Body)
		case strings.HasSuffix(what, "an oversized body") && res.Status != 413 && r.path != "/v1/files":
			t.Errorf("%s: %d, want 413", what, res.Status)
		case res.Status >= 400 && !strings.Contains(string(res.Body), `"status":"error"`):
			t.Errorf("%s: %d without the error envelope: %.300s", what, res.Status, res.Body)
		case res.Status < 400 && strings.HasSuffix(what, " body"):
			ignoresBody[r.String()] = true
		}
		if res.Status >= 400 {
			for _, c := range changes {
				if c.table == "rate_limit_buckets" && (r.path == "/unsubscribe/:token" || r.path == "/preferences/:token") {
					// The public unsubscribe and preference links spend their client
					// address's budget on every call, refused ones first (guessing tokens
					// must cost).
					continue
				}
				if res.Status == 429 && c.table == "rate_limit_buckets" {
					// A budget that ran out brings its own bucket up to date (the
					// invitation budgets of a route called this many times).
					continue
				}
				t.Errorf("%s was refused (%d) but wrote: %s", what, res.Status, c)
			}
		}
	}
	for _, r := range routes {
		if _, stream := streams[r.path]; stream {
			continue
		}
		own := map[string]string{}
		for _, p := range r.params {
			own[p] = "1"
			if f, ok := fixtureFor(r, p); ok {
				own[p] = f.value(a)
			}
		}
		// Odd values in each parameter.
		for _, p := range r.params {
			for _, v := range oddValues {
				vals := clone(own)
				vals[p] = v
				send(r, r.fill(vals), "application/json", emptyBody(r.method), fmt.Sprintf(":%s = %.20q", p, v))
			}
		}
		switch r.method {
		case "GET":
			send(r, r.fill(own)+oddQuery, "", "", "an odd query")
		case "DELETE":
		default:
			for _, b := range append(bodies, routeBodies[r.String()]...) {
				send(r, r.fill(own), b.contentType, b.body, "a "+b.name+" body")
			}
		}
	}
	var lenient []string
	for r := range ignoresBody {
		lenient = append(lenient, r)
	}
	sort.Strings(lenient)
	t.Logf("HTTP fuzz: %d routes, %d requests; statuses %v; no 5xx, no broken connection, no write by a refused request", len(routes), requests, statuses)
	t.Logf("routes that answered some odd body with success (no body needed, unknown fields ignored, or any content type read as JSON), none writing on refusal: %s", strings.Join(lenient, ", "))
}

// signedBodies are the routes whose credential is a signature of the body: the fuzz pass
// signs each bad body, so it reaches the handler's parsing and not only the signature
// check. (The licensing webhook's signature is inside the body: bad bodies reach its
// parser as they are.)
var signedBodies = map[string]func(body string) stacktest.Headers{
	"POST /v1/webhook/payments": func(body string) stacktest.Headers {
		return stacktest.Headers{billing.SignatureHeader: billing.Sign([]byte(body), stripeWebhookSecret, time.Now())}
	},
}

// routeBodies are bad bodies in the shape one route expects, so its deeper parsing is
// reached: Stripe events whose object has every field wrongly typed, or names an unknown
// customer, or no object at all.
var routeBodies = map[string][]badBody{
	"POST /v1/webhook/payments": {
		{"Stripe subscription event with wrong types", "application/json", `{"id":"evt_f1","object":"event","type":"customer.subscription.updated","created":1,"data":{"object":{"id":5,"customer":[],"status":{},"items":"x","cancel_at_period_end":"yes"}}}`},
		{"Stripe invoice event with wrong types", "application/json", `{"id":"evt_f2","object":"event","type":"invoice.paid","created":1,"data":{"object":{"id":[],"customer":{"id":7},"amount_paid":"lots","period_start":-1,"currency":5}}}`},
		{"Stripe event of an unknown customer", "application/json", `{"id":"evt_f3","object":"event","type":"invoice.paid","created":1,"data":{"object":{"id":"in_x","object":"invoice","customer":"cus_nobody","amount_paid":1}}}`},
		{"Stripe event without an object", "application/json", `{"id":"evt_f4","object":"event","type":"customer.subscription.deleted","created":1,"data":{}}`},
		{"Stripe event with a NUL in its id", "application/json", `{"id":"evt_\u0000","object":"event","type":"ping","created":1,"data":{"object":{}}}`},
	},
}

func emptyBody(method string) string {
	if method == "GET" || method == "DELETE" {
		return ""
	}
	return "{}"
}

// rawDo sends a body as is with a content type (stacktest.Env.Do always sends JSON).
func rawDo(t *testing.T, e *stacktest.Env, method, path, contentType, body string, h stacktest.Headers) *stacktest.Response {
	t.Helper()
	hh := stacktest.Headers{}
	for k, v := range h {
		hh[k] = v
	}
	if contentType != "" {
		hh["Content-Type"] = contentType
	}
	var b any
	if body != "" {
		b = body
	}
	res, err := e.Try(method, path, b, hh)
	if err != nil {
		return &stacktest.Response{Body: []byte(err.Error())}
	}
	return res
}
