package v3_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) { stacktest.Main(m) }

func requestCount(t *testing.T, e *stacktest.Env) int {
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM notification_requests").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSendAcceptsWithoutTemporal(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"Hi"},"sendTo":{"recipients":["alice"]}}`, e.AppHeaders())
	if res.Status != 202 {
		t.Fatalf("status %d: %s", res.Status, res.Body)
	}
	var out struct{ RequestID string }
	res.JSON(t, &out)
	if len(out.RequestID) != 36 {
		t.Errorf("requestId %q is not a UUID", out.RequestID)
	}
	if n := requestCount(t, e); n != 1 {
		t.Errorf("outbox rows = %d", n)
	}
}

func TestSendRejectsBadBodiesAndChangesNothing(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	cases := []struct {
		body string
		want []string
	}{
		{`{"sendTo":"alice","recipients":[1]}`, []string{"notification must be an object", "sendTo must be an object", "recipients must be an array of strings"}},
		{`not json`, []string{"body must be a JSON object"}},
		{``, []string{"body must be a JSON object"}},
	}
	for _, tc := range cases {
		res := e.Do("POST", "/v3/notifications", tc.body, e.AppHeaders())
		if res.Status != 400 {
			t.Fatalf("%s: status %d", tc.body, res.Status)
		}
		var out struct {
			Status  string
			Message []string
		}
		res.JSON(t, &out)
		if out.Status != "error" || !slices.Equal(out.Message, tc.want) {
			t.Errorf("%s: got %+v, want %q", tc.body, out, tc.want)
		}
	}
	big := `{"notification":{"title":"` + strings.Repeat("x", 1<<20) + `"},"recipients":["a"]}`
	if res := e.Do("POST", "/v3/notifications", big, e.AppHeaders()); res.Status != 413 {
		t.Errorf("oversized body: status %d", res.Status)
	}
	if n := requestCount(t, e); n != 0 {
		t.Errorf("bad requests wrote %d outbox rows", n)
	}
}

func TestSendAuth(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	body := `{"notification":{"title":"Hi"},"sendTo":{"recipients":["alice"]}}`
	other := e.NewApp("other")
	cases := []struct {
		name    string
		headers stacktest.Headers
		want    string
	}{
		{"none", nil, "No authentication parameters found"},
		{"key only", stacktest.Headers{"X-SERVICE-API-KEY": e.App.APIKey}, "No valid combination"},
		{"user credentials", e.UserHeaders("alice"), "No valid combination"},
		{"wrong secret", stacktest.Headers{"X-SERVICE-API-KEY": e.App.APIKey, "X-SERVICE-API-SECRET": "nope"}, "Invalid API key or secret"},
		{"another app's secret", stacktest.Headers{"X-SERVICE-API-KEY": e.App.APIKey, "X-SERVICE-API-SECRET": other.APISecret}, "Invalid API key or secret"},
		{"unknown key", stacktest.Headers{"X-SERVICE-API-KEY": "unknown", "X-SERVICE-API-SECRET": e.App.APISecret}, "Invalid API key"},
		{"lower-case headers", stacktest.Headers{"x-service-api-key": e.App.APIKey}, "No valid combination"},
	}
	for _, tc := range cases {
		res := e.Do("POST", "/v3/notifications", body, tc.headers)
		if res.Status != 401 {
			t.Errorf("%s: status %d", tc.name, res.Status)
			continue
		}
		var out struct{ Status, Message string }
		res.JSON(t, &out)
		if out.Status != "error" || !strings.Contains(out.Message, tc.want) {
			t.Errorf("%s: %+v, want message containing %q", tc.name, out, tc.want)
		}
	}
	if n := requestCount(t, e); n != 0 {
		t.Errorf("unauthenticated sends wrote %d rows", n)
	}
}

