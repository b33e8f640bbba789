package v3_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// flowRun registers a running run of app with a cancellation key.
func flowRun(t *testing.T, e *stacktest.Env, appID int64, key, user string) {
	t.Helper()
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), `INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, cancellation_key, workflow_id)
		VALUES ($1, gen_random_uuid(), 'wf', $3, $2, 'flow/wf/' || gen_random_uuid() || '/' || $3)`, appID, key, user); err != nil {
		t.Fatal(err)
	}
}

func runStatuses(t *testing.T, e *stacktest.Env, appID int64) string {
	t.Helper()
	var out string
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT coalesce(string_agg(user_identifier || '=' || status, ',' ORDER BY user_identifier), '')
		FROM flow_runs WHERE app_id = $1`, appID).Scan(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCancelWorkflowsByKey(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	other := e.NewApp("other")
	flowRun(t, e, e.App.AppID, "order-1", "ann")
	flowRun(t, e, e.App.AppID, "order-1", "bob")
	flowRun(t, e, e.App.AppID, "order-2", "cid")
	flowRun(t, e, other.AppID, "order-9", "dan")

	wantStatus(t, e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"order-1"}`, nil), 401, "no credentials")
	wantStatus(t, e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"order-1"}`, e.UserHeaders("ann")), 401, "user credentials")
	wantStatus(t, e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"order-1"}`, stacktest.Headers{"X-SERVICE-API-KEY": e.App.APIKey, "X-SERVICE-API-SECRET": "wrong"}), 401, "wrong secret")
	wantProblems(t, e.Do("POST", "/v3/workflows/cancel", `[1]`, e.AppHeaders()), "array body", "body must be a JSON object")
	wantProblems(t, e.Do("POST", "/v3/workflows/cancel", `{}`, e.AppHeaders()), "empty body", "cancellationKey must be a non-empty string")
	wantProblems(t, e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":" ","recipients":"ann"}`, e.AppHeaders()), "bad fields",
		"cancellationKey must be a non-empty string", "recipients must be an array of strings")
	many := `{"cancellationKey":"order-1","recipients":[` + strings.Repeat(`"u",`, 1000) + `"u"]}`
	wantProblems(t, e.Do("POST", "/v3/workflows/cancel", many, e.AppHeaders()), "too many recipients", "recipients must contain no more than 1000 elements")
	if s := runStatuses(t, e, e.App.AppID); s != "ann=running,bob=running,cid=running" {
		t.Fatalf("a bad request changed runs: %s", s)
	}

	// Another app's key cancels nothing here, and ours nothing there.
	res := e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"order-9"}`, e.AppHeaders())
	if wantStatus(t, res, 200, "foreign key") && string(res.Body) != `{"cancelled":0,"failed":0}` {
		t.Errorf("foreign key: %s", res.Body)
	}
	res = e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"order-1"}`, appH(other))
	if string(res.Body) != `{"cancelled":0,"failed":0}` || runStatuses(t, e, other.AppID) != "dan=running" {
		t.Errorf("another app cancelled our runs: %s", res.Body)
	}

	res = e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"order-1","recipients":["bob","nobody"]}`, e.AppHeaders())
	if string(res.Body) != `{"cancelled":1,"failed":0}` {
		t.Errorf("some recipients: %d %s", res.Status, res.Body)
	}
	res = e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"order-1"}`, e.AppHeaders())
	if string(res.Body) != `{"cancelled":1,"failed":0}` {
		t.Errorf("the rest: %d %s", res.Status, res.Body)
	}
	if s := runStatuses(t, e, e.App.AppID); s != "ann=cancelled,bob=cancelled,cid=running" {
		t.Errorf("after cancelling: %s", s)
	}
}

