package integration

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// TestCriticalSendsOvertakeABacklog (issue 28, item 4): one app has a large backlog of
// ordinary sends waiting for the relay when another app sends a one-time code in a critical
// category, accepted last. The relay's first run is the code's, alone (started with the
// critical priority key on the real Temporal dev server), and the code reaches the inbox.
// The backlog and the code are committed without waking the relay (its poll is an hour);
// one ordinary send through the API then wakes it with everything in place.
func TestCriticalSendsOvertakeABacklog(t *testing.T) {
	var logs lockedBuffer
	e := stacktest.New(t, stacktest.Options{Temporal: true, Log: &logs, Configure: func(c *config.Config) {
		c.RelayPollInterval = time.Hour
		c.RelayPackSize = 10
	}})
	ctx := context.Background()
	bank := e.NewApp("bank")
	if _, err := e.Stack.DB.InsertCategory(ctx, dbsqlc.InsertCategoryParams{
		AppID: bank.AppID, Identifier: "security", Name: "Security", Critical: true,
	}); err != nil {
		t.Fatal(err)
	}
	quiet := send.NewService(e.Stack.DB, nil) // accepts without waking the relay
	const backlog = 300
	for range backlog {
		if _, err := quiet.Accept(ctx, e.App.AppID, []byte(`{"notification":{"title":"Digest"},"recipients":["bob"]}`), ""); err != nil {
			t.Fatal(err)
		}
	}
	code, err := quiet.Accept(ctx, bank.AppID, []byte(`{"notification":{"title":"Your code is 424242","category":"security"},"recipients":["ann"]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	sendNotification(t, e, `{"notification":{"title":"Digest"},"sendTo":{"recipients":["bob"]}}`) // wakes the relay

	annHeaders := stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": bank.APIKey, e.Cfg.HeaderPrefix + "USER-ID": "ann"}
	var pending int
	e.Eventually(60*time.Second, "the critical code in ann's inbox", func() bool {
		res := e.Do("GET", "/v3/notifications", nil, annHeaders)
		if res.Status != 200 || !regexp.MustCompile(`Your code is 424242`).MatchString(string(res.Body)) {
			return false
		}
		// A figure, not asserted: how much of the backlog was still undelivered then.
		if err := e.Stack.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM notification_requests
			WHERE app_id = $1 AND status IN ('accepted', 'started')`, e.App.AppID).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		return true
	})
	t.Logf("critical code delivered with %d of %d backlog requests not yet delivered", pending, backlog+1)

	starts := regexp.MustCompile(`msg="relay: started" component=relay workflowId=(\S+)`).FindAllStringSubmatch(logs.String(), -1)
	if len(starts) == 0 {
		t.Fatal("the relay logged no run start")
	}
	if want := sendwf.WorkflowID([]uuid.UUID{code}); starts[0][1] != want {
		t.Errorf("first run started: %s, want the critical code's run %s (of %d starts)", starts[0][1], want, len(starts))
	}
	row, err := e.Stack.DB.GetRequest(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	if !row.Critical {
		t.Error("the code's request is not stored critical")
	}
}
