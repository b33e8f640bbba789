package v3_test

import (
	"strings"
	"testing"
)

func TestProfileRoutes(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	if res := e.Do("GET", "/v3/profile", nil, alice); string(res.Body) != `{}` {
		t.Errorf("new user's profile: %s", res.Body)
	}
	steps := []struct {
		method string
		body   any
		want   string
	}{
		{"PUT", map[string]any{"name": "Alice", "plan": "free"}, `{"name":"Alice","plan":"free"}`},
		{"PUT", map[string]any{"plan": "pro", "tags": []string{"a"}}, `{"name":"Alice","plan":"pro","tags":["a"]}`},
		{"PATCH", `[{"op":"test","path":"/plan","value":"pro"},{"op":"replace","path":"/plan","value":"team"},{"op":"add","path":"/tags/-","value":"b"},{"op":"remove","path":"/name"}]`, `{"plan":"team","tags":["a","b"]}`},
		{"PATCH", `[{"op":"copy","from":"/plan","path":"/was"},{"op":"move","from":"/was","path":"/old"}]`, `{"old":"team","plan":"team","tags":["a","b"]}`},
		{"GET", nil, `{"old":"team","plan":"team","tags":["a","b"]}`},
	}
	for _, st := range steps {
		res := e.Do(st.method, "/v3/profile", st.body, alice)
		if wantStatus(t, res, 200, st.method) && string(res.Body) != st.want {
			t.Errorf("%s: %s, want %s", st.method, res.Body, st.want)
		}
	}
}

func TestProfileBadPatchesChangeNothing(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	wantStatus(t, e.Do("PUT", "/v3/profile", map[string]any{"plan": "pro", "n": 1}, alice), 200, "put")
	const unchanged = `{"n":1,"plan":"pro"}`
	cases := []struct {
		method string
		body   string
		want   []string
	}{
		{"PATCH", `[{"op":"replace","path":"/n","value":2},{"op":"test","path":"/plan","value":"free"}]`, []string{`[1] test at "/plan" failed: the value differs; the profile is unchanged`}},
		{"PATCH", `[{"op":"replace","path":"/n","value":2},{"op":"remove","path":"/missing"}]`, []string{`[1] remove at "/missing" cannot be applied: the path does not exist or is not valid here; the profile is unchanged`}},
		{"PATCH", `[{"op":"replace","path":"/a/b","value":2}]`, []string{`[0] replace at "/a/b" cannot be applied: the path does not exist or is not valid here; the profile is unchanged`}},
		{"PATCH", `[{"op":"add","path":"/identifier","value":"x"}]`, []string{"the patched profile must not contain the key identifier: the identifier is not part of the profile"}},
		{"PATCH", `[{"op":"replace","path":"","value":[1]}]`, []string{"the patched profile must be an object"}},
		{"PATCH", `{"op":"add"}`, []string{"body must be an array of JSON Patch operations"}},
		{"PATCH", `[{"op":"nope","path":"a"},{"op":"add","path":"/x"},5,{"op":"move","path":"/y"}]`, []string{
			"[0].op must be one of the following values: add, remove, replace, move, copy, test",
			"[0].path must be a JSON Pointer string", "[1].value is required for add", "[2] must be an object",
			"[3].from must be a JSON Pointer string"}},
		{"PATCH", `[` + strings.TrimSuffix(strings.Repeat(`{"op":"test","path":"/n","value":1},`, 101), ",") + `]`, []string{"body must contain no more than 100 operations"}},
		{"PUT", `[1]`, []string{"body must be a JSON object of profile keys"}},
		{"PUT", `{"identifier":"bob"}`, []string{"profile must not contain the key identifier: the identifier is not part of the profile"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do(tc.method, "/v3/profile", tc.body, alice), tc.method+" "+tc.body, tc.want...)
		if res := e.Do("GET", "/v3/profile", nil, alice); string(res.Body) != unchanged {
			t.Fatalf("after %s: profile %s", tc.body, res.Body)
		}
	}
}

func TestBodiesOverTheLimitAreRefused(t *testing.T) {
	f := newFixture(t)
	big := `{"bio":"` + strings.Repeat("x", 1<<20) + `"}`
	for _, r := range []struct {
		method, path string
		h            map[string]string
	}{
		{"PUT", "/v3/profile", userH(f.plain, "alice")},
		{"PUT", "/v3/users/alice", appH(f.plain)},
		{"POST", "/v3/topics", appH(f.plain)},
	} {
		wantError(t, f.e.Do(r.method, r.path, big, r.h), 413, "request body too large", r.method+" "+r.path)
	}
	if res := f.e.Do("GET", "/v3/profile", nil, userH(f.plain, "alice")); string(res.Body) != `{}` {
		t.Errorf("an oversized body changed the profile: %s", res.Body)
	}
}
