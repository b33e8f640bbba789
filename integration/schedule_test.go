package integration

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestScheduledSends(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	at := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
	send := func(user string) string {
		res := e.Do("POST", "/v3/notifications", fmt.Sprintf(`{"notification":{"title":"Later"},"sendTo":{"recipients":[%q]},"sendAt":%q}`, user, at), e.AppHeaders())
		if res.Status != 202 {
			t.Fatalf("scheduled send: %d %s", res.Status, res.Body)
		}
		return res.Map(t)["requestId"].(string)
	}
	send("kept")
	cancelled := send("dropped")

	list, err := e.Stack.Schedules.List(context.Background(), e.App.AppID, 1, 20, false)
	if err != nil || len(list) != 2 {
		t.Fatalf("scheduled list: %v %+v", err, list)
	}
	var id int64
	for _, s := range list {
		if s.RequestID == cancelled {
			id = s.ID
		}
		if s.Status != "scheduled" || s.Notification.Title != "Later" || s.WorkflowID != "schedule/"+s.RequestID {
			t.Errorf("listed %+v", s)
		}
	}
	if err := e.Stack.Schedules.Cancel(context.Background(), e.App.AppID, id); err != nil {
		t.Fatal(err)
	}
	if err := e.Stack.Schedules.Cancel(context.Background(), e.App.AppID, id); err == nil {
		t.Error("cancelling twice should conflict")
	}
	other := e.NewApp("other")
	if err := e.Stack.Schedules.Cancel(context.Background(), other.AppID, id); err == nil {
		t.Error("another app cancelled our schedule")
	}

	if n := len(inbox(t, e, "kept").Data); n != 0 {
		t.Fatalf("delivered before its time: %d", n)
	}
	e.Eventually(30*time.Second, "the scheduled notification", func() bool { return len(inbox(t, e, "kept").Data) == 1 })
	time.Sleep(2 * time.Second)
	if n := len(inbox(t, e, "dropped").Data); n != 0 {
		t.Errorf("a cancelled schedule delivered %d notifications", n)
	}
	var status string
	_ = e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT status FROM notification_requests WHERE id = $1", cancelled).Scan(&status)
	if status != "cancelled" {
		t.Errorf("cancelled request status %q", status)
	}
}

func TestSendAtValidationAndPastTimes(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	bad := e.Do("POST", "/v3/notifications", `{"notification":{"title":"x"},"sendTo":{"recipients":["a"]},"sendAt":"tomorrow"}`, e.AppHeaders())
	if bad.Status != 400 {
		t.Errorf("unparseable sendAt: %d", bad.Status)
	}
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	res := e.Do("POST", "/v3/notifications", fmt.Sprintf(`{"notification":{"title":"now"},"sendTo":{"recipients":["p"]},"sendAt":%q}`, past), e.AppHeaders())
	if res.Status != 202 {
		t.Fatalf("past sendAt: %d %s", res.Status, res.Body)
	}
	e.Eventually(30*time.Second, "a past sendAt sends now", func() bool { return len(inbox(t, e, "p").Data) == 1 })
}
