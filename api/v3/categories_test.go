package v3_test

import (
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/inboxtest"
)

func TestCategoryRoutes(t *testing.T) {
	f := newFixture(t)
	e, app := f.e, appH(f.plain)
	res := e.Do("POST", "/v3/categories", map[string]string{"identifier": "news", "name": "News"}, app)
	var c struct {
		ID               int64
		Identifier, Name string
	}
	if wantStatus(t, res, 200, "create") {
		res.JSON(t, &c)
	}
	if c.Identifier != "news" || c.Name != "News" || c.ID == 0 {
		t.Errorf("created %+v", c)
	}
	wantError(t, e.Do("POST", "/v3/categories", map[string]string{"identifier": "news", "name": "Again"}, app), 409, `a category with identifier "news" already exists`, "duplicate")
	wantStatus(t, e.Do("POST", "/v3/categories", map[string]string{"identifier": "news", "name": "News"}, appH(f.other)), 200, "same identifier in another app")
	res = e.Do("GET", "/v3/categories", nil, userH(f.plain, "alice"))
	if string(res.Body) != `[{"id":`+itoa(c.ID)+`,"identifier":"news","name":"News","critical":false}]` {
		t.Errorf("list %s", res.Body)
	}
	// Deleting keeps the notifications, without a category.
	id := inboxtest.Seed(t, e.Stack.DB, f.plain.AppID, "alice", 1, &c.ID)[0]
	wantError(t, e.Do("DELETE", "/v3/categories/"+itoa(c.ID), nil, appH(f.other)), 404, "category not found", "another app's category")
	res = e.Do("DELETE", "/v3/categories/"+itoa(c.ID), nil, app)
	if wantStatus(t, res, 200, "delete") && string(res.Body) != `{"message":"category deleted","statusCode":200}` {
		t.Errorf("delete answer %s", res.Body)
	}
	wantError(t, e.Do("DELETE", "/v3/categories/"+itoa(c.ID), nil, app), 404, "category not found", "delete again")
	res = e.Do("GET", "/v3/notifications/"+itoa(id), nil, userH(f.plain, "alice"))
	if wantStatus(t, res, 200, "notification of a deleted category") && !strings.Contains(string(res.Body), `"category":null`) {
		t.Errorf("notification after its category went: %s", res.Body)
	}
}

func TestCategoryBadBodies(t *testing.T) {
	f := newFixture(t)
	e, app := f.e, appH(f.plain)
	cases := []struct {
		method, path string
		body         any
		want         []string
	}{
		{"POST", "/v3/categories", `[]`, []string{"body must be a JSON object"}},
		{"POST", "/v3/categories", `{}`, []string{"identifier must be a string", "name must be a string"}},
		{"POST", "/v3/categories", `{"identifier":" ","name":""}`, []string{"identifier should not be empty", "name should not be empty"}},
		{"POST", "/v3/categories", map[string]string{"identifier": strings.Repeat("i", 101), "name": strings.Repeat("n", 256)}, []string{"identifier must be at most 100 characters", "name must be at most 255 characters"}},
		{"POST", "/v3/categories", map[string]string{"identifier": "has space", "name": "x"}, []string{"identifier must be 1 to 100 letters, digits or _ . : -"}},
		{"DELETE", "/v3/categories/news", nil, []string{"categoryId must be a positive integer number"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do(tc.method, tc.path, tc.body, app), tc.method+" "+tc.path, tc.want...)
	}
	if res := e.Do("GET", "/v3/categories", nil, userH(f.plain, "alice")); string(res.Body) != `[]` {
		t.Errorf("refused bodies created categories: %s", res.Body)
	}
}
