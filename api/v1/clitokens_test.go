package v1_test

import (
	"fmt"
	"strings"
	"testing"
)

func TestCLITokens(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "cli@example.com")
	client := e.client(t, owner, "Acme")
	other := e.client(t, owner, "Other")
	app := e.app(t, owner, client, "Prod")
	appPath := fmt.Sprintf("/v1/apps/%d", int64(app["id"].(float64)))
	base := fmt.Sprintf("/v1/clients/%d/cli-token", client)

	created := must(t, e.Do("POST", base, map[string]string{"name": "laptop"}, bearer(owner)), 201, "create").Map(t)
	tok := created["token"].(string)
	if !strings.HasPrefix(tok, "hcli_") || created["name"] != "laptop" {
		t.Fatalf("created %v", created)
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM cli_tokens WHERE token_hash = $1::bytea OR token_prefix = $2", []byte(tok), tok).Scan(&n); err != nil || n != 0 {
		t.Errorf("token stored in clear (%d, %v)", n, err)
	}
	var list []map[string]any
	must(t, e.Do("GET", base, nil, bearer(owner)), 200, "list").JSON(t, &list)
	if len(list) != 1 || list[0]["token"] != nil || list[0]["prefix"] != tok[:11] {
		t.Errorf("list %v", list)
	}

	// The token acts with the creator's role on its client only.
	must(t, e.Do("GET", appPath+"/secret", nil, bearer(tok)), 200, "secret with the CLI token")
	must(t, e.Do("GET", "/v1/auth/validate", nil, bearer(tok)), 200, "validate")
	var cl []map[string]any
	must(t, e.Do("GET", "/v1/clients", nil, bearer(tok)), 200, "clients").JSON(t, &cl)
	if len(cl) != 1 || int64(cl[0]["id"].(float64)) != client {
		t.Errorf("clients seen by the token %v", cl)
	}
	if res := e.Do("GET", fmt.Sprintf("/v1/clients/%d", other), nil, bearer(tok)); res.Status != 404 {
		t.Errorf("token on another client of its creator: %d", res.Status)
	}
	// Account and security routes need a session.
	for _, req := range [][2]string{{"POST", base}, {"GET", "/v1/ee/auth/2fa"}, {"POST", "/v1/clients"}, {"POST", "/v1/auth/signout"}} {
		if res := e.Do(req[0], req[1], map[string]string{"name": "x"}, bearer(tok)); res.Status != 403 {
			t.Errorf("%s %s with a CLI token: %d", req[0], req[1], res.Status)
		}
	}

	// A viewer's token is a viewer.
	viewer := e.member(t, owner, client, "v@example.com", "viewer")
	vt := must(t, e.Do("POST", base, nil, bearer(viewer)), 201, "viewer token").Map(t)["token"].(string)
	if res := e.Do("GET", appPath+"/secret", nil, bearer(vt)); res.Status != 403 {
		t.Errorf("viewer token revealing the secret: %d", res.Status)
	}
	must(t, e.Do("GET", base, nil, bearer(viewer)), 200, "viewer list").JSON(t, &list)
	if len(list) != 1 {
		t.Errorf("a viewer sees %d tokens, want only their own", len(list))
	}
	tokenID := func(m map[string]any) string { return fmt.Sprint(int64(m["id"].(float64))) }
	if res := e.Do("DELETE", base+"/"+tokenID(created), nil, bearer(viewer)); res.Status != 404 {
		t.Errorf("viewer revoking the owner's token: %d", res.Status)
	}

	// Revoked tokens stop working at once.
	must(t, e.Do("DELETE", base+"/"+tokenID(created), nil, bearer(owner)), 200, "revoke")
	if res := e.Do("GET", appPath, nil, bearer(tok)); res.Status != 401 {
		t.Errorf("revoked token: %d", res.Status)
	}
	if res := e.Do("DELETE", base+"/"+tokenID(created), nil, bearer(owner)); res.Status != 409 {
		t.Errorf("revoking twice: %d", res.Status)
	}
	if res := e.Do("GET", appPath, nil, bearer("hcli_unknown")); res.Status != 401 {
		t.Errorf("unknown token: %d", res.Status)
	}
	// A token of someone who left the client stops working too.
	viewerID := must(t, e.Do("GET", "/v1/auth/me", nil, bearer(viewer)), 200, "me").Map(t)["id"].(float64)
	must(t, e.Do("DELETE", fmt.Sprintf("/v1/clients/%d/clientUsers/%d", client, int64(viewerID)), nil, bearer(owner)), 200, "remove viewer")
	if res := e.Do("GET", appPath, nil, bearer(vt)); res.Status != 401 {
		t.Errorf("token of a removed member: %d", res.Status)
	}
}

