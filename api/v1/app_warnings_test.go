package v1_test

import (
	"fmt"
	"slices"
	"testing"
)

// warningCodes are the codes of an AppEntity's warnings.
func warningCodes(t *testing.T, app map[string]any) []string {
	t.Helper()
	list, ok := app["warnings"].([]any)
	if !ok {
		t.Fatalf("app without a warnings list: %v", app)
	}
	out := []string{}
	for _, w := range list {
		m := w.(map[string]any)
		if m["message"] == "" {
			t.Errorf("warning %v has no message", m)
		}
		out = append(out, m["code"].(string))
	}
	return out
}

// An app in user mode without secure mode (nor HMAC) says so in every answer about it; the
// long-lived token setting is an admin's app setting, warned about in secure mode, and
// another client's admins cannot change it.
func TestAppWarningsAndLongLivedUserTokens(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "warn@example.com")
	client := e.client(t, tok, "Acme")
	app := e.app(t, tok, client, "Prod")
	id := int64(app["id"].(float64))
	path := fmt.Sprintf("/v1/apps/%d", id)

	got := must(t, e.Do("GET", path, nil, bearer(tok)), 200, "get app").Map(t)
	if codes := warningCodes(t, got); !slices.Equal(codes, []string{"insecure_user_mode"}) || got["allowLongLivedUserTokens"] != false {
		t.Errorf("new app: warnings %v, allowLongLivedUserTokens %v", codes, got["allowLongLivedUserTokens"])
	}
	var list []map[string]any
	must(t, e.Do("GET", fmt.Sprintf("/v1/clients/%d/apps", client), nil, bearer(tok)), 200, "apps").JSON(t, &list)
	if len(list) != 1 || !slices.Equal(warningCodes(t, list[0]), []string{"insecure_user_mode"}) {
		t.Errorf("app list %v", list)
	}

	// Bad values change nothing.
	res := must(t, e.Do("PUT", path, map[string]any{"allowLongLivedUserTokens": "yes", "hideBranding": true}, bearer(tok)), 400, "bad update")
	if msgs := errMessages(t, res); !slices.Equal(msgs, []string{"allowLongLivedUserTokens must be a boolean"}) {
		t.Errorf("%q", msgs)
	}
	// HMAC signatures need the API secret: no longer the public-key-only warning.
	if up := must(t, e.Do("PUT", path, map[string]any{"hmacAuth": true}, bearer(tok)), 200, "hmac on").Map(t); len(warningCodes(t, up)) != 0 || up["hideBranding"] != false {
		t.Errorf("hmac app: %v", up)
	}
	must(t, e.Do("PUT", path, map[string]any{"hmacAuth": false}, bearer(tok)), 200, "hmac off")

	// Secure mode clears the warning; allowing long-lived tokens brings another.
	must(t, e.Do("POST", path+"/rsa-key", nil, bearer(tok)), 200, "rsa key")
	on := must(t, e.Do("PUT", path+"/secure-auth", nil, bearer(tok)), 200, "secure on").Map(t)
	if codes := warningCodes(t, on); on["secureAuth"] != true || len(codes) != 0 {
		t.Errorf("secure app: warnings %v", codes)
	}
	up := must(t, e.Do("PUT", path, map[string]any{"allowLongLivedUserTokens": true}, bearer(tok)), 200, "allow long-lived").Map(t)
	if codes := warningCodes(t, up); up["allowLongLivedUserTokens"] != true || !slices.Equal(codes, []string{"long_lived_user_tokens"}) {
		t.Errorf("long-lived: %v, warnings %v", up["allowLongLivedUserTokens"], codes)
	}

	// A developer may not change it (app settings are for admins); another client's owner
	// cannot see or change the app.
	dev := e.member(t, tok, client, "dev@example.com", "developer")
	must(t, e.Do("PUT", path, map[string]any{"allowLongLivedUserTokens": false}, bearer(dev)), 403, "developer")
	stranger := e.user(t, "stranger@example.com")
	e.client(t, stranger, "Other")
	must(t, e.Do("GET", path, nil, bearer(stranger)), 404, "another client's app")
	must(t, e.Do("PUT", path, map[string]any{"allowLongLivedUserTokens": false}, bearer(stranger)), 404, "another client's app")
	if after := must(t, e.Do("GET", path, nil, bearer(tok)), 200, "get app").Map(t); after["allowLongLivedUserTokens"] != true {
		t.Errorf("a refused caller changed the setting: %v", after)
	}
}