func TestFlowSchedules(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	other := e.NewApp("other")
	ctx := context.Background()
	if _, err := e.Stack.Flows.Create(ctx, e.App.AppID, []byte(`{"identifier":"digest","name":"Digest","definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"Daily"}}]}}`)); err != nil {
		t.Fatal(err)
	}
	path := "/v3/workflows/schedules"
	wantStatus(t, e.Do("POST", path, `{}`, nil), 401, "no credentials")
	wantStatus(t, e.Do("GET", path, nil, e.UserHeaders("ann")), 401, "user credentials")
	wantProblems(t, e.Do("POST", path, `"x"`, e.AppHeaders()), "string body", "body must be a JSON object")
	wantProblems(t, e.Do("POST", path, `{"cron":"61 25 * *","timezone":"Mars/Base","data":[]}`, e.AppHeaders()), "every problem",
		"workflow must be a non-empty string",
		"cron must have 5 fields (minute hour day-of-month month day-of-week), got 4",
		`timezone: unknown time zone "Mars/Base" (use an IANA name such as Europe/Berlin)`,
		"sendTo must be an object", "data must be an object")
	wantProblems(t, e.Do("POST", path, `{"workflow":"digest","cron":"0 9 * 13 MON-XYZ","sendTo":{"topics":["all"]}}`, e.AppHeaders()), "cron fields",
		"cron month: 13 is out of range 1-12", `cron day-of-week: "XYZ" is not a number or a name (SUN, MON, TUE, WED, THU, FRI, SAT)`)
	wantProblems(t, e.Do("POST", path, `{"workflow":"digest","cron":"0 9 * * *","sendTo":{"topics":["all"]}}`, e.AppHeaders()), "unpublished",
		`workflow "digest" has no published version`)
	wantProblems(t, e.Do("POST", path, `{"workflow":"digest","cron":"0 9 * * *","sendTo":{"topics":["all"]}}`, appH(other)), "another app's workflow",
		`workflow "digest" does not exist`)
	if _, err := e.Stack.Flows.Publish(ctx, e.App.AppID, "digest"); err != nil {
		t.Fatal(err)
	}

	res := e.Do("POST", path, `{"workflow":"digest","cron":"0 9 * * MON-FRI","timezone":"Europe/Berlin","sendTo":{"recipients":["ann"],"topics":["team"]},"data":{"kind":"daily"}}`, e.AppHeaders())
	var created struct {
		ID                                   int64
		Workflow, Cron, Timezone, ScheduleID string
		SendTo                               struct{ Recipients, Topics []string }
		Data                                 map[string]any
	}
	if !wantStatus(t, res, 201, "create") {
		t.FailNow()
	}
	res.JSON(t, &created)
	if created.Workflow != "digest" || created.Cron != "0 9 * * MON-FRI" || created.Timezone != "Europe/Berlin" ||
		!strings.HasPrefix(created.ScheduleID, "recurring/") || created.Data["kind"] != "daily" || len(created.SendTo.Topics) != 1 {
		t.Errorf("created %s", res.Body)
	}
	handle := e.Stack.Temporal.ScheduleClient().GetHandle(ctx, created.ScheduleID)
	desc, err := handle.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tz := desc.Schedule.Spec.TimeZoneName; tz != "Europe/Berlin" || len(desc.Info.NextActionTimes) == 0 {
		t.Errorf("schedule in Temporal: zone %q, next %v", tz, desc.Info.NextActionTimes)
	}
	if next := desc.Info.NextActionTimes[0]; next.In(mustZone(t, "Europe/Berlin")).Hour() != 9 {
		t.Errorf("next tick %s is not 09:00 in Berlin", next)
	}

	var list []map[string]any
	if e.Do("GET", path, nil, e.AppHeaders()).JSON(t, &list); len(list) != 1 {
		t.Errorf("list %v", list)
	}
	if e.Do("GET", path, nil, appH(other)).JSON(t, &list); len(list) != 0 {
		t.Errorf("another app lists our schedule: %v", list)
	}
	one := path + "/" + itoa(created.ID)
	wantProblems(t, e.Do("DELETE", path+"/abc", nil, e.AppHeaders()), "bad id", "scheduleId must be a positive integer number")
	wantError(t, e.Do("DELETE", one, nil, appH(other)), 404, "recurring schedule not found", "another app's delete")
	if res := e.Do("DELETE", one, nil, e.AppHeaders()); !wantStatus(t, res, 200, "delete") {
		t.FailNow()
	}
	_, err = handle.Describe(ctx)
	var nf *serviceerror.NotFound
	if !errors.As(err, &nf) {
		t.Errorf("the Temporal schedule outlived its deletion: %v", err)
	}
	wantError(t, e.Do("DELETE", one, nil, e.AppHeaders()), 404, "recurring schedule not found", "second delete")
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