func TestSendIdempotencyKey(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	h := e.AppHeaders()
	h["Idempotency-Key"] = "order-42"
	body := `{"notification":{"title":"Hi"},"sendTo":{"recipients":["alice"]}}`
	first := e.Do("POST", "/v3/notifications", body, h).Map(t)["requestId"]
	again := e.Do("POST", "/v3/notifications", body, h).Map(t)["requestId"]
	if first == nil || first != again {
		t.Errorf("same key and body gave %v then %v", first, again)
	}
	res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"Other"},"sendTo":{"recipients":["alice"]}}`, h)
	if res.Status != 422 {
		t.Errorf("same key, different body: status %d: %s", res.Status, res.Body)
	}
	if n := requestCount(t, e); n != 1 {
		t.Errorf("outbox rows = %d, want 1", n)
	}
}

func TestListRequiresCredentialsAndBoundsLimit(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	if res := e.Do("GET", "/v3/notifications", nil, nil); res.Status != 401 {
		t.Errorf("no credentials: %d", res.Status)
	}
	if res := e.Do("GET", "/v3/notifications", nil, stacktest.Headers{"X-SERVICE-API-KEY": "bad", "X-SERVICE-USER-ID": "a"}); res.Status != 401 {
		t.Errorf("bad key: %d", res.Status)
	}
	res := e.Do("GET", "/v3/notifications?limit=21&pageNo=0", nil, e.UserHeaders("alice"))
	if res.Status != 400 {
		t.Fatalf("limit=21: %d", res.Status)
	}
	var out struct{ Message []string }
	res.JSON(t, &out)
	if !slices.Equal(out.Message, []string{"pageNo must not be less than 1", "limit must not be greater than 20"}) {
		t.Errorf("messages %q", out.Message)
	}
	res = e.Do("GET", "/v3/notifications", nil, e.UserHeaders("nobody-yet"))
	if res.Status != 200 || !strings.Contains(string(res.Body), `"unreadCount":0`) || !strings.Contains(string(res.Body), `"data":[]`) {
		t.Errorf("empty inbox: %d %s", res.Status, res.Body)
	}
	// App credentials must name the user.
	if res := e.Do("GET", "/v3/notifications", nil, e.AppHeaders()); res.Status != 400 {
		t.Errorf("app credentials without userIdentifier: %d %s", res.Status, res.Body)
	}
}

// TestSendNamingAnUnavailableWorkflowIsRefused: a send naming a workflow the app does not
// have, or has not published, is a 422 at accept time (immediate or scheduled, with or
// without an Idempotency-Key) and stores nothing; a published one is accepted.
func TestSendNamingAnUnavailableWorkflowIsRefused(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	ctx := context.Background()
	other := e.NewApp("other")
	def := func(id string) []byte {
		return []byte(`{"identifier":"` + id + `","name":"` + id + `","definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"Hi"}}]}}`)
	}
	for _, c := range []struct {
		app     int64
		id      string
		publish bool
	}{{e.App.AppID, "draft", false}, {e.App.AppID, "live", true}, {other.AppID, "theirs", true}} {
		if _, err := e.Stack.Flows.Create(ctx, c.app, def(c.id)); err != nil {
			t.Fatal(err)
		}
		if c.publish {
			if _, err := e.Stack.Flows.Publish(ctx, c.app, c.id); err != nil {
				t.Fatal(err)
			}
		}
	}
	later := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	send := func(wf, extra string) string {
		return `{"notification":{"workflow":{"identifier":"` + wf + `"}},"sendTo":{"recipients":["ann"]}` + extra + `}`
	}
	keyed := func(k string) stacktest.Headers { return with(e.AppHeaders(), "Idempotency-Key", k) }
	for _, c := range []struct {
		name, body string
		h          stacktest.Headers
		want       string
	}{
		{"unknown", send("ghost", ""), e.AppHeaders(), `notification.workflow: workflow "ghost" does not exist in this app`},
		{"unpublished", send("draft", ""), e.AppHeaders(), `notification.workflow: workflow "draft" has no published version (publish it first)`},
		{"another app's workflow", send("theirs", ""), e.AppHeaders(), `notification.workflow: workflow "theirs" does not exist in this app`},
		{"scheduled, unknown", send("ghost", `,"sendAt":"`+later+`"`), e.AppHeaders(), `notification.workflow: workflow "ghost" does not exist in this app`},
		{"scheduled, unpublished", send("draft", `,"sendAt":"`+later+`"`), e.AppHeaders(), `notification.workflow: workflow "draft" has no published version (publish it first)`},
		{"with a key", send("ghost", ""), keyed("k-ghost"), `notification.workflow: workflow "ghost" does not exist in this app`},
		{"deprecated recipients", `{"notification":{"workflow":{"identifier":"ghost"}},"recipients":["ann"]}`, e.AppHeaders(), `notification.workflow: workflow "ghost" does not exist in this app`},
	} {
		wantError(t, e.Do("POST", "/v3/notifications", c.body, c.h), 422, c.want, c.name)
	}
	if n := requestCount(t, e); n != 0 {
		t.Fatalf("refused sends wrote %d outbox rows", n)
	}
	// A bad body is still a 400 listing its problems before any lookup.
	wantProblems(t, e.Do("POST", "/v3/notifications", `{"notification":{"workflow":{"identifier":""}},"sendTo":{"recipients":["ann"]}}`, e.AppHeaders()),
		"empty identifier", "notification.workflow.identifier must be a non-empty string")
	// Credentials come first: no credentials is a 401, not a 422.
	wantStatus(t, e.Do("POST", "/v3/notifications", send("ghost", ""), nil), 401, "no credentials")

	// The published workflow is accepted, now and scheduled; the other app may send its own.
	wantStatus(t, e.Do("POST", "/v3/notifications", send("live", ""), e.AppHeaders()), 202, "published")
	wantStatus(t, e.Do("POST", "/v3/notifications", send("live", `,"sendAt":"`+later+`"`), e.AppHeaders()), 202, "published, scheduled")
	wantStatus(t, e.Do("POST", "/v3/notifications", send("theirs", ""), appH(other)), 202, "the other app's own workflow")
	var scheduled int
	if err := e.Stack.DB.Pool.QueryRow(ctx, "SELECT count(*) FROM scheduled_notifications WHERE app_id = $1", e.App.AppID).Scan(&scheduled); err != nil {
		t.Fatal(err)
	}
	if n := requestCount(t, e); n != 3 || scheduled != 1 {
		t.Errorf("outbox rows %d (want 3), scheduled %d (want 1)", n, scheduled)
	}

	// A repeat of an accepted request (same key and body) answers as the first did, even
	// after its workflow is gone.
	first := e.Do("POST", "/v3/notifications", send("live", ""), keyed("k-live"))
	wantStatus(t, first, 202, "keyed send")
	if _, err := e.Stack.DB.Pool.Exec(ctx, "DELETE FROM flows WHERE app_id = $1 AND identifier = 'live'", e.App.AppID); err != nil {
		t.Fatal(err)
	}
	again := e.Do("POST", "/v3/notifications", send("live", ""), keyed("k-live"))
	if again.Status != 202 || again.Map(t)["requestId"] != first.Map(t)["requestId"] {
		t.Errorf("repeat after the workflow went: %d %s, first %s", again.Status, again.Body, first.Body)
	}
	wantError(t, e.Do("POST", "/v3/notifications", send("live", ""), e.AppHeaders()), 422, `notification.workflow: workflow "live" does not exist in this app`, "deleted workflow")
}
