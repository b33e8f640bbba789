package security

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// paramKind says what a path parameter names and so what another tenant's value must get.
type paramKind int

const (
	// byID: a resource found by an id unique across tenants. Another tenant's id must be
	// not found (404) or forbidden (403), and change nothing.
	byID paramKind = iota
	// byName: a name each tenant chooses in its own namespace (a user identifier, a
	// locale). Another tenant's name means the caller's own resource of that name, which
	// may exist or be created: any answer but a 5xx is fine, as long as the other tenant's
	// data is neither changed nor shown.
	byName
	// global: the same for every tenant (a channel, a provider kind): not a tenant boundary.
	global
)

// fixture gives a path parameter its meaning and each tenant's value.
type fixture struct {
	// path, when set, limits the fixture to routes whose path contains it (the same
	// parameter name means different things on different routes).
	path, param string
	kind        paramKind
	value       func(*tenant) string
	// notOwn is set where even the tenant's own value is refused to the tenant (an
	// invitation is for the invitee), so the matrix does not call it as a sanity check.
	notOwn bool
}

func id(n func(*tenant) int64) func(*tenant) string {
	return func(tn *tenant) string { return strconv.FormatInt(n(tn), 10) }
}

// fixtures are tried in order; the first that matches a route's parameter wins. A route
// with a parameter none matches fails TestTenantIsolationMatrix: add its fixture here
// (and the resource to tenant in world_test.go).
var fixtures = []fixture{
	{path: "/v1/auth/app/", param: "id", value: id(func(tn *tenant) int64 { return tn.app })},
	{path: "/v1/clientUsers/", param: "id", value: id(func(tn *tenant) int64 { return tn.consoleUser })},
	{path: "/v1/invitations/", param: "invitationId", value: id(func(tn *tenant) int64 { return tn.invitation })},
	{path: "/accept", param: "code", value: func(tn *tenant) string { return tn.invitationCode }, notOwn: true},
	{path: "/files/layouts/", param: "filename", value: func(tn *tenant) string { return tn.layoutFile }},
	{path: "/runs/", param: "requestId", value: func(tn *tenant) string { return tn.flowRequest }},
	{path: "/requests/", param: "requestId", value: func(tn *tenant) string { return tn.flowRequest }},
	{path: "/workflows/", param: "identifier", kind: byName, value: func(tn *tenant) string { return tn.workflowIdent }},
	{path: "/v1/topics/", param: "userId", value: id(func(tn *tenant) int64 { return tn.userID })},
	{path: "/v1/topics/", param: "subscriptionId", value: id(func(tn *tenant) int64 { return tn.topicSubscription })},
	{path: "/contents/email/", param: "fileName", kind: global, value: func(*tenant) string { return "subject.txt" }},
	{param: "appId", value: id(func(tn *tenant) int64 { return tn.app })},
	{param: "clientId", value: id(func(tn *tenant) int64 { return tn.client })},
	{param: "clientUserId", value: id(func(tn *tenant) int64 { return tn.consoleUser })},
	{param: "invitationId", value: id(func(tn *tenant) int64 { return tn.invitation })},
	{param: "tokenId", value: id(func(tn *tenant) int64 { return tn.cliTokenID })},
	{param: "categoryId", value: id(func(tn *tenant) int64 { return tn.category })},
	{param: "notificationId", value: id(func(tn *tenant) int64 { return tn.notification })},
	{param: "topicId", value: id(func(tn *tenant) int64 { return tn.topic })},
	{param: "templateId", value: id(func(tn *tenant) int64 { return tn.template })},
	{param: "layoutId", value: id(func(tn *tenant) int64 { return tn.layout })},
	{param: "routeId", value: id(func(tn *tenant) int64 { return tn.route })},
	{param: "providerInstance", value: id(func(tn *tenant) int64 { return tn.instance })},
	{param: "instanceId", value: id(func(tn *tenant) int64 { return tn.instance })},
	{param: "scheduledNotificationId", value: id(func(tn *tenant) int64 { return tn.scheduled })},
	{param: "scheduleId", value: id(func(tn *tenant) int64 { return tn.recurring })},
	{param: "webhookId", value: id(func(tn *tenant) int64 { return tn.webhook })},
	{param: "deliveryId", value: id(func(tn *tenant) int64 { return tn.webhookDelivery })},
	{param: "paymentMethodId", value: func(tn *tenant) string { return tn.paymentMethod }},
	{param: "filename", value: func(tn *tenant) string { return tn.file }},
	{param: "identifier", kind: byName, value: func(tn *tenant) string { return tn.user }},
	{param: "userIdentifier", kind: byName, value: func(tn *tenant) string { return tn.user }},
	{param: "deviceId", kind: byName, value: func(tn *tenant) string { return tn.device }},
	{param: "locale", kind: byName, value: func(tn *tenant) string { return tn.locale }},
	{param: "channel", kind: global, value: func(*tenant) string { return "email" }},
	{param: "providerIdentifier", kind: global, value: func(*tenant) string { return "smtp" }},
}

