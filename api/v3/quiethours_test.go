package v3_test

import (
	"context"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestQuietHoursRoutes: a user sets, reads and removes their quiet hours (with the profile
// time zone); another app's user of the same id and another user are untouched.
func TestQuietHoursRoutes(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	none := `{"enabled":false,"days":[],"timezone":"UTC"}`
	if res := e.Do("GET", "/v3/preferences/quiet-hours", nil, userH(f.plain, "nobody-yet")); wantStatus(t, res, 200, "unknown user") && string(res.Body) != none {
		t.Errorf("unknown user: %s", res.Body)
	}
	want := `{"enabled":true,"start":"22:00","end":"07:00","days":["sunday","saturday"],"timezone":"Europe/Paris"}`
	for range 2 { // idempotent
		res := e.Do("PUT", "/v3/preferences/quiet-hours", map[string]any{"start": "22:00", "end": "07:00", "days": []string{"saturday", "sunday"}, "timezone": "Europe/Paris"}, alice)
		if wantStatus(t, res, 200, "put") && string(res.Body) != want {
			t.Errorf("put answer %s", res.Body)
		}
	}
	if res := e.Do("GET", "/v3/profile", nil, alice); !strings.Contains(string(res.Body), `"timezone":"Europe/Paris"`) {
		t.Errorf("profile %s", res.Body)
	}
	// Seconds are kept (a window may end on a second); days alone are allowed.
	res := e.Do("PUT", "/v3/preferences/quiet-hours", map[string]any{"start": "09:00:30", "end": "17:00:05"}, alice)
	if wantStatus(t, res, 200, "seconds") && string(res.Body) != `{"enabled":true,"start":"09:00:30","end":"17:00:05","days":[],"timezone":"Europe/Paris"}` {
		t.Errorf("seconds answer %s", res.Body)
	}
	res = e.Do("PUT", "/v3/preferences/quiet-hours", map[string]any{"days": []string{"sunday"}}, alice)
	if wantStatus(t, res, 200, "days only") && string(res.Body) != `{"enabled":true,"days":["sunday"],"timezone":"Europe/Paris"}` {
		t.Errorf("days answer %s", res.Body)
	}
	for _, h := range []stacktest.Headers{userH(f.other, "alice"), userH(f.plain, "bob")} {
		if res := e.Do("GET", "/v3/preferences/quiet-hours", nil, h); string(res.Body) != none {
			t.Errorf("other tenant or user: %s", res.Body)
		}
	}
	res = e.Do("PUT", "/v3/preferences/quiet-hours", map[string]any{"enabled": false}, alice)
	if wantStatus(t, res, 200, "remove") && string(res.Body) != `{"enabled":false,"days":[],"timezone":"Europe/Paris"}` {
		t.Errorf("remove answer %s", res.Body)
	}
	if res := e.Do("GET", "/v3/preferences/quiet-hours", nil, nil); res.Status != 401 {
		t.Errorf("no credentials: %d", res.Status)
	}
}

// TestQuietHoursBadBodies: every problem is listed at once and nothing changes; a profile
// timezone that is not an IANA name is refused by the profile routes too.
func TestQuietHoursBadBodies(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	cases := []struct {
		body any
		want []string
	}{
		{`[]`, []string{"body must be a JSON object with start, end, days, timezone or enabled"}},
		{map[string]any{"start": "25:00", "end": "7:00", "days": []string{"caturday"}, "timezone": "Mars/Olympus", "color": "red", "enabled": "yes"}, []string{
			"color is not a field of quiet hours: the fields are enabled, start, end, days, timezone",
			"enabled must be a boolean value",
			"start must be a time of day HH:MM or HH:MM:SS (24-hour clock, 00:00 to 23:59:59)",
			"end must be a time of day HH:MM or HH:MM:SS (24-hour clock, 00:00 to 23:59:59)",
			`days: "caturday" is not a day: the values are sunday, monday, tuesday, wednesday, thursday, friday, saturday`,
			"timezone must be an IANA time zone name such as Europe/Paris or UTC",
			"quiet hours need a window (start and end) or days; send {\"enabled\": false} to remove them",
		}},
		{map[string]any{"start": "22:00"}, []string{"start and end go together: give both, or neither for quiet days only"}},
		{map[string]any{"start": "22:00", "end": "22:00"}, []string{"start and end must differ (a window from 22:00 to 22:00 is empty)"}},
		{map[string]any{"days": []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}}, []string{"days must not list every day of the week: messages would never go out"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do("PUT", "/v3/preferences/quiet-hours", tc.body, alice), "put", tc.want...)
	}
	wantProblems(t, e.Do("PATCH", "/v3/profile", map[string]any{"timezone": "Not/AZone"}, alice), "profile", "the patched profile.timezone must be an IANA time zone name such as Europe/Paris or UTC")
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM quiet_hours").Scan(&n); err != nil || n != 0 {
		t.Errorf("refused updates wrote %d rows (%v)", n, err)
	}
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM users WHERE profile ? 'timezone'").Scan(&n); err != nil || n != 0 {
		t.Errorf("refused updates wrote %d time zones (%v)", n, err)
	}
}
