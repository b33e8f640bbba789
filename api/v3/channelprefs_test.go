package v3_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

const allOn = `{"discord":true,"email":true,"inApp":true,"mobilePush":true,"msTeams":true,"slack":true,"sms":true,"webPush":true,"webhook":true,"whatsapp":true}`

func TestChannelPreferenceRoutes(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	res := e.Do("GET", "/v3/preferences/channels", nil, userH(f.plain, "nobody-yet"))
	if wantStatus(t, res, 200, "unknown user") && string(res.Body) != allOn {
		t.Errorf("unknown user: %s", res.Body)
	}
	noSMS := `{"discord":true,"email":true,"inApp":true,"mobilePush":true,"msTeams":true,"slack":true,"sms":false,"webPush":true,"webhook":true,"whatsapp":true}`
	for range 2 { // idempotent
		res = e.Do("PUT", "/v3/preferences/channels", map[string]bool{"sms": false}, alice)
		if wantStatus(t, res, 200, "put") && string(res.Body) != noSMS {
			t.Errorf("put answer %s", res.Body)
		}
	}
	// Channels not named keep their switch; a later PUT turns one back on.
	res = e.Do("PUT", "/v3/preferences/channels", map[string]bool{"email": false, "sms": true}, alice)
	wantStatus(t, res, 200, "second put")
	res = e.Do("GET", "/v3/preferences/channels", nil, alice)
	if want := `{"discord":true,"email":false,"inApp":true,"mobilePush":true,"msTeams":true,"slack":true,"sms":true,"webPush":true,"webhook":true,"whatsapp":true}`; string(res.Body) != want {
		t.Errorf("get %s", res.Body)
	}
	// The same identifier in another app, and another user of this app, are untouched.
	for _, h := range []stacktest.Headers{userH(f.other, "alice"), userH(f.plain, "bob")} {
		if res := e.Do("GET", "/v3/preferences/channels", nil, h); string(res.Body) != allOn {
			t.Errorf("other tenant or user: %s", res.Body)
		}
	}
}

func TestChannelPreferenceBadBodies(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	channels := "inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook"
	cases := []struct {
		body any
		want []string
	}{
		{`[]`, []string{"body must be a JSON object from channel names to booleans"}},
		{`{"fax":false,"sms":"no","email":null}`, []string{"email must be a boolean value", "fax is not a channel: the keys must be among the following values: " + channels, "sms must be a boolean value"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do("PUT", "/v3/preferences/channels", tc.body, alice), "put", tc.want...)
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM channel_preferences").Scan(&n); err != nil || n != 0 {
		t.Errorf("refused updates wrote %d switches (%v)", n, err)
	}
}

func TestCriticalCategoryIsLockedInPreferences(t *testing.T) {
	f := newFixture(t)
	e := f.e
	res := e.Do("POST", "/v3/categories", map[string]any{"identifier": "security", "name": "Security", "critical": true}, appH(f.plain))
	if wantStatus(t, res, 200, "create critical") && string(res.Body) != `{"id":`+itoa(firstID(t, res))+`,"identifier":"security","name":"Security","critical":true}` {
		t.Errorf("created %s", res.Body)
	}
	wantProblems(t, e.Do("POST", "/v3/categories", map[string]any{"identifier": "x", "name": "X", "critical": "yes"}, appH(f.plain)), "bad critical", "critical must be a boolean value")
	res = e.Do("GET", "/v3/preferences", nil, userH(f.plain, "alice"))
	want := `[{"category":{"id":` + itoa(firstID(t, e.Do("GET", "/v3/categories", nil, userH(f.plain, "alice")))) + `,"identifier":"security","name":"Security","critical":true},` +
		`"channelPreferences":[{"channel":"inApp","enabled":true}],"critical":true,` +
		`"lockedReason":"Critical notifications (such as security alerts, receipts and one-time codes) are always delivered, whatever your preferences."}]`
	if string(res.Body) != want {
		t.Errorf("preferences\n%s\nwant\n%s", res.Body, want)
	}
}

// firstID reads the id of a category answer, or of the first of a list of them.
func firstID(t *testing.T, res *stacktest.Response) int64 {
	t.Helper()
	var one struct{ ID int64 }
	if json.Unmarshal(res.Body, &one) == nil && one.ID != 0 {
		return one.ID
	}
	var list []struct{ ID int64 }
	if err := json.Unmarshal(res.Body, &list); err != nil || len(list) == 0 {
		t.Fatalf("no id in %s", res.Body)
	}
	return list[0].ID
}
