package v3_test

import (
	"context"
	"testing"
)

func TestFlowPreferenceRoutes(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	ctx := context.Background()
	for _, q := range []struct {
		app      int64
		ident    string
		critical bool
	}{{f.plain.AppID, "billing-reminder", false}, {f.plain.AppID, "otp", true}, {f.other.AppID, "theirs", false}} {
		if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO flows (app_id, identifier, name, draft, published_version, critical) VALUES ($1, $2, $2, '{"steps":[]}', 1, $3)`, q.app, q.ident, q.critical); err != nil {
			t.Fatal(err)
		}
	}
	// A draft that was never published is not listed.
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO flows (app_id, identifier, name, draft) VALUES ($1, 'draft', 'draft', '{"steps":[]}')`, f.plain.AppID); err != nil {
		t.Fatal(err)
	}
	lockedReason := "Critical notifications (such as security alerts, receipts and one-time codes) are always delivered, whatever your preferences."
	unset := `[{"workflow":{"identifier":"billing-reminder","name":"billing-reminder"},"enabled":true,"channels":{},"critical":false},` +
		`{"workflow":{"identifier":"otp","name":"otp"},"enabled":true,"channels":{},"critical":true,"lockedReason":"` + lockedReason + `"}]`
	res := e.Do("GET", "/v3/preferences/workflows", nil, alice)
	if wantStatus(t, res, 200, "get") && string(res.Body) != unset {
		t.Errorf("unset:\n%s\nwant\n%s", res.Body, unset)
	}
	body := map[string]any{"workflows": []any{
		map[string]any{"identifier": "billing-reminder", "enabled": false, "channels": map[string]bool{"sms": true, "email": true}},
		map[string]any{"identifier": "billing-reminder", "channels": map[string]bool{"email": false}}, // a later switch wins
	}}
	want := `[{"workflow":{"identifier":"billing-reminder","name":"billing-reminder"},"enabled":false,"channels":{"email":false,"sms":true},"critical":false},` +
		`{"workflow":{"identifier":"otp","name":"otp"},"enabled":true,"channels":{},"critical":true,"lockedReason":"` + lockedReason + `"}]`
	for range 2 {
		res = e.Do("PATCH", "/v3/preferences/workflows", body, alice)
		if wantStatus(t, res, 200, "patch") && string(res.Body) != want {
			t.Errorf("patch:\n%s\nwant\n%s", res.Body, want)
		}
	}
	// Another user and the other app are untouched.
	if res := e.Do("GET", "/v3/preferences/workflows", nil, userH(f.plain, "bob")); string(res.Body) != unset {
		t.Errorf("bob: %s", res.Body)
	}
	if res := e.Do("GET", "/v3/preferences/workflows", nil, userH(f.other, "alice")); string(res.Body) != `[{"workflow":{"identifier":"theirs","name":"theirs"},"enabled":true,"channels":{},"critical":false}]` {
		t.Errorf("other app: %s", res.Body)
	}
}

func TestFlowPreferenceBadBodies(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), `INSERT INTO flows (app_id, identifier, name, draft) VALUES ($1, 'mine', 'm', '{"steps":[]}'), ($2, 'theirs', 't', '{"steps":[]}')`, f.plain.AppID, f.other.AppID); err != nil {
		t.Fatal(err)
	}
	channels := "inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook"
	cases := []struct {
		body any
		want []string
	}{
		{`[]`, []string{"body must be a JSON object"}},
		{`{}`, []string{"workflows must be an array"}},
		{`{"workflows":[5,{"enabled":true},{"identifier":"mine","enabled":"no","channels":{"fax":true,"sms":1}},{"identifier":"mine","channels":[]}]}`, []string{
			"workflows[0] must be an object", "workflows[1].identifier must be a workflow identifier",
			"workflows[2].enabled must be a boolean value",
			"workflows[2].channels.fax is not a channel: the keys must be among the following values: " + channels,
			"workflows[2].channels.sms must be a boolean value",
			"workflows[3].channels must be an object from channel names to booleans"}},
		{`{"workflows":[{"identifier":"mine","enabled":false},{"identifier":"theirs","enabled":false},{"identifier":"nope","enabled":false}]}`, []string{
			`workflows[1].identifier must name one of the app's workflows ("theirs" does not)`,
			`workflows[2].identifier must name one of the app's workflows ("nope" does not)`}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do("PATCH", "/v3/preferences/workflows", tc.body, alice), "patch", tc.want...)
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM flow_preferences").Scan(&n); err != nil || n != 0 {
		t.Errorf("refused updates wrote %d switches (%v)", n, err)
	}
}
