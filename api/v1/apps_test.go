package v1_test

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"slices"
	"testing"
	"time"

	"crypto/rsa"

	"github.com/heraldhq/herald/internal/audience/userjwt"
)

func TestAppSettingsKeysAndTokens(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "app@example.com")
	client := e.client(t, tok, "Acme")
	app := e.app(t, tok, client, "Prod")
	id := int64(app["id"].(float64))
	path := fmt.Sprintf("/v1/apps/%d", id)

	res := must(t, e.Do("PUT", path, map[string]any{"name": "", "hideBranding": "yes", "enableWebPush": 1}, bearer(tok)), 400, "bad update")
	if got := errMessages(t, res); !slices.Equal(got, []string{"enableWebPush must be a boolean", "hideBranding must be a boolean", "name should not be empty"}) {
		t.Errorf("%q", got)
	}
	up := must(t, e.Do("PUT", path, map[string]any{"name": "Production", "hideBranding": true}, bearer(tok)), 200, "update").Map(t)
	if up["name"] != "Production" || up["hideBranding"] != true || up["enableWebPush"] != false {
		t.Errorf("updated %v", up)
	}

	// Secure mode needs a key first.
	if res := e.Do("PUT", path+"/secure-auth", nil, bearer(tok)); res.Status != 400 {
		t.Errorf("secure mode without a key: %d", res.Status)
	}
	if res := e.Do("GET", "/v1/auth/user/alice/generate-token?appId="+fmt.Sprint(id), nil, bearer(tok)); res.Status != 404 {
		t.Errorf("token without a key: %d %s", res.Status, res.Body)
	}
	key := must(t, e.Do("POST", path+"/rsa-key", nil, bearer(tok)), 200, "rsa key").Map(t)
	if key["privateKey"] == nil || key["publicKey"] == nil {
		t.Fatalf("rsa-key answer %v", key)
	}
	pub := must(t, e.Do("GET", path+"/rsa-key", nil, bearer(tok)), 200, "get key").Map(t)
	if pub["privateKey"] != nil || pub["publicKey"] != key["publicKey"] {
		t.Errorf("GET rsa-key %v", pub)
	}
	on := must(t, e.Do("PUT", path+"/secure-auth", nil, bearer(tok)), 200, "toggle").Map(t)
	if on["secureAuth"] != true {
		t.Errorf("secure auth %v", on["secureAuth"])
	}
	if off := must(t, e.Do("PUT", path+"/secure-auth", nil, bearer(tok)), 200, "toggle").Map(t); off["secureAuth"] != false {
		t.Errorf("toggled back %v", off["secureAuth"])
	}

	// Minted tokens verify with the app's public key.
	publicKey := parsePub(t, pub["publicKey"].(string))
	ut := must(t, e.Do("GET", fmt.Sprintf("/v1/auth/user/bob%%40x.io/generate-token?appId=%d&expiresIn=600", id), nil, bearer(tok)), 200, "user token").Map(t)
	c, err := userjwt.Verify(ut["token"].(string), publicKey, time.Now(), false)
	if err != nil || c.User() != "bob@x.io" || c.APIKey != app["apiKey"] {
		t.Errorf("user token claims %+v, %v", c, err)
	}
	at := must(t, e.Do("GET", fmt.Sprintf("/v1/auth/app/%d/generate-token", id), nil, bearer(tok)), 200, "app token").Map(t)
	if c, err := userjwt.Verify(at["token"].(string), publicKey, time.Now(), false); err != nil || c.User() != "app@example.com" {
		t.Errorf("app token claims %+v, %v", c, err)
	}
	res = must(t, e.Do("GET", "/v1/auth/user/bob/generate-token?expiresIn=1", nil, bearer(tok)), 400, "bad token query")
	if got := errMessages(t, res); !slices.Equal(got, []string{"appId is required", "expiresIn must not be less than 60"}) {
		t.Errorf("%q", got)
	}

	// Default environments.
	c2 := e.client(t, tok, "Fresh")
	env := must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/initialize-client-environment", c2), nil, bearer(tok)), 200, "init").Map(t)
	if env["created"] != true || len(env["apps"].([]any)) != 2 {
		t.Errorf("init %v", env)
	}
	again := must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/initialize-client-environment", c2), nil, bearer(tok)), 200, "init again").Map(t)
	if again["created"] != false || len(again["apps"].([]any)) != 2 {
		t.Errorf("second init %v", again)
	}
	var apps []map[string]any
	must(t, e.Do("GET", fmt.Sprintf("/v1/clients/%d/apps", c2), nil, bearer(tok)), 200, "apps").JSON(t, &apps)
	if len(apps) != 2 || apps[0]["apiSecret"] != nil {
		t.Errorf("apps %v", apps)
	}
	res = must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/apps", c2), map[string]any{"name": 3}, bearer(tok)), 400, "bad app")
	if got := errMessages(t, res); !slices.Equal(got, []string{"name must be a string"}) {
		t.Errorf("%q", got)
	}
}

func parsePub(t *testing.T, p string) *rsa.PublicKey {
	t.Helper()
	block, _ := pem.Decode([]byte(p))
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return k.(*rsa.PublicKey)
}