// publicReason says why a route takes no credentials (unauth_test.go), if it does not.
func publicReason(r route) (string, bool) {
	if isPreflight(r) {
		return preflightReason, true
	}
	if why, ok := unauthenticated[r.String()]; ok {
		return why, true
	}
	why, ok := unauthenticated[r.path]
	return why, ok
}

func fixtureFor(r route, param string) (fixture, bool) {
	for _, f := range fixtures {
		if f.param == param && (f.path == "" || strings.Contains(r.path, f.path)) {
			return f, true
		}
	}
	return fixture{}, false
}

// TestTenantIsolationMatrix takes every /v1 and /v3 route with path parameters from the
// route table and calls it as tenant A (A's console session on /v1; A's app, user and
// device on /v3) with tenant B's value in one parameter at a time (A's own values in the
// others), and with B's values in all of them. Ids of B must be not found or forbidden and
// change nothing at all; names of B may reach A's own namespace, but B's rows never change.
// No answer may show B's data (B's marker) and none may be a 5xx. Routes without
// parameters that read data are called as A and must not show B's data either.
func TestTenantIsolationMatrix(t *testing.T) {
	w := newWorld(t)
	e, a, b := w.e, w.a, w.b
	snap := newSnapshotter(t, e, w.stripe.rows)
	calls, checked := 0, 0
	for _, r := range registeredRoutes(t, e) {
		if !strings.HasPrefix(r.path, "/v1/") && !strings.HasPrefix(r.path, "/v3/") {
			continue
		}
		if isPreflight(r) {
			continue // no handler runs and no data is read: see isPreflight
		}
		if why, ok := publicReason(r); ok && len(r.params) > 0 {
			calls += checkPublic(t, w, snap, r, why)
			continue
		}
		if len(r.params) == 0 {
			if _, stream := streams[r.path]; !stream && r.method == "GET" {
				res := e.Do(r.method, r.path, nil, a.headers(e, r.path))
				calls++
				noLeak(t, r, res, b, "")
			}
			continue
		}
		fx := map[string]fixture{}
		missing := false
		for _, p := range r.params {
			f, ok := fixtureFor(r, p)
			if !ok {
				t.Errorf("%s: no fixture for :%s — add one to fixtures in integration/security/tenancy_test.go (and the resource to tenant in world_test.go) so this route is checked for tenant isolation", r, p)
				missing = true
			}
			fx[p] = f
		}
		if missing {
			continue
		}
		own := map[string]string{}
		for p, f := range fx {
			own[p] = f.value(a)
		}
		// A's own values first, on reads: the fixture must name something A can see,
		// or the matrix would prove nothing.
		if r.method == "GET" && !notOwn(fx) {
			res := e.Do("GET", r.fill(own), nil, a.headers(e, r.path))
			calls++
			if res.Status == 404 || res.Status == 403 || res.Status >= 500 {
				t.Errorf("%s with tenant A's own values (%s): %d %s — is the fixture right?", r, r.fill(own), res.Status, res.Body)
			}
			noLeak(t, r, res, b, "")
		}
		variants := []map[string]string{}
		for _, p := range r.params {
			if fx[p].kind == global {
				continue
			}
			v := clone(own)
			v[p] = fx[p].value(b)
			variants = append(variants, v)
		}
		if len(variants) > 1 {
			all := clone(own)
			for _, p := range r.params {
				if fx[p].kind != global {
					all[p] = fx[p].value(b)
				}
			}
			variants = append(variants, all)
		}
		for _, v := range variants {
			kind := global
			for p, val := range v {
				if val != own[p] && fx[p].kind < kind {
					kind = fx[p].kind
				}
			}
			checkCrossTenant(t, w, snap, r, v, kind)
			calls++
			checked++
		}
	}
	t.Logf("tenant isolation: %d requests; %d with tenant B's ids or names in the path of tenant A's calls", calls, checked)
}

// streams are routes that hold the connection open: the matrix does not read them.
var streams = map[string]string{
	"/v3/realtime": "Server-Sent Events; realtime tests cover who receives what",
}

func notOwn(fx map[string]fixture) bool {
	for _, f := range fx {
		if f.notOwn {
			return true
		}
	}
	return false
}

