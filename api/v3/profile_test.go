package v3_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
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

// patchShape is the 400 of a PATCH /profile body that is neither an array nor an object.
const patchShape = "body must be an array of JSON Patch operations (RFC 6902) or an object of profile keys to merge (JSON Merge Patch, RFC 7386)"

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
		{"PATCH", `"plan"`, []string{patchShape}},
		{"PATCH", `5`, []string{patchShape}},
		{"PATCH", `null`, []string{patchShape}},
		{"PATCH", `{"plan":`, []string{"body must be valid JSON"}},
		{"PATCH", `{"identifier":"bob","plan":"team"}`, []string{"the patched profile must not contain the key identifier: the identifier is not part of the profile"}},
		{"PATCH", `{"bio":"` + strings.Repeat("x", 70<<10) + `"}`, []string{"the patched profile must be at most 65536 bytes"}},
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

// TestProfileMergePatch is PATCH /profile with an object, as the published SDKs send it
// (the front-end SDK's setProfileAttributes): an RFC 7386 merge patch.
func TestProfileMergePatch(t *testing.T) {
	f := newFixture(t)
	e := f.e
	alice := userH(f.plain, "alice")
	// A user who does not exist yet is created with the attributes.
	res := e.Do("PATCH", "/v3/profile", map[string]any{"firstName": "Alice", "plan": "free"}, alice)
	if wantStatus(t, res, 200, "first merge") && !sameJSON(res.Body, `{"firstName":"Alice","plan":"free"}`) {
		t.Errorf("first merge: %s", res.Body)
	}
	steps := []struct{ body, want string }{
		// Keys replace, others stay; null removes; nested objects merge; arrays replace.
		{`{"plan":"pro","address":{"city":"Oslo","zip":"0150"},"tags":["a","b"]}`, `{"address":{"city":"Oslo","zip":"0150"},"firstName":"Alice","plan":"pro","tags":["a","b"]}`},
		{`{"firstName":null,"address":{"zip":null,"country":"NO"},"tags":["c"],"missing":null}`, `{"address":{"city":"Oslo","country":"NO"},"plan":"pro","tags":["c"]}`},
		{`{}`, `{"address":{"city":"Oslo","country":"NO"},"plan":"pro","tags":["c"]}`},
		// identifier: null removes nothing (the key is never stored) and is accepted.
		{`{"identifier":null,"address":null}`, `{"plan":"pro","tags":["c"]}`},
	}
	for _, st := range steps {
		res := e.Do("PATCH", "/v3/profile", st.body, alice)
		if wantStatus(t, res, 200, st.body) && !sameJSON(res.Body, st.want) {
			t.Errorf("PATCH %s: %s, want %s", st.body, res.Body, st.want)
		}
	}
	// The Content-Type does not choose the format (SDKs send application/json).
	for ct, body := range map[string]string{"application/merge-patch+json": `{"tags":["c"]}`, "application/json-patch+json": `[{"op":"test","path":"/tags/0","value":"c"}]`, "text/plain": `{}`} {
		h := with(alice, "Content-Type", ct)
		if ct == "text/plain" {
			// Leniency beyond the document, which lists the types SDKs send.
			h = with(h, stacktest.OutOfContract, "any Content-Type is read")
		}
		if res := e.Do("PATCH", "/v3/profile", body, h); res.Status != 200 || !sameJSON(res.Body, `{"plan":"pro","tags":["c"]}`) {
			t.Errorf("Content-Type %s: %d %s", ct, res.Status, res.Body)
		}
	}
	// The array form still works after merges, and every user credential may merge.
	if res := e.Do("PATCH", "/v3/profile", `[{"op":"replace","path":"/plan","value":"team"}]`, alice); !sameJSON(res.Body, `{"plan":"team","tags":["c"]}`) {
		t.Errorf("JSON Patch after merges: %d %s", res.Status, res.Body)
	}
	for name, h := range map[string]stacktest.Headers{
		"signature": sigH(f.hmac, "bob"), "token": bearerH(f.token(f.secure, "bob")),
		"key and token": with(bearerH(f.token(f.plain, "bob")), prefix+"API-KEY", f.plain.APIKey),
	} {
		if res := e.Do("PATCH", "/v3/profile", `{"via":"`+name+`"}`, h); res.Status != 200 || !sameJSON(res.Body, `{"via":"`+name+`"}`) {
			t.Errorf("merge with %s: %d %s", name, res.Status, res.Body)
		}
	}

	// Auth: no credentials, a wrong key, app credentials without a user, a secure app
	// without its token, the HMAC app without a signature: 401, and nothing is written.
	for name, h := range map[string]stacktest.Headers{
		"none":                nil,
		"wrong key":           userH(apps.Credentials{APIKey: "nope"}, "alice"),
		"app without a user":  appH(f.plain),
		"secure without JWT":  userH(f.secure, "alice"),
		"hmac without a sig":  userH(f.hmac, "alice"),
		"hmac with a bad sig": with(userH(f.hmac, "alice"), prefix+"USER-SIGNATURE", signature("wrong", "alice")),
	} {
		if res := e.Do("PATCH", "/v3/profile", `{"plan":"hacked"}`, h); res.Status != 401 {
			t.Errorf("%s: %d %s", name, res.Status, res.Body)
		}
	}
	if res := e.Do("GET", "/v3/profile", nil, alice); !sameJSON(res.Body, `{"plan":"team","tags":["c"]}`) {
		t.Errorf("after refused merges: %s", res.Body)
	}

	// Another tenant's alice is another user: merging there leaves this one alone.
	other := userH(f.other, "alice")
	if res := e.Do("PATCH", "/v3/profile", `{"plan":null,"team":"other"}`, other); !sameJSON(res.Body, `{"team":"other"}`) {
		t.Errorf("other tenant's merge: %d %s", res.Status, res.Body)
	}
	if res := e.Do("GET", "/v3/profile", nil, alice); !sameJSON(res.Body, `{"plan":"team","tags":["c"]}`) {
		t.Errorf("another tenant's merge changed this one: %s", res.Body)
	}
}

// sameJSON reports whether got holds the same JSON value as want (key order aside: jsonb
// orders keys its own way).
func sameJSON(got []byte, want string) bool {
	var a, b any
	return json.Unmarshal(got, &a) == nil && json.Unmarshal([]byte(want), &b) == nil && reflect.DeepEqual(a, b)
}
