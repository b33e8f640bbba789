package v3_test

import (
	"context"
	"strings"
	"testing"
)

func pref(category int64, pairs ...any) map[string]any {
	var chans []any
	for i := 0; i+1 < len(pairs); i += 2 {
		chans = append(chans, map[string]any{"channel": pairs[i], "enabled": pairs[i+1]})
	}
	return map[string]any{"categoryId": category, "channels": chans}
}

func TestPreferenceRoutes(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	news, promo := f.category(f.plain, "news"), f.category(f.plain, "promo")
	get := func() string {
		res := e.Do("GET", "/v3/preferences", nil, alice)
		wantStatus(t, res, 200, "get")
		return string(res.Body)
	}
	want := `[{"category":{"id":` + itoa(news) + `,"identifier":"news","name":"news","critical":false},"channelPreferences":[{"channel":"inApp","enabled":true}],"critical":false},` +
		`{"category":{"id":` + itoa(promo) + `,"identifier":"promo","name":"promo","critical":false},"channelPreferences":[{"channel":"inApp","enabled":true}],"critical":false}]`
	if got := get(); got != want {
		t.Errorf("unset preferences:\n%s\nwant\n%s", got, want)
	}
	body := map[string]any{"preference": []any{
		pref(news, "inApp", false, "email", true),
		pref(promo, "email", false),
		pref(news, "email", false), // a later pair overrides an earlier one
	}}
	for range 2 { // setting the same again changes nothing
		res := e.Do("PATCH", "/v3/preferences", body, alice)
		if wantStatus(t, res, 200, "patch") && string(res.Body) != `"preferences updated"` {
			t.Errorf("patch answer %s", res.Body)
		}
	}
	want = `[{"category":{"id":` + itoa(news) + `,"identifier":"news","name":"news","critical":false},"channelPreferences":[{"channel":"inApp","enabled":false},{"channel":"email","enabled":false}],"critical":false},` +
		`{"category":{"id":` + itoa(promo) + `,"identifier":"promo","name":"promo","critical":false},"channelPreferences":[{"channel":"inApp","enabled":true},{"channel":"email","enabled":false}],"critical":false}]`
	if got := get(); got != want {
		t.Errorf("after patch:\n%s\nwant\n%s", got, want)
	}
	// Bob's are untouched; deleting a category drops its preferences.
	if res := e.Do("GET", "/v3/preferences", nil, userH(f.plain, "bob")); strings.Contains(string(res.Body), `"enabled":false`) {
		t.Errorf("bob's preferences: %s", res.Body)
	}
	wantStatus(t, e.Do("DELETE", "/v3/categories/"+itoa(news), nil, appH(f.plain)), 200, "delete category")
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM preferences").Scan(&n); err != nil || n != 1 {
		t.Errorf("preferences left after deleting a category: %d (%v)", n, err)
	}
}

func TestPreferenceBadBodies(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	mine := f.category(f.plain, "news")
	theirs := f.category(f.other, "news")
	channels := "inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook"
	cases := []struct {
		body any
		want []string
	}{
		{`[]`, []string{"body must be a JSON object"}},
		{`{}`, []string{"preference must be an array"}},
		{`{"preference":[5,{"categoryId":"x","channels":{}},{"categoryId":1.5,"channels":[{"channel":"fax","enabled":"yes"},3]}]}`, []string{
			"preference[0] must be an object", "preference[1].categoryId must be an integer number", "preference[1].channels must be an array",
			"preference[2].categoryId must be an integer number",
			"preference[2].channels[0].channel must be one of the following values: " + channels,
			"preference[2].channels[0].enabled must be a boolean value", "preference[2].channels[1] must be an object"}},
		{map[string]any{"preference": []any{pref(mine, "inApp", false), pref(theirs, "inApp", false), pref(987654, "email", false)}}, []string{
			"preference[1].categoryId must be the id of one of the app's categories (" + itoa(theirs) + " is not)",
			"preference[2].categoryId must be the id of one of the app's categories (987654 is not)"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do("PATCH", "/v3/preferences", tc.body, alice), "patch", tc.want...)
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM preferences").Scan(&n); err != nil || n != 0 {
		t.Errorf("refused updates wrote %d preferences (%v)", n, err)
	}
}
