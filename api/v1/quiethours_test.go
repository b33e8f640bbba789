package v1_test

import (
	"slices"
	"testing"
)

// TestUserQuietHoursFromTheConsole: developers set and remove a known user's quiet hours;
// every problem is listed and nothing changes; viewers read only; unknown users, other
// clients' apps and missing credentials are refused.
func TestUserQuietHoursFromTheConsole(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "quiet-a@example.com")
	b := e.tenant(t, "quiet-b@example.com")
	e.users(t, a.appID, "ann")
	e.users(t, b.appID, "ann")
	path := a.appPath("/users/ann/preferences/quiet-hours")
	type quiet struct {
		Enabled    bool
		Start, End string
		Days       []string
		Timezone   string
	}
	var got quiet
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read").JSON(t, &got)
	if got.Enabled || got.Timezone != "UTC" || len(got.Days) != 0 {
		t.Errorf("unset %+v", got)
	}
	body := map[string]any{"start": "22:00", "end": "07:00", "days": []string{"saturday"}, "timezone": "America/New_York"}
	must(t, e.Do("PUT", path, body, bearer(a.tok)), 200, "set").JSON(t, &got)
	if !got.Enabled || got.Start != "22:00" || got.End != "07:00" || !slices.Equal(got.Days, []string{"saturday"}) || got.Timezone != "America/New_York" {
		t.Errorf("answer %+v", got)
	}
	if msgs := problems(t, e.Do("PUT", path, map[string]any{"start": "22:00", "end": "22:00", "timezone": "Local"}, bearer(a.tok))); !slices.Equal(msgs, []string{
		"timezone must be an IANA time zone name such as Europe/Paris or UTC",
		"start and end must differ (a window from 22:00 to 22:00 is empty)",
	}) {
		t.Errorf("problems %q", msgs)
	}
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read back").JSON(t, &got)
	if got.Start != "22:00" || got.End != "07:00" || got.Timezone != "America/New_York" {
		t.Errorf("a refused change was applied: %+v", got)
	}
	if res := e.Do("PUT", a.appPath("/users/nobody/preferences/quiet-hours"), body, bearer(a.tok)); res.Status != 404 {
		t.Errorf("unknown user: %d %s", res.Status, res.Body)
	}
	for _, m := range []string{"GET", "PUT"} {
		if res := e.Do(m, b.appPath("/users/ann/preferences/quiet-hours"), body, bearer(a.tok)); res.Status != 404 {
			t.Errorf("%s another client's app: %d %s", m, res.Status, res.Body)
		}
		if res := e.Do(m, path, body, nil); res.Status != 401 {
			t.Errorf("%s no credentials: %d", m, res.Status)
		}
	}
	must(t, e.Do("GET", b.appPath("/users/ann/preferences/quiet-hours"), nil, bearer(b.tok)), 200, "b reads").JSON(t, &got)
	if got.Enabled {
		t.Error("the other tenant's ann changed")
	}
	viewer := e.member(t, a.tok, a.client, "quiet-viewer@example.com", "viewer")
	if res := e.Do("PUT", path, map[string]any{"enabled": false}, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer: %d %s", res.Status, res.Body)
	}
	must(t, e.Do("GET", path, nil, bearer(viewer)), 200, "viewer reads")
	got = quiet{}
	must(t, e.Do("PUT", path, map[string]any{"enabled": false}, bearer(a.tok)), 200, "remove").JSON(t, &got)
	if got.Enabled || got.Start != "" {
		t.Errorf("removed %+v", got)
	}
}