// TestCLITokenRolesOnConfiguration: the herald CLI's calls with a CLI token get the role
// of the token's creator: a viewer reads the configuration but cannot change it, a
// developer changes it but cannot publish, an admin publishes.
func TestCLITokenRolesOnConfiguration(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "roles@example.com")
	client := e.client(t, owner, "Acme")
	dev := int64(e.app(t, owner, client, "development")["id"].(float64))
	prod := int64(e.app(t, owner, client, "production")["id"].(float64))
	base := fmt.Sprintf("/v1/clients/%d/cli-token", client)
	token := func(session string) string {
		return must(t, e.Do("POST", base, map[string]string{"name": "cli"}, bearer(session)), 201, "token").Map(t)["token"].(string)
	}
	viewer := token(e.member(t, owner, client, "viewer@example.com", "viewer"))
	developer := token(e.member(t, owner, client, "dev@example.com", "developer"))
	admin := token(e.member(t, owner, client, "admin@example.com", "admin"))
	app := fmt.Sprintf("/v1/apps/%d", dev)
	tpl := map[string]string{"identifier": "welcome", "name": "Welcome"}

	must(t, e.Do("GET", app+"/templates", nil, bearer(viewer)), 200, "viewer lists templates")
	must(t, e.Do("GET", app+"/workflows", nil, bearer(viewer)), 200, "viewer lists workflows")
	for _, req := range []struct {
		method, path string
		body         any
	}{
		{"POST", app + "/templates", tpl},
		{"POST", app + "/layouts", map[string]any{"identifier": "l", "html": "{{{content}}}"}},
		{"POST", app + "/translations", map[string]any{"locale": "en", "entries": map[string]string{}}},
		{"POST", app + "/categories", map[string]string{"identifier": "c", "name": "C"}},
		{"POST", app + "/commits", map[string]string{"message": "m"}},
		{"POST", app + "/notifications", map[string]any{"notification": map[string]string{"title": "t"}, "sendTo": map[string]any{"recipients": []string{"u"}}}},
	} {
		if res := e.Do(req.method, req.path, req.body, bearer(viewer)); res.Status != 403 {
			t.Errorf("viewer token: %s %s: %d %s", req.method, req.path, res.Status, res.Body)
		}
	}
	id := int64(must(t, e.Do("POST", app+"/templates", tpl, bearer(developer)), 201, "developer creates a template").Map(t)["id"].(float64))
	if res := e.Do("PUT", fmt.Sprintf("/v1/templates/%d/contents/inApp", id), map[string]any{"content": map[string]string{"title": "x"}}, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer token sets content: %d", res.Status)
	}
	must(t, e.Do("PUT", fmt.Sprintf("/v1/templates/%d/contents/inApp", id), map[string]any{"content": map[string]string{"title": "x"}}, bearer(developer)), 200, "developer sets content")
	commit := int64(must(t, e.Do("POST", app+"/commits", map[string]string{"message": "first"}, bearer(developer)), 201, "developer commits").Map(t)["id"].(float64))
	publish := map[string]int64{"commitId": commit, "publishTo": prod}
	if res := e.Do("POST", app+"/publish", publish, bearer(developer)); res.Status != 403 {
		t.Errorf("developer token publishes: %d %s", res.Status, res.Body)
	}
	must(t, e.Do("POST", app+"/publish", publish, bearer(admin)), 200, "admin publishes")
}

