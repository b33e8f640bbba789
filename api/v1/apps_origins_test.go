package v1_test

import (
	"fmt"
	"slices"
	"testing"
)

// allowedOrigins is an app setting of PUT /v1/apps/{appId}: validated, normalised, kept
// when absent, cleared by an empty list, and only for the caller's own apps.
func TestAppAllowedOrigins(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "origins@example.com")
	client := e.client(t, tok, "Acme")
	app := e.app(t, tok, client, "Prod")
	path := fmt.Sprintf("/v1/apps/%d", int64(app["id"].(float64)))

	if got := app["allowedOrigins"]; fmt.Sprint(got) != "[]" {
		t.Errorf("new app allowedOrigins = %v, want []", got)
	}
	res := must(t, e.Do("PUT", path, map[string]any{"allowedOrigins": "https://a.example"}, bearer(tok)), 400, "not an array")
	if got := errMessages(t, res); !slices.Equal(got, []string{"allowedOrigins must be an array of strings"}) {
		t.Errorf("%q", got)
	}
	res = must(t, e.Do("PUT", path, map[string]any{"allowedOrigins": []string{"https://ok.example", "ftp://x.example", "https://a.example/path", "*.example.com"}}, bearer(tok)), 400, "bad origins")
	want := []string{
		"allowedOrigins[1] must be an origin such as https://app.example.com (scheme, host and optional port) or *",
		"allowedOrigins[2] must be an origin such as https://app.example.com (scheme, host and optional port) or *",
		"allowedOrigins[3] must be an origin such as https://app.example.com (scheme, host and optional port) or *",
	}
	if got := errMessages(t, res); !slices.Equal(got, want) {
		t.Errorf("%q", got)
	}
	if got := must(t, e.Do("GET", path, nil, bearer(tok)), 200, "get").Map(t)["allowedOrigins"]; fmt.Sprint(got) != "[]" {
		t.Errorf("a refused update changed allowedOrigins to %v", got)
	}

	up := must(t, e.Do("PUT", path, map[string]any{"allowedOrigins": []string{"HTTPS://Shop.Example:443/", "http://localhost:5173", "https://shop.example"}}, bearer(tok)), 200, "update").Map(t)
	if got := fmt.Sprint(up["allowedOrigins"]); got != "[https://shop.example http://localhost:5173]" {
		t.Errorf("normalised origins = %s", got)
	}
	up = must(t, e.Do("PUT", path, map[string]any{"name": "Renamed"}, bearer(tok)), 200, "rename").Map(t)
	if got := fmt.Sprint(up["allowedOrigins"]); got != "[https://shop.example http://localhost:5173]" {
		t.Errorf("an update without allowedOrigins changed them to %s", got)
	}
	up = must(t, e.Do("PUT", path, map[string]any{"allowedOrigins": []string{}}, bearer(tok)), 200, "clear").Map(t)
	if got := fmt.Sprint(up["allowedOrigins"]); got != "[]" {
		t.Errorf("cleared origins = %s", got)
	}

	// Another account cannot change them.
	other := e.user(t, "intruder@example.com")
	if res := e.Do("PUT", path, map[string]any{"allowedOrigins": []string{"*"}}, bearer(other)); res.Status != 404 && res.Status != 403 {
		t.Errorf("another account's update: %d %s", res.Status, res.Body)
	}
	if got := must(t, e.Do("GET", path, nil, bearer(tok)), 200, "get").Map(t)["allowedOrigins"]; fmt.Sprint(got) != "[]" {
		t.Errorf("another account changed allowedOrigins to %v", got)
	}
}
