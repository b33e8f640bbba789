package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

type inboxPage struct {
	UnreadCount int
	Pagination  struct{ TotalCount int }
	Data        []struct {
		ID        int64
		Title     string
		Message   string
		Data      map[string]any
		Category  *struct{ Identifier string }
		CreatedAt string
		SeenAt    *string
	}
}

func inbox(t *testing.T, e *stacktest.Env, user string) inboxPage {
	t.Helper()
	res := e.Do("GET", "/v3/notifications", nil, e.UserHeaders(user))
	if res.Status != 200 {
		t.Fatalf("inbox of %s: %d %s", user, res.Status, res.Body)
	}
	var p inboxPage
	res.JSON(t, &p)
	return p
}

func TestSendReachesTheInbox(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	res := e.Do("POST", "/v3/notifications", `{
		"notification": {"title": "Welcome", "message": "Hello {{name}}", "category": "onboarding"},
		"category": "onboarding",
		"sendTo": {"recipients": ["alice", {"identifier": "bob", "email": "bob@example.com"}]},
		"recipients": ["carol"],
		"data": {"orderId": 42}
	}`, e.AppHeaders())
	if res.Status != 202 {
		t.Fatalf("send: %d %s", res.Status, res.Body)
	}
	requestID := res.Map(t)["requestId"].(string)

	for _, user := range []string{"alice", "bob", "carol"} {
		e.Eventually(30*time.Second, "notification in "+user+"'s inbox", func() bool { return len(inbox(t, e, user).Data) == 1 })
		p := inbox(t, e, user)
		n := p.Data[0]
		if p.UnreadCount != 1 || p.Pagination.TotalCount != 1 || n.Title != "Welcome" || n.Data["orderId"] != float64(42) ||
			n.Category == nil || n.Category.Identifier != "onboarding" || n.SeenAt != nil {
			t.Errorf("%s's inbox: %+v", user, p)
		}
	}
	// A backend reads a user's inbox with app credentials and userIdentifier.
	res = e.Do("GET", "/v3/notifications?userIdentifier=bob", nil, e.AppHeaders())
	if res.Status != 200 || len(decode(t, res).Data) != 1 {
		t.Errorf("app-mode inbox read: %d %s", res.Status, res.Body)
	}
	// The request row records the run that carried it and its outcome.
	var status, workflowID string
	e.Eventually(10*time.Second, "request completed", func() bool {
		err := e.Stack.DB.Pool.QueryRow(context.Background(),
			"SELECT status, workflow_id FROM notification_requests WHERE id = $1", requestID).Scan(&status, &workflowID)
		return err == nil && status == "completed"
	})
	if workflowID != "send/"+requestID {
		t.Errorf("workflow id %q", workflowID)
	}
	// Another app's user of the same identifier sees nothing.
	other := e.NewApp("other")
	res = e.Do("GET", "/v3/notifications", nil, stacktest.Headers{"X-SERVICE-API-KEY": other.APIKey, "X-SERVICE-USER-ID": "alice"})
	if p := decode(t, res); len(p.Data) != 0 || p.UnreadCount != 0 {
		t.Errorf("another app's alice sees %+v", p)
	}
}

func TestSendToAThousandRecipients(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("member-%d", i)
	}
	body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "Broadcast"}, "sendTo": map[string]any{"recipients": ids}})
	res := e.Do("POST", "/v3/notifications", body, e.AppHeaders())
	if res.Status != 202 {
		t.Fatalf("send: %d %s", res.Status, res.Body)
	}
	var n int
	e.Eventually(60*time.Second, "1000 inbox rows", func() bool {
		_ = e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM notifications").Scan(&n)
		return n == 1000
	})
	if p := inbox(t, e, "member-999"); len(p.Data) != 1 || p.Data[0].Title != "Broadcast" {
		t.Errorf("last member's inbox: %+v", p)
	}
}

func TestHealthReportsDependencies(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	res := e.Do("GET", "/v1/health", nil, nil)
	m := res.Map(t)
	if res.Status != 200 || m["status"] != "ok" {
		t.Errorf("health with everything up: %d %s", res.Status, res.Body)
	}
	down := stacktest.New(t, stacktest.Options{})
	res = down.Do("GET", "/v1/health", nil, nil)
	m = res.Map(t)
	if res.Status != 503 || m["status"] != "degraded" || m["temporal"].(map[string]any)["status"] != "down" ||
		m["database"].(map[string]any)["status"] != "up" {
		t.Errorf("health with Temporal down: %d %s", res.Status, res.Body)
	}
}

func decode(t *testing.T, res *stacktest.Response) inboxPage {
	var p inboxPage
	res.JSON(t, &p)
	return p
}