// TestCLITokenRoles: a token limited to a role acts with the lower of it and its creator's
// role; a limit above the creator's own role, or no role at all, is refused.
func TestCLITokenRoles(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "cli-roles@example.com")
	client := e.client(t, owner, "Acme")
	app := e.app(t, owner, client, "Prod")
	appPath := fmt.Sprintf("/v1/apps/%d", int64(app["id"].(float64)))
	base := fmt.Sprintf("/v1/clients/%d/cli-token", client)

	limited := must(t, e.Do("POST", base, map[string]string{"name": "read only", "role": "viewer"}, bearer(owner)), 201, "viewer token").Map(t)
	if limited["role"] != "viewer" {
		t.Errorf("created %v", limited)
	}
	tok := limited["token"].(string)
	must(t, e.Do("GET", appPath, nil, bearer(tok)), 200, "a viewer token reads")
	if res := e.Do("GET", appPath+"/secret", nil, bearer(tok)); res.Status != 403 {
		t.Errorf("a viewer token revealing the secret: %d", res.Status)
	}
	full := must(t, e.Do("POST", base, map[string]string{"name": "full"}, bearer(owner)), 201, "unlimited token").Map(t)
	if full["role"] != nil {
		t.Errorf("unlimited %v", full)
	}
	must(t, e.Do("GET", appPath+"/secret", nil, bearer(full["token"].(string))), 200, "an unlimited owner token")
	var list []map[string]any
	must(t, e.Do("GET", base, nil, bearer(owner)), 200, "list").JSON(t, &list)
	if len(list) != 2 || list[0]["role"] != "viewer" || list[1]["role"] != nil {
		t.Errorf("list %v", list)
	}

	// A developer cannot mint an admin token; unknown roles and wrong types are refused,
	// every problem at once, and nothing is created.
	dev := e.member(t, owner, client, "cli-dev@example.com", "developer")
	if msgs := problems(t, e.Do("POST", base, map[string]string{"name": strings.Repeat("x", 101), "role": "admin"}, bearer(dev))); strings.Join(msgs, "|") !=
		"name must be at most 100 characters|role must not be above your own role (developer)" {
		t.Errorf("problems %q", msgs)
	}
	if msgs := problems(t, e.Do("POST", base, map[string]string{"role": "root"}, bearer(dev))); strings.Join(msgs, "|") !=
		"role must be one of the following values: viewer, developer, admin, owner" {
		t.Errorf("problems %q", msgs)
	}
	if res := e.Do("POST", base, map[string]any{"role": 3}, bearer(dev)); res.Status != 400 {
		t.Errorf("a number as role: %d", res.Status)
	}
	must(t, e.Do("GET", base, nil, bearer(dev)), 200, "dev list").JSON(t, &list)
	if len(list) != 0 {
		t.Errorf("refused tokens were created: %v", list)
	}
	// A developer's token limited to developer stays a developer after a promotion.
	dt := must(t, e.Do("POST", base, map[string]string{"role": "developer"}, bearer(dev)), 201, "dev token").Map(t)["token"].(string)
	devID := must(t, e.Do("GET", "/v1/auth/me", nil, bearer(dev)), 200, "me").Map(t)["id"].(float64)
	must(t, e.Do("PUT", fmt.Sprintf("/v1/clients/%d/clientUsers/%d", client, int64(devID)), map[string]string{"role": "admin"}, bearer(owner)), 200, "promote")
	if res := e.Do("GET", fmt.Sprintf("/v1/clients/%d/clientUserInvitations", client), nil, bearer(dt)); res.Status != 403 {
		t.Errorf("a developer-limited token of an admin listing invitations: %d", res.Status)
	}
	// Another client's id is not found.
	other := e.client(t, e.user(t, "cli-roles-other@example.com"), "Other")
	if res := e.Do("POST", fmt.Sprintf("/v1/clients/%d/cli-token", other), map[string]string{"role": "viewer"}, bearer(owner)); res.Status != 404 {
		t.Errorf("another client's id: %d", res.Status)
	}
}
