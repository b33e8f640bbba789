package activities

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/internal/flow/fetch"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/send"
)

// The fetch activity turns the fetch client's refusals into non-retryable errors and leaves
// what a retry may mend (a 503) retryable.
func TestFetchRefusalsAreNotRetried(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broken" {
			w.WriteHeader(503)
			return
		}
		w.WriteHeader(401)
	}))
	defer srv.Close()
	a := &Flows{Fetcher: fetch.New([]string{"127.0.0.1"})}
	in := flowrun.FetchInput{URL: srv.URL + "/private", Method: "GET", TimeoutSeconds: 5}
	if _, err := a.Fetch(context.Background(), in); err == nil || !isNonRetryable(err) {
		t.Errorf("401 should fail permanently: %v", err)
	}
	in.URL = srv.URL + "/broken"
	if _, err := a.Fetch(context.Background(), in); err == nil || isNonRetryable(err) {
		t.Errorf("503 should be retryable: %v", err)
	}
}

func isNonRetryable(err error) bool {
	var ae *temporal.ApplicationError
	return errors.As(err, &ae) && ae.NonRetryable()
}

func TestThrottleWindows(t *testing.T) {
	d, appID, _, _ := setup(t)
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	a := &Flows{Runs: &flow.Runs{DB: d, Now: func() time.Time { return now }}}
	in := flowrun.ThrottleInput{AppID: appID, Key: "wf/ann", Limit: 2, WindowSeconds: 3600}
	var got []bool
	for range 3 {
		ok, err := a.Throttle(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ok)
	}
	if !got[0] || !got[1] || got[2] {
		t.Errorf("first window: %v, want two allowed then throttled", got)
	}
	now = now.Add(time.Hour)
	if ok, _ := a.Throttle(context.Background(), in); !ok {
		t.Error("a new window should allow again")
	}
	in.Key = "wf/bob"
	if ok, _ := a.Throttle(context.Background(), in); !ok {
		t.Error("another key has its own count")
	}
}

func TestStepStates(t *testing.T) {
	d, appID, del, _ := setup(t)
	req := accept(t, d, appID, `{"notification":{"title":"A"},"recipients":["x","y","z"]}`)
	if _, err := del.DeliverBatch(context.Background(), deliverAll(req)); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	rows, _ := d.Pool.Query(context.Background(), "SELECT id FROM notifications ORDER BY id")
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	d.Pool.Exec(context.Background(), "UPDATE notifications SET read_at = now(), seen_at = now() WHERE id = $1", ids[0])
	d.Pool.Exec(context.Background(), "UPDATE notifications SET clicked_at = now(), read_at = now() WHERE id = $1", ids[1])
	d.Pool.Exec(context.Background(), "UPDATE notifications SET deleted_at = now() WHERE id = $1", ids[2])
	a := &Flows{Runs: &flow.Runs{DB: d}}
	other := dbOtherApp(t, d)
	states, err := a.StepStates(context.Background(), flowrun.StepStatesInput{AppID: appID, NotificationIDs: map[string]int64{"read": ids[0], "clicked": ids[1], "deleted": ids[2]}})
	if err != nil {
		t.Fatal(err)
	}
	if s := states["read"]; !s.Read || !s.Seen || s.Clicked {
		t.Errorf("read: %+v", s)
	}
	if s := states["clicked"]; !s.Clicked || !s.Interacted || !s.Read {
		t.Errorf("clicked: %+v", s)
	}
	if s := states["deleted"]; !s.Delivered || s.Read {
		t.Errorf("a deleted notification still counts as delivered and unread: %+v", s)
	}
	foreign, _ := a.StepStates(context.Background(), flowrun.StepStatesInput{AppID: other, NotificationIDs: map[string]int64{"read": ids[0]}})
	if len(foreign) != 0 {
		t.Errorf("another app read our states: %+v", foreign)
	}
}

func deliverAll(req uuid.UUID) send.DeliverInput {
	return send.DeliverInput{Cursors: []send.Cursor{{RequestID: req}}}
}

func dbOtherApp(t *testing.T, d *db.DB) int64 {
	box, _ := secrets.NewBox("test-key-0123456789")
	creds, err := apps.NewService(d, box).Create(context.Background(), "other")
	if err != nil {
		t.Fatal(err)
	}
	return creds.AppID
}
