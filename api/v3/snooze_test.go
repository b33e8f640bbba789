package v3_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// counts reads the inbox's badge and total, and whether id is listed.
func counts(t *testing.T, e *stacktest.Env, h stacktest.Headers, id int64) (unread, total int, listed bool) {
	t.Helper()
	var page struct {
		UnreadCount int
		Pagination  struct{ TotalCount int }
		Data        []struct{ ID int64 }
	}
	res := e.Do("GET", "/v3/notifications?limit=20", nil, h)
	if !wantStatus(t, res, 200, "list") {
		return
	}
	res.JSON(t, &page)
	for _, n := range page.Data {
		listed = listed || n.ID == id
	}
	return page.UnreadCount, page.Pagination.TotalCount, listed
}

// A snoozed notification leaves the list and the counts; unsnoozed, or woken when its time
// comes, it is back, unread.
func TestSnoozeLeavesTheListAndComesBackUnread(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	ids := f.seed(f.plain, "alice", 2)
	id := itoa(ids[0])
	wantStatus(t, e.Do("POST", "/v3/notifications/"+id+"/reads", nil, alice), 200, "read")
	until := time.Now().Add(time.Hour).UTC().Truncate(time.Millisecond)
	res := e.Do("PUT", "/v3/notifications/"+id+"/snooze", map[string]string{"until": until.Format(time.RFC3339Nano)}, alice)
	var out struct {
		ID           int64
		SnoozedUntil time.Time
	}
	if wantStatus(t, res, 200, "snooze") {
		res.JSON(t, &out)
	}
	if out.ID != ids[0] || !out.SnoozedUntil.Equal(until) {
		t.Errorf("snooze answer %+v, want id %d until %v", out, ids[0], until)
	}
	if unread, total, listed := counts(t, e, alice, ids[0]); unread != 1 || total != 1 || listed {
		t.Errorf("snoozed: unread %d total %d listed %v; want 1 1 false", unread, total, listed)
	}
	// Brought back by hand: unread (it was read before).
	res = e.Do("DELETE", "/v3/notifications/"+id+"/snooze", nil, alice)
	if wantStatus(t, res, 200, "unsnooze") && !strings.Contains(string(res.Body), `"readAt":null`) {
		t.Errorf("unsnoozed: %s", res.Body)
	}
	if unread, total, listed := counts(t, e, alice, ids[0]); unread != 2 || total != 2 || !listed {
		t.Errorf("unsnoozed: unread %d total %d listed %v; want 2 2 true", unread, total, listed)
	}
	wantError(t, e.Do("DELETE", "/v3/notifications/"+id+"/snooze", nil, alice), 404, "snoozed notification not found", "not snoozed")

	// Woken by the relay's waker once its time has passed (moved into the past here).
	wantStatus(t, e.Do("PUT", "/v3/notifications/"+id+"/snooze", map[string]string{"until": until.Format(time.RFC3339)}, alice), 200, "snooze again")
	ctx := context.Background()
	if n, err := e.Stack.Inbox.Wake(ctx, 10); err != nil || n != 0 {
		t.Fatalf("nothing is due yet: %d %v", n, err)
	}
	if _, err := e.Stack.DB.Pool.Exec(ctx, `UPDATE notifications SET snoozed_until = now() - interval '1 second' WHERE id = $1`, ids[0]); err != nil {
		t.Fatal(err)
	}
	if n, err := e.Stack.Inbox.Wake(ctx, 10); err != nil || n != 1 {
		t.Fatalf("wake: %d %v, want 1", n, err)
	}
	if unread, total, listed := counts(t, e, alice, ids[0]); unread != 2 || total != 2 || !listed {
		t.Errorf("woken: unread %d total %d listed %v; want 2 2 true", unread, total, listed)
	}
	if n, _ := e.Stack.Inbox.Wake(ctx, 10); n != 0 {
		t.Errorf("woken twice: %d", n)
	}
}