func TestAppUsersAndCategories(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "users@example.com")
	client := e.client(t, tok, "Acme")
	app := e.app(t, tok, client, "Prod")
	path := fmt.Sprintf("/v1/apps/%d", int64(app["id"].(float64)))

	res := must(t, e.Do("POST", path+"/users", map[string]any{"profile": []int{1}}, bearer(tok)), 400, "bad user")
	if got := errMessages(t, res); !slices.Equal(got, []string{"identifier should not be empty", "profile must be an object"}) {
		t.Errorf("%q", got)
	}
	for _, u := range []string{"alice", "albert", "bob"} {
		must(t, e.Do("POST", path+"/users", map[string]any{"identifier": u, "profile": map[string]string{"email": u + "@x.io"}}, bearer(tok)), 200, "create user")
	}
	if res := e.Do("POST", path+"/users", map[string]any{"identifier": "bob"}, bearer(tok)); res.Status != 409 {
		t.Errorf("duplicate user: %d", res.Status)
	}
	page := must(t, e.Do("GET", path+"/users?identifier=al&limit=1&pageNo=2", nil, bearer(tok)), 200, "list").Map(t)
	data := page["data"].([]any)
	if page["pagination"].(map[string]any)["totalCount"] != float64(2) || len(data) != 1 || data[0].(map[string]any)["identifier"] != "alice" {
		t.Errorf("page %v", page)
	}
	res = must(t, e.Do("GET", path+"/users?limit=0&pageNo=x", nil, bearer(tok)), 400, "bad paging")
	if got := errMessages(t, res); !slices.Equal(got, []string{"pageNo must be an integer number", "limit must not be less than 1"}) {
		t.Errorf("%q", got)
	}

	must(t, e.Do("PUT", path+"/users/bob", map[string]any{"name": "Bob"}, bearer(tok)), 200, "update user")
	must(t, e.Do("PUT", path+"/users/carol", map[string]any{"name": "Carol"}, bearer(tok)), 200, "upsert user")
	prof := must(t, e.Do("GET", path+"/users/bob/profile", nil, bearer(tok)), 200, "profile").Map(t)
	if prof["name"] != "Bob" || prof["email"] != "bob@x.io" {
		t.Errorf("profile %v", prof)
	}
	if res := e.Do("PUT", path+"/users/bob", `"x"`, bearer(tok)); res.Status != 400 {
		t.Errorf("string profile: %d", res.Status)
	}

	cat := must(t, e.Do("POST", path+"/categories", map[string]string{"identifier": "billing", "name": "Billing"}, bearer(tok)), 201, "category").Map(t)
	res = must(t, e.Do("POST", path+"/categories", map[string]string{"identifier": "has space"}, bearer(tok)), 400, "bad category")
	if got := errMessages(t, res); !slices.Equal(got, []string{"identifier must be 1 to 100 letters, digits or _ . : -", "name must be a string"}) {
		t.Errorf("%q", got)
	}
	if res := e.Do("POST", path+"/categories", map[string]string{"identifier": "billing", "name": "Again"}, bearer(tok)); res.Status != 409 {
		t.Errorf("duplicate category: %d", res.Status)
	}
	if _, err := e.Stack.DB.Pool.Exec(t.Context(),
		"INSERT INTO preferences (app_id, user_id, category_id, channel, enabled) SELECT app_id, id, $1, 'email', false FROM users WHERE identifier = 'bob'",
		int64(cat["id"].(float64))); err != nil {
		t.Fatal(err)
	}
	var prefs []struct {
		Category           *struct{ Identifier string }
		ChannelPreferences []struct {
			Channel string
			Enabled bool
		}
	}
	must(t, e.Do("GET", path+"/users/bob/preferences", nil, bearer(tok)), 200, "preferences").JSON(t, &prefs)
	if len(prefs) != 2 || prefs[0].Category != nil || prefs[1].Category.Identifier != "billing" {
		t.Fatalf("preferences %+v", prefs)
	}
	for _, cp := range prefs[1].ChannelPreferences {
		if cp.Enabled != (cp.Channel != "email") {
			t.Errorf("billing %s enabled=%v", cp.Channel, cp.Enabled)
		}
	}

	catPath := fmt.Sprintf("/v1/categories/%d", int64(cat["id"].(float64)))
	if got := must(t, e.Do("PUT", catPath, map[string]string{"name": "Invoices"}, bearer(tok)), 200, "rename").Map(t)["name"]; got != "Invoices" {
		t.Errorf("renamed to %v", got)
	}
	if res := e.Do("PUT", catPath, map[string]any{"name": false}, bearer(tok)); res.Status != 400 {
		t.Errorf("bad rename: %d", res.Status)
	}
	must(t, e.Do("DELETE", catPath, nil, bearer(tok)), 200, "delete category")
	if res := e.Do("DELETE", catPath, nil, bearer(tok)); res.Status != 404 {
		t.Errorf("deleted twice: %d", res.Status)
	}
	if res := e.Do("GET", path+"/users/%FF/profile", nil, bearer(tok)); res.Status != 404 {
		t.Errorf("non-UTF-8 identifier: %d", res.Status)
	}
	if res := e.Do("GET", path+"/users?identifier=%FF", nil, bearer(tok)); res.Status != 400 {
		t.Errorf("non-UTF-8 prefix: %d", res.Status)
	}
	must(t, e.Do("DELETE", path+"/users/bob", nil, bearer(tok)), 200, "delete user")
	if res := e.Do("GET", path+"/users/bob/profile", nil, bearer(tok)); res.Status != 404 {
		t.Errorf("deleted user: %d", res.Status)
	}
}
