package v1_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestConfigurationRoutesCheckCredentialsRolesAndTenancy sends every configuration route
// without a token (401), as a member of another client (404: the ids are not theirs) and
// as the role just below the one the route needs (403). Nothing may change on refusal.
func TestConfigurationRoutesCheckCredentialsRolesAndTenancy(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	inst := id(t, f.do(t, f.owner, "POST", app+"/channels/email/providerInstances",
		map[string]any{"providerIdentifier": "smtp", "name": "main", "config": f.smtpConfig(nil)}, 201))
	route := id(t, f.do(t, f.owner, "POST", app+"/channels/email/routes", map[string]any{"name": "all", "providerInstanceIds": []int64{inst}}, 201))
	tpl := id(t, f.do(t, f.owner, "POST", app+"/templates", map[string]any{"identifier": "welcome"}, 201))
	f.do(t, f.owner, "PUT", fmt.Sprintf("/v1/templates/%d/contents/email", tpl), map[string]any{"content": map[string]string{"subject": "Hi", "text": "Hello"}}, 200)
	layout := id(t, f.do(t, f.owner, "POST", app+"/layouts", map[string]any{"identifier": "brand", "html": "<div>{{{content}}}</div>", "default": true}, 201))
	f.do(t, f.owner, "POST", app+"/translations", map[string]any{"locale": "en", "entries": map[string]string{"hi": "Hello"}, "default": true}, 201)
	topic := id(t, f.do(t, f.owner, "POST", app+"/topics", map[string]any{"identifier": "news", "name": "News"}, 201))
	f.do(t, f.owner, "POST", fmt.Sprintf("/v1/topics/%d/users", topic), map[string]any{"users": []map[string]any{{"identifier": "u1"}}}, 201)
	f.do(t, f.owner, "POST", app+"/workflows", map[string]any{"identifier": "onboarding", "name": "Onboarding",
		"definition": map[string]any{"steps": []map[string]any{{"id": "a", "type": "email", "template": "welcome"}}}}, 201)
	creds := stacktest.Headers{f.Cfg.HeaderPrefix + "API-KEY": f.appEnt["apiKey"].(string), f.Cfg.HeaderPrefix + "API-SECRET": f.appEnt["apiSecret"].(string)}
	must(t, f.Do("POST", "/v3/notifications", map[string]any{"notification": map[string]string{"title": "Later"},
		"sendTo": map[string]any{"recipients": []string{"u1"}}, "sendAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, creds), 202, "schedule")
	var sched []map[string]any
	f.do(t, f.owner, "GET", app+"/scheduled-notifications", nil, 200).JSON(t, &sched)
	if len(sched) != 1 {
		t.Fatalf("scheduled %v", sched)
	}
	commit := id(t, f.do(t, f.owner, "POST", app+"/commits", map[string]string{"message": "first"}, 201))
	prod := int64(f.app2(t, "Production")["id"].(float64))

	tp := fmt.Sprintf("/v1/templates/%d", tpl)
	routes := []struct {
		method, path string
		min          string // viewer, developer or admin
	}{
		{"GET", app + "/channels", "viewer"},
		{"GET", app + "/channels/v1", "viewer"},
		{"GET", app + "/channels/v1/email/providers", "viewer"},
		{"GET", app + "/channels/v1/email/providers/smtp", "viewer"},
		{"GET", app + "/channels/email/providers", "viewer"},
		{"POST", app + "/channels/email/providers/smtp", "developer"},
		{"PATCH", app + "/channels/email/providers/smtp", "developer"},
		{"POST", app + "/channels/email/providers/smtp/enable", "developer"},
		{"POST", app + "/channels/email/providers/smtp/disable", "developer"},
		{"PUT", app + "/channels/email/providers/smtp/routing", "developer"},
		{"POST", app + "/channels/email/providerInstances", "developer"},
		{"GET", app + "/channels/email/providerInstances", "viewer"},
		{"GET", fmt.Sprintf("%s/channels/email/providerInstances/%d", app, inst), "viewer"},
		{"PATCH", fmt.Sprintf("%s/channels/email/providerInstances/%d", app, inst), "developer"},
		{"PUT", fmt.Sprintf("%s/channels/email/providerInstances/%d/enable", app, inst), "developer"},
		{"PUT", fmt.Sprintf("%s/channels/email/providerInstances/%d/disable", app, inst), "developer"},
		{"GET", app + "/channels/email/routes", "viewer"},
		{"POST", app + "/channels/email/routes", "developer"},
		{"GET", fmt.Sprintf("/v1/routes/%d", route), "viewer"},
		{"PUT", fmt.Sprintf("/v1/routes/%d", route), "developer"},
		{"DELETE", fmt.Sprintf("/v1/routes/%d", route), "developer"},
		{"GET", app + "/templates", "viewer"},
		{"POST", app + "/templates", "developer"},
		{"GET", tp, "viewer"},
		{"PUT", tp, "developer"},
		{"DELETE", tp, "developer"},
		{"POST", tp + "/contents/order", "developer"},
		{"GET", tp + "/contents/email/content.txt", "viewer"},
		{"GET", tp + "/contents/email", "viewer"},
		{"PUT", tp + "/contents/email", "developer"},
		{"PATCH", tp + "/contents/email", "developer"},
		{"DELETE", tp + "/contents/email", "developer"},
		{"PUT", tp + "/contents/email/batchingContent", "developer"},
		{"PUT", tp + "/duplicate", "developer"},
		{"POST", tp + "/notification-content-state", "developer"},
		{"POST", tp + "/preview", "viewer"},
		{"POST", app + "/layouts", "developer"},
		{"GET", app + "/layouts", "viewer"},
		{"GET", app + "/layouts/default", "viewer"},
		{"PUT", fmt.Sprintf("%s/layouts/%d", app, layout), "developer"},
		{"DELETE", fmt.Sprintf("%s/layouts/%d", app, layout), "developer"},
		{"GET", fmt.Sprintf("/v1/clients/%d/email-layouts", f.client), "viewer"},
		{"POST", app + "/translations", "developer"},
		{"GET", app + "/translations", "viewer"},
		{"GET", app + "/translations/default", "viewer"},
		{"POST", app + "/topics", "developer"},
		{"GET", app + "/topics", "viewer"},
		{"PATCH", fmt.Sprintf("/v1/topics/%d", topic), "developer"},
		{"DELETE", fmt.Sprintf("/v1/topics/%d", topic), "developer"},
		{"POST", fmt.Sprintf("/v1/topics/%d/users", topic), "developer"},
		{"GET", fmt.Sprintf("/v1/topics/%d/users", topic), "viewer"},
		{"DELETE", fmt.Sprintf("/v1/topics/%d/users/1", topic), "developer"},
		{"DELETE", fmt.Sprintf("/v1/topics/%d/subscriptions/1", topic), "developer"},
		{"POST", app + "/workflows", "developer"},
		{"GET", app + "/workflows", "viewer"},
		{"GET", app + "/workflows/logs", "viewer"},
		{"GET", app + "/workflows/onboarding", "viewer"},
		{"PUT", app + "/workflows/onboarding", "developer"},
		{"POST", app + "/workflows/onboarding/publish", "developer"},
		{"GET", app + "/workflows/onboarding/versions", "viewer"},
		{"GET", app + "/scheduled-notifications", "viewer"},
		{"DELETE", fmt.Sprintf("%s/scheduled-notifications/%v", app, sched[0]["id"]), "developer"},
		{"GET", app + "/uncommited-changes", "viewer"},
		{"POST", app + "/commits", "developer"},
		{"GET", app + "/commits", "viewer"},
		{"POST", app + "/publish", "admin"},
	}
	body := map[string]any{"commitId": commit, "publishTo": prod, "name": "x", "identifier": "x2"}
	below := map[string]string{"developer": f.viewer, "admin": f.dev}
	for _, r := range routes {
		if res := f.Do(r.method, r.path, body, nil); res.Status != 401 {
			t.Errorf("%s %s without a token: %d %s", r.method, r.path, res.Status, res.Body)
		}
		if res := f.Do(r.method, r.path, body, bearer(f.stranger)); res.Status != 404 {
			t.Errorf("%s %s by another client's owner: %d %s", r.method, r.path, res.Status, res.Body)
		}
		if tok, ok := below[r.min]; ok {
			if res := f.Do(r.method, r.path, body, bearer(tok)); res.Status != 403 {
				t.Errorf("%s %s below %s: %d %s", r.method, r.path, r.min, res.Status, res.Body)
			}
		}
		if strings.HasPrefix(r.path, app) && r.method == "GET" {
			// Viewers read everything of their client; strangers' apps stay out of reach.
			must(t, f.Do(r.method, r.path, nil, bearer(f.viewer)), 200, "viewer "+r.path)
		}
	}
	// The refusals changed nothing: no commit beyond the first, the template still there.
	f.do(t, f.owner, "GET", tp, nil, 200)
	var page struct{ Pagination struct{ TotalCount int } }
	f.do(t, f.owner, "GET", app+"/commits", nil, 200).JSON(t, &page)
	if page.Pagination.TotalCount != 1 {
		t.Errorf("commits after refusals: %d", page.Pagination.TotalCount)
	}
	// The catalogue is not tenant data: any signed-in member reads it.
	must(t, f.Do("GET", "/v1/providers", nil, bearer(f.stranger)), 200, "catalogue")
	if res := f.Do("GET", "/v1/providers", nil, nil); res.Status != 401 {
		t.Errorf("catalogue without a token: %d", res.Status)
	}
}

// app2 creates another app of the fixture's client.
func (f *fixture) app2(t *testing.T, name string) map[string]any {
	t.Helper()
	return f.env.app(t, f.owner, f.client, name)
}
