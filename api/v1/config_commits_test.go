package v1_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

type changePage struct {
	Pagination   struct{ TotalCount, Page, Limit int }
	HeadCommitID *int64
	Data         []struct{ Type, Key, Action string }
}

func (p changePage) list() string {
	var out []string
	for _, c := range p.Data {
		out = append(out, c.Type+":"+c.Key+":"+c.Action)
	}
	return strings.Join(out, " ")
}

func (f *fixture) changes(t *testing.T, appPath, q string) changePage {
	t.Helper()
	var p changePage
	f.do(t, f.viewer, "GET", appPath+"/uncommited-changes"+q, nil, 200).JSON(t, &p)
	return p
}

func TestCommitsAndPublishing(t *testing.T) {
	f := newFixture(t)
	dev, app := f.appPath, f.appPath
	prodApp := f.app2(t, "Production")
	prodID := int64(prodApp["id"].(float64))
	prod := fmt.Sprintf("/v1/apps/%d", prodID)
	const devSecret, prodSecret = "dev-sendgrid-key-5c2a", "prod-smtp-pass-77d1"

	if p := f.changes(t, dev, ""); p.Pagination.TotalCount != 0 || p.HeadCommitID != nil {
		t.Fatalf("a new app has changes: %+v", p)
	}
	f.do(t, f.dev, "POST", app+"/categories", map[string]any{"identifier": "orders", "name": "Orders"}, 201)
	f.do(t, f.dev, "POST", app+"/layouts", map[string]any{"identifier": "brand", "html": "<b>{{{content}}}</b>", "default": true}, 201)
	f.do(t, f.dev, "POST", app+"/translations", map[string]any{"locale": "en", "default": true, "entries": map[string]string{"hi": "Hi"}}, 201)
	tpl := id(t, f.do(t, f.dev, "POST", app+"/templates", map[string]any{"identifier": "welcome", "name": "Welcome"}, 201))
	f.do(t, f.dev, "PUT", fmt.Sprintf("/v1/templates/%d/contents/email", tpl), map[string]any{"content": map[string]string{"subject": "Hi", "html": "<p>v1</p>"}, "layoutIdentifier": "brand"}, 200)
	f.do(t, f.dev, "POST", fmt.Sprintf("/v1/templates/%d/notification-content-state", tpl), map[string]any{"state": "archived"}, 201)
	f.do(t, f.dev, "POST", app+"/workflows", map[string]any{"identifier": "flow", "name": "Flow", "definition": map[string]any{"steps": []map[string]any{{"id": "m", "type": "email", "template": "welcome"}}}}, 201)
	f.do(t, f.dev, "POST", app+"/workflows/flow/publish", nil, 200)
	smtpID := id(t, f.do(t, f.dev, "POST", app+"/channels/email/providerInstances", map[string]any{"providerIdentifier": "smtp", "name": "relay", "config": f.smtpConfig(nil)}, 201))
	f.do(t, f.dev, "POST", app+"/channels/email/providerInstances", map[string]any{"providerIdentifier": "sendgrid", "name": "sg", "priority": 9,
		"config": map[string]any{"apiKey": devSecret, "from": "a@acme.test"}}, 201)
	f.do(t, f.dev, "POST", app+"/channels/email/routes", map[string]any{"name": "vip", "providerInstanceIds": []int64{smtpID},
		"conditions": []map[string]any{{"field": "data.vip", "operator": "eq", "value": true}}}, 201)

	all := "category:orders:created layout:brand:created translation:en:created template:welcome:created workflow:flow:created " +
		"providerInstance:email/relay:created providerInstance:email/sg:created route:email/vip:created"
	if p := f.changes(t, dev, "?limit=100"); p.list() != all || p.Pagination.TotalCount != 8 {
		t.Fatalf("changes %s (%+v)", p.list(), p.Pagination)
	}
	if p := f.changes(t, dev, "?page=2&limit=3"); p.list() != "template:welcome:created workflow:flow:created providerInstance:email/relay:created" {
		t.Errorf("page 2: %s", p.list())
	}
	var first int64
	f.run(t, []call{
		{name: "bad page", method: "GET", path: dev + "/uncommited-changes?limit=0", as: f.viewer, status: 400, msgs: []string{"limit must not be less than 1"}},
		{name: "no message", method: "POST", path: dev + "/commits", as: f.dev, status: 400, body: map[string]any{"message": "  "}, msgs: []string{"message should not be empty"}},
		{name: "message type", method: "POST", path: dev + "/commits", as: f.dev, status: 400, body: map[string]any{"message": 1}, msgs: []string{"message must be a string"}},
		{name: "commit", method: "POST", path: dev + "/commits", as: f.dev, status: 201, body: map[string]any{"message": "First setup"},
			check: func(t *testing.T, res *stacktest.Response) {
				m := res.Map(t)
				first = int64(m["id"].(float64))
				if m["message"] != "First setup" || len(m["changes"].([]any)) != 8 {
					t.Errorf("%v", m)
				}
			}},
		{name: "nothing left", method: "POST", path: dev + "/commits", as: f.dev, status: 409, body: map[string]any{"message": "again"}},
	})
	if p := f.changes(t, dev, ""); p.Pagination.TotalCount != 0 || p.HeadCommitID == nil || *p.HeadCommitID != first {
		t.Errorf("after the commit: %+v", p)
	}
	// The snapshot holds no secret.
	var snap string
	if err := f.Stack.DB.Pool.QueryRow(context.Background(), `SELECT snapshot::text FROM commits WHERE id = $1`, first).Scan(&snap); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(snap, devSecret) || !strings.Contains(snap, `"provider": "sendgrid"`) {
		t.Errorf("snapshot: %s", snap)
	}

	// The preview names what publishing would change there, and changes nothing.
	type change struct{ Type, Key, Action string }
	var preview struct{ Changes []change }
	f.do(t, f.admin, "POST", dev+"/publish/preview", map[string]any{"commitId": first, "publishTo": prodID}, 200).JSON(t, &preview)
	var again struct{ Changes []change }
	f.do(t, f.admin, "POST", dev+"/publish/preview", map[string]any{"commitId": first, "publishTo": prodID}, 200).JSON(t, &again)
	if len(preview.Changes) != 8 || !slices.Equal(preview.Changes, again.Changes) {
		t.Errorf("preview %+v, then %+v", preview, again)
	}

	// Publish to production: everything arrives; the SendGrid instance lacks its key there.
	var pub struct {
		Changes  []change
		Warnings []string
	}
	f.do(t, f.admin, "POST", dev+"/publish", map[string]any{"commitId": first, "publishTo": prodID}, 200).JSON(t, &pub)
	if !slices.Equal(pub.Changes, preview.Changes) {
		t.Errorf("published %+v, previewed %+v", pub.Changes, preview.Changes)
	}
	f.do(t, f.admin, "POST", dev+"/publish/preview", map[string]any{"commitId": first, "publishTo": prodID}, 200).JSON(t, &again)
	// Production runs the commit: only the instance waiting for its key (disabled there) differs.
	if want := []change{{"providerInstance", "email/sg", "updated"}}; !slices.Equal(again.Changes, want) {
		t.Errorf("after publishing, the preview says %+v, want %+v", again.Changes, want)
	}
	if len(pub.Changes) != 8 || len(pub.Warnings) != 1 || !contains(pub.Warnings[0], "email/sg is disabled until", "apiKey") {
		t.Errorf("publish: %+v", pub)
	}
	prodInsts := map[string]map[string]any{}
	var list []map[string]any
	f.do(t, f.viewer, "GET", prod+"/channels/email/providerInstances", nil, 200).JSON(t, &list)
	for _, i := range list {
		prodInsts[i["name"].(string)] = i
	}
	if prodInsts["relay"]["enabled"] != true || prodInsts["sg"]["enabled"] != false || prodInsts["sg"]["config"].(map[string]any)["apiKey"] != nil {
		t.Errorf("production instances %v", list)
	}
	var tpls []map[string]any
	f.do(t, f.viewer, "GET", prod+"/templates", nil, 200).JSON(t, &tpls)
	if len(tpls) != 1 || tpls[0]["identifier"] != "welcome" {
		t.Fatalf("production templates %v", tpls)
	}
	prodTpl := fmt.Sprintf("/v1/templates/%v", tpls[0]["id"])
	if got := f.do(t, f.viewer, "GET", prodTpl, nil, 200).Map(t); !contains(fmt.Sprint(got), "layoutIdentifier:brand", "state:archived", "<p>v1</p>") {
		t.Errorf("production template %v", got)
	}
	if got := f.do(t, f.viewer, "GET", prod+"/workflows/flow", nil, 200).Map(t); got["publishedVersion"] != 1.0 {
		t.Errorf("production workflow %v", got)
	}
	if got := f.do(t, f.viewer, "GET", prod+"/categories", nil, 200); !contains(string(got.Body), `"identifier":"orders"`) {
		t.Errorf("production categories %s", got.Body)
	}
	// Production's own secret: set it there; later publishes keep it.
	f.do(t, f.dev, "PATCH", fmt.Sprintf("%s/channels/email/providerInstances/%v", prod, prodInsts["relay"]["id"]),
		map[string]any{"config": map[string]any{"username": "prod", "password": prodSecret}}, 200)

	// A second commit in development changes the template and drops the route.
	f.do(t, f.dev, "PATCH", fmt.Sprintf("/v1/templates/%d/contents/email", tpl), map[string]any{"content": map[string]string{"html": "<p>v2</p>"}}, 200)
	f.do(t, f.dev, "DELETE", fmt.Sprintf("/v1/routes/%d", f.routeID(t, dev, "vip")), nil, 200)
	f.do(t, f.dev, "PUT", dev+"/workflows/flow", map[string]any{"name": "Flow 2", "definition": map[string]any{"steps": []map[string]any{{"id": "m2", "type": "email", "template": "welcome"}}}}, 200)
	f.do(t, f.dev, "POST", dev+"/workflows/flow/publish", nil, 200)
	if p := f.changes(t, dev, ""); p.list() != "template:welcome:updated workflow:flow:updated route:email/vip:deleted" {
		t.Errorf("second changes: %s", p.list())
	}
	second := id(t, f.do(t, f.dev, "POST", dev+"/commits", map[string]any{"message": "v2"}, 201))
	// A category made in production stays there (users' preferences hang on categories).
	f.do(t, f.dev, "POST", prod+"/categories", map[string]any{"identifier": "promo", "name": "Promo"}, 201)
	f.do(t, f.owner, "POST", dev+"/publish", map[string]any{"commitId": second, "publishTo": prodID}, 200).JSON(t, &pub)
	if fmt.Sprint(pub.Warnings) != "[category promo is not in the commit: kept, with its users' preferences (delete it here if it should go) "+
		"provider instance email/sg is disabled until its configuration is completed in this app: config.apiKey is required]" {
		t.Errorf("second publish warnings %q", pub.Warnings)
	}
	if got := f.do(t, f.viewer, "GET", prodTpl+"/contents/email", nil, 200); htmlOf(t, got) != "<p>v2</p>" {
		t.Errorf("v2 not published: %s", got.Body)
	}
	if got := f.do(t, f.viewer, "GET", prod+"/channels/email/routes", nil, 200); string(got.Body) != "[]" {
		t.Errorf("route not removed: %s", got.Body)
	}
	if got := f.do(t, f.viewer, "GET", prod+"/workflows/flow", nil, 200).Map(t); got["publishedVersion"] != 2.0 || got["name"] != "Flow 2" {
		t.Errorf("production workflow after v2 %v", got)
	}
	relay := f.do(t, f.viewer, "GET", fmt.Sprintf("%s/channels/email/providerInstances/%v", prod, prodInsts["relay"]["id"]), nil, 200).Map(t)
	if c := relay["config"].(map[string]any); c["password"] != "********" || c["username"] != nil {
		// The username is public configuration: development's (none) replaces it; the
		// sealed password stays production's.
		t.Errorf("production relay after v2: %v", c)
	}

	// Roll back by publishing the first commit again.
	f.do(t, f.admin, "POST", dev+"/publish", map[string]any{"commitId": first, "publishTo": prodID}, 200)
	if got := f.do(t, f.viewer, "GET", prodTpl+"/contents/email", nil, 200); htmlOf(t, got) != "<p>v1</p>" {
		t.Errorf("rollback: %s", got.Body)
	}
	if got := f.do(t, f.viewer, "GET", prod+"/channels/email/routes", nil, 200); !contains(string(got.Body), `"name":"vip"`) {
		t.Errorf("rollback route: %s", got.Body)
	}
	if got := f.do(t, f.viewer, "GET", prod+"/workflows/flow", nil, 200).Map(t); got["publishedVersion"] != 3.0 || got["name"] != "Flow" {
		t.Errorf("rollback publishes the old definition as version 3: %v", got)
	}
	if p := f.changes(t, prod, ""); p.HeadCommitID == nil || *p.HeadCommitID != first || p.list() != "category:promo:created providerInstance:email/sg:updated" {
		// sg stays disabled in production until its key is set there.
		t.Errorf("production after the rollback: %s (%+v)", p.list(), p)
	}

	var commits struct {
		Pagination struct{ TotalCount int }
		Data       []struct {
			ID             int64
			Message        string
			CreatedByEmail string
			Publications   []struct{ AppID int64 }
		}
	}
	f.do(t, f.viewer, "GET", dev+"/commits", nil, 200).JSON(t, &commits)
	if commits.Pagination.TotalCount != 2 || commits.Data[0].ID != second || len(commits.Data[1].Publications) != 2 || commits.Data[1].CreatedByEmail != "dev@example.com" {
		t.Errorf("commits %+v", commits)
	}
	f.do(t, f.viewer, "GET", fmt.Sprintf("%s/commits?publishTo=%d&limit=1", dev, prodID), nil, 200).JSON(t, &commits)
	if commits.Pagination.TotalCount != 2 || len(commits.Data) != 1 {
		t.Errorf("published to production %+v", commits)
	}
	f.do(t, f.viewer, "GET", fmt.Sprintf("%s/commits?publishTo=%d", dev, f.appID), nil, 200).JSON(t, &commits)
	if commits.Pagination.TotalCount != 0 {
		t.Errorf("published to development %+v", commits)
	}

	strangerApp := f.strangerApp[strings.LastIndex(f.strangerApp, "/")+1:]
	f.run(t, []call{
		{name: "to another client's app", method: "POST", path: dev + "/publish", as: f.owner, status: 404, body: fmt.Sprintf(`{"commitId":%d,"publishTo":%s}`, first, strangerApp)},
		{name: "a commit of another app", method: "POST", path: prod + "/publish", as: f.owner, status: 404, body: map[string]any{"commitId": first, "publishTo": f.appID}},
		{name: "bad body", method: "POST", path: dev + "/publish", as: f.owner, status: 400, body: map[string]any{"commitId": "1", "publishTo": 0},
			msgs: []string{"commitId must be an integer number", "publishTo must be a positive integer"}},
		{name: "empty body", method: "POST", path: dev + "/publish", as: f.owner, status: 400, msgs: []string{"commitId should not be empty", "publishTo should not be empty"}},
		{name: "preview to another client's app", method: "POST", path: dev + "/publish/preview", as: f.owner, status: 404, body: fmt.Sprintf(`{"commitId":%d,"publishTo":%s}`, first, strangerApp)},
		{name: "preview a commit of another app", method: "POST", path: prod + "/publish/preview", as: f.owner, status: 404, body: map[string]any{"commitId": first, "publishTo": f.appID}},
		{name: "preview by a developer", method: "POST", path: dev + "/publish/preview", as: f.dev, status: 403, body: map[string]any{"commitId": first, "publishTo": prodID}},
		{name: "preview without a session", method: "POST", path: dev + "/publish/preview", status: 401, body: map[string]any{"commitId": first, "publishTo": prodID}},
		{name: "preview a bad body", method: "POST", path: dev + "/publish/preview", as: f.owner, status: 400, body: map[string]any{"commitId": "1", "publishTo": 0},
			msgs: []string{"commitId must be an integer number", "publishTo must be a positive integer"}},
		{name: "publishTo filter", method: "GET", path: dev + "/commits?publishTo=x", as: f.viewer, status: 400, msgs: []string{"publishTo must be an integer number"}},
		{name: "roll development back too", method: "POST", path: dev + "/publish", as: f.owner, status: 200, body: map[string]any{"commitId": first, "publishTo": f.appID}},
	})
	if got := f.do(t, f.viewer, "GET", fmt.Sprintf("/v1/templates/%d/contents/email", tpl), nil, 200); htmlOf(t, got) != "<p>v1</p>" {
		t.Errorf("development rollback: %s", got.Body)
	}
	// Nothing anywhere shows a secret.
	for _, p := range []string{dev + "/channels", prod + "/channels", dev + "/commits", prod + "/uncommited-changes", dev + "/channels/v1"} {
		body := string(f.do(t, f.owner, "GET", p, nil, 200).Body)
		if strings.Contains(body, devSecret) || strings.Contains(body, prodSecret) {
			t.Errorf("%s shows a secret: %s", p, body)
		}
	}
}

// routeID finds a route of an app's email channel by name.
func (f *fixture) routeID(t *testing.T, appPath, name string) int64 {
	t.Helper()
	var list []map[string]any
	f.do(t, f.viewer, "GET", appPath+"/channels/email/routes", nil, 200).JSON(t, &list)
	for _, r := range list {
		if r["name"] == name {
			return int64(r["id"].(float64))
		}
	}
	t.Fatalf("no route %s in %v", name, list)
	return 0
}

// htmlOf is the html field of a content answer.
func htmlOf(t *testing.T, res *stacktest.Response) string {
	t.Helper()
	var c struct{ Content map[string]string }
	res.JSON(t, &c)
	return c.Content["html"]
}