func clone(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// checkCrossTenant calls a route as A with values that name B's resources.
func checkCrossTenant(t *testing.T, w *world, snap *snapshotter, r route, values map[string]string, kind paramKind) {
	t.Helper()
	e, a, b := w.e, w.a, w.b
	path := r.fill(values)
	before := snap.take(t)
	res := e.Do(r.method, path, bodyFor(r), a.headers(e, r.path))
	after := snap.take(t)
	changes := before.diff(after)
	what := fmt.Sprintf("%s as tenant A at %s", r, path)
	switch {
	case res.Status >= 500:
		t.Errorf("%s: %d %s", what, res.Status, res.Body)
	case kind == byID && res.Status != 404 && res.Status != 403:
		t.Errorf("%s: %d, want 404 or 403 for tenant B's id: %s", what, res.Status, res.Body)
	}
	if kind == byID || res.Status >= 400 {
		for _, c := range changes {
			t.Errorf("%s (%d) wrote: %s", what, res.Status, c)
		}
	} else {
		owner := ownerOf(before, b)
		for _, c := range changes {
			if owner.owns(c.table, c.before) || owner.owns(c.table, c.after) {
				t.Errorf("%s (%d) changed tenant B's data: %s", what, res.Status, c)
			}
		}
	}
	noLeak(t, r, res, b, path)
}

// checkPublic calls a public route with a guessed value (not found, nothing changes) and,
// without credentials, with tenant B's value where the route acts on it: nothing of B may
// change.
func checkPublic(t *testing.T, w *world, snap *snapshotter, r route, why string) int {
	t.Helper()
	e := w.e
	guess := map[string]string{}
	for _, p := range r.params {
		guess[p] = "1234567890abcdef"
		if p == "instanceId" {
			guess[p] = "987654321"
		}
	}
	before := snap.take(t)
	res := e.Do(r.method, r.fill(guess), bodyFor(r), nil)
	if res.Status != 404 && res.Status != 400 {
		t.Errorf("%s (public: %s) with a guessed value: %d %s, want 404", r, why, res.Status, res.Body)
	}
	for _, c := range before.diff(snap.take(t)) {
		t.Errorf("%s (public) with a guessed value wrote: %s", r, c)
	}
	return 1
}

// noLeak fails when a response shows tenant B's marker (B's display names, e-mail
// addresses, titles); the path itself, echoed in a message, does not count.
func noLeak(t *testing.T, r route, res *stacktest.Response, b *tenant, path string) {
	t.Helper()
	body := strings.ToLower(string(res.Body))
	if path != "" {
		body = strings.ReplaceAll(body, strings.ToLower(path), "")
	}
	if strings.Contains(body, strings.ToLower(b.marker)) {
		t.Errorf("%s as tenant A shows tenant B's data: %s", r, res.Body)
	}
}

// bodyFor is the body sent with a route in the matrix: an empty object, unless the route
// validates its body before it looks the resource up, where a valid body is needed for
// the tenant check to be reached.
func bodyFor(r route) any {
	if b, ok := validBodies[r.String()]; ok {
		return b
	}
	if r.method == "GET" || r.method == "DELETE" {
		return nil
	}
	return "{}"
}

// validBodies are bodies that pass validation, for routes that validate their body before
// they look the resource up: with them the matrix reaches the tenant check. A route that
// answers another tenant's id with 400 needs its entry here.
var validBodies = map[string]any{
	"PATCH /v1/clients/:clientId":                          map[string]any{"name": "Renamed"},
	"POST /v1/clients/:clientId/clientUsers":               map[string]any{"email": "someone@example.com", "role": "viewer"},
	"POST /v1/clients/:clientId/invite-users":              []string{"someone@example.com"},
	"PUT /v1/clients/:clientId/clientUsers/:clientUserId":  map[string]any{"role": "viewer"},
	"PATCH /v3/topics/:topicId":                            map[string]any{"name": "Renamed"},
	"POST /v3/topics/:topicId/users":                       map[string]any{"users": []any{map[string]any{"identifier": "user-a"}}},
	"POST /v3/topics/:topicId/detachUsers":                 map[string]any{"users": []string{"user-a"}},
	"PUT /v3/topics/:topicId/users/:userIdentifier":        map[string]any{"channels": []string{"email"}},
	"PUT /v3/notifications/:notificationId/state":          map[string]any{"state": "read"},
	"PUT /v3/notifications/:notificationId/snooze":         map[string]any{"until": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)},
	"PATCH /v1/apps/:appId/workflow-schedules/:scheduleId": map[string]any{"paused": true},
	"POST /v1/apps/:appId/webhooks/:webhookId/replay":      map[string]any{"since": "2020-01-01T00:00:00Z"},
}

// Ids in bodies and queries cross tenants too: tenant A cannot set a preference on tenant
// B's category, and a category filter naming B's category shows nothing of B.
func TestBodyReferencesStayInTheTenant(t *testing.T) {
	w := newWorld(t)
	e, a, b := w.e, w.a, w.b
	snap := newSnapshotter(t, e, w.stripe.rows)
	before := snap.take(t)
	res := e.Do("PATCH", "/v3/preferences", map[string]any{"preference": []any{map[string]any{
		"categoryId": b.category, "channels": []any{map[string]any{"channel": "email", "enabled": true}}}}}, a.headers(e, "/v3/"))
	if res.Status != 400 && res.Status != 404 {
		t.Errorf("preference on tenant B's category: %d %s", res.Status, res.Body)
	}
	res = e.Do("GET", fmt.Sprintf("/v3/notifications?category=%s", b.categoryIdent), nil, a.headers(e, "/v3/"))
	noLeak(t, route{method: "GET", path: "/v3/notifications?category"}, res, b, "")
	for _, c := range before.diff(snap.take(t)) {
		t.Errorf("a request naming tenant B's ids in its body wrote: %s", c)
	}
}