// The waker runs once a second in every relay process: with nothing due it updates no
// row, so the statement triggers of notifications (counters, analytics, webhooks) do not
// run for nothing; with a row due, one UPDATE brings it back.
func TestAnEmptyWakeRunsNoUpdate(t *testing.T) {
	f := newFixture(t)
	e := f.e
	ids := f.seed(f.plain, "alice", 1)
	ctx := context.Background()
	for _, q := range []string{
		`CREATE TABLE update_statements (n int NOT NULL)`,
		`INSERT INTO update_statements VALUES (0)`,
		`CREATE FUNCTION count_update_statements() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE update_statements SET n = n + 1; RETURN NULL; END $$`,
		`CREATE TRIGGER count_update_statements AFTER UPDATE ON notifications FOR EACH STATEMENT EXECUTE FUNCTION count_update_statements()`,
	} {
		if _, err := e.Stack.DB.Pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	statements := func() (n int) {
		t.Helper()
		if err := e.Stack.DB.Pool.QueryRow(ctx, `SELECT n FROM update_statements`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n, err := e.Stack.Inbox.Wake(ctx, 10); err != nil || n != 0 {
		t.Fatalf("nothing is snoozed: %d %v", n, err)
	}
	if n := statements(); n != 0 {
		t.Errorf("an empty wake ran %d UPDATE statements on notifications, want none", n)
	}
	if _, err := e.Stack.DB.Pool.Exec(ctx, `UPDATE notifications SET snoozed_until = now() + interval '1 hour' WHERE id = $1`, ids[0]); err != nil {
		t.Fatal(err)
	}
	if n, err := e.Stack.Inbox.Wake(ctx, 10); err != nil || n != 0 || statements() != 1 {
		t.Fatalf("snoozed, not due: woke %d (%v), %d UPDATE statements; want 0 and only the test's own", n, err, statements())
	}
	if _, err := e.Stack.DB.Pool.Exec(ctx, `UPDATE notifications SET snoozed_until = now() - interval '1 second' WHERE id = $1`, ids[0]); err != nil {
		t.Fatal(err)
	}
	if n, err := e.Stack.Inbox.Wake(ctx, 10); err != nil || n != 1 {
		t.Fatalf("wake: %d %v, want 1", n, err)
	}
	if n := statements(); n != 3 {
		t.Errorf("%d UPDATE statements, want 3: the test's two and the wake's one", n)
	}
}

func TestSnoozeBadInputAndOthers(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	mine := itoa(f.seed(f.plain, "alice", 1)[0])
	otherApp := itoa(f.seed(f.other, "alice", 1)[0])
	path := "/v3/notifications/" + mine + "/snooze"
	for _, tc := range []struct {
		body any
		want []string
	}{
		{`[]`, []string{"body must be a JSON object"}},
		{`{}`, []string{"until must be a string (an RFC 3339 date-time)"}},
		{`{"until":"tomorrow","for":"1h"}`, []string{"for is not a field of a snooze (fields: until)", "until must be an RFC 3339 date-time, such as 2025-01-31T09:30:00Z"}},
		{map[string]string{"until": time.Now().Add(-time.Minute).Format(time.RFC3339)}, []string{"until must be in the future"}},
		{map[string]string{"until": time.Now().Add(400 * 24 * time.Hour).Format(time.RFC3339)}, []string{"until must be at most 366 days ahead"}},
	} {
		wantProblems(t, e.Do("PUT", path, tc.body, alice), "snooze", tc.want...)
	}
	wantProblems(t, e.Do("PUT", "/v3/notifications/x/snooze", `{}`, alice), "bad id", "notificationId must be a positive integer number")
	body := map[string]string{"until": time.Now().Add(time.Hour).Format(time.RFC3339)}
	wantError(t, e.Do("PUT", path, body, userH(f.plain, "bob")), 404, "notification not found", "bob snoozes alice's")
	wantError(t, e.Do("PUT", "/v3/notifications/"+otherApp+"/snooze", body, alice), 404, "notification not found", "another app's")
	wantError(t, e.Do("PUT", "/v3/notifications/999999/snooze", body, alice), 404, "notification not found", "unknown")
	wantStatus(t, e.Do("PUT", path, body, alice), 200, "alice snoozes hers")
	wantError(t, e.Do("DELETE", path, nil, userH(f.plain, "bob")), 404, "snoozed notification not found", "bob unsnoozes alice's")
	wantError(t, e.Do("DELETE", "/v3/notifications/"+otherApp+"/snooze", nil, alice), 404, "snoozed notification not found", "another app's")
	// Nothing of it touched the other app's notification; alice's stays snoozed.
	if unread, total, _ := counts(t, e, userH(f.other, "alice"), 0); unread != 1 || total != 1 {
		t.Errorf("other app's inbox changed: %d %d", unread, total)
	}
	if unread, total, _ := counts(t, e, alice, 0); unread != 0 || total != 0 {
		t.Errorf("alice's snoozed notification: %d %d", unread, total)
	}
}
