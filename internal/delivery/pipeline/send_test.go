package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/workflows/send"
)

// endpoint is a fake webhook receiver answering the scripted statuses in turn (then 200).
type endpoint struct {
	mu       sync.Mutex
	statuses []int
	bodies   []string
	srv      *httptest.Server
}

func newEndpoint(t *testing.T, statuses ...int) *endpoint {
	e := &endpoint{statuses: statuses}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.bodies = append(e.bodies, string(b))
		status := 200
		if len(e.statuses) > 0 {
			status, e.statuses = e.statuses[0], e.statuses[1:]
		}
		e.mu.Unlock()
		if status == 429 {
			w.Header().Set("Retry-After", "7")
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *endpoint) calls() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.bodies)
}

type logRow struct {
	Status, Provider, Error string
	Attempts                int
}

func logOf(t *testing.T, d *db.DB, id int64) logRow {
	t.Helper()
	var r logRow
	if err := d.Pool.QueryRow(context.Background(), `SELECT status, coalesce(provider, ''), coalesce(error, ''), attempts FROM message_logs WHERE id = $1`, id).
		Scan(&r.Status, &r.Provider, &r.Error, &r.Attempts); err != nil {
		t.Fatal(err)
	}
	return r
}

// queueWebhook accepts a send to one user over the webhook channel and returns its job.
func queueWebhook(t *testing.T, d *db.DB, appID int64, a *Service, body string) send.Job {
	t.Helper()
	req := accept(t, d, appID, body)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	if len(jobs) != 1 {
		t.Fatalf("jobs %v", jobs)
	}
	return jobs[0]
}

func TestSendMessageClassifiesProviderAnswers(t *testing.T) {
	d, appID, a, _ := setup(t)
	ep := newEndpoint(t, 503, 429, 400)
	webhookInstance(t, a, appID, "hook", ep.srv.URL)
	job := queueWebhook(t, d, appID, a, `{"notification":{"title":"Hi","message":"there"},"sendTo":{"recipients":["u1"]},"data":{"k":1},"override":{"channels":["webhook"]}}`)
	ctx := context.Background()

	_, err := a.SendMessage(ctx, job)
	var app *Failure
	if !errors.As(err, &app) || app.Permanent {
		t.Fatalf("503 must be retryable: %v", err)
	}
	if l := logOf(t, d, job.LogID); l.Status != "queued" || l.Attempts != 1 || !strings.Contains(l.Error, "503") {
		t.Errorf("after 503: %+v", l)
	}
	_, err = a.SendMessage(ctx, job)
	if !errors.As(err, &app) || app.Permanent || app.RetryAfter.Seconds() != 7 {
		t.Fatalf("429 must be retried after its Retry-After: %v", err)
	}
	_, err = a.SendMessage(ctx, job)
	if !errors.As(err, &app) || !app.Permanent {
		t.Fatalf("400 must not be retried: %v", err)
	}
	if l := logOf(t, d, job.LogID); l.Status != "failed" || l.Attempts != 3 || l.Provider != "webhook" || !strings.Contains(l.Error, "400") {
		t.Errorf("after 400: %+v", l)
	}
	// A failed message is not sent again.
	res, err := a.SendMessage(ctx, job)
	if err != nil || res.Status != "failed" || ep.calls() != 3 {
		t.Errorf("after failure: %+v %v, %d calls", res, err, ep.calls())
	}
}

func TestSendMessageSendsOnceAndFailsOver(t *testing.T) {
	d, appID, a, _ := setup(t)
	down, up := newEndpoint(t, 500, 500), newEndpoint(t)
	first := webhookInstance(t, a, appID, "primary", down.srv.URL)
	second := webhookInstance(t, a, appID, "backup", up.srv.URL)
	if _, err := a.Channels.CreateRoute(context.Background(), appID, "webhook", channels.RouteInput{Name: "ha", InstanceIDs: []int64{first.ID, second.ID}}); err != nil {
		t.Fatal(err)
	}
	job := queueWebhook(t, d, appID, a, `{"notification":{"title":"Hi"},"sendTo":{"recipients":["u1"]},"override":{"channels":["webhook"]}}`)
	res, err := a.SendMessage(context.Background(), job)
	if err != nil || res.Status != "sent" {
		t.Fatalf("failover: %+v %v", res, err)
	}
	l := logOf(t, d, job.LogID)
	if l.Status != "sent" || down.calls() != 1 || up.calls() != 1 || !strings.Contains(l.Error, "primary (webhook)") {
		t.Errorf("log %+v; primary %d calls, backup %d", l, down.calls(), up.calls())
	}
	var payload map[string]any
	_ = json.Unmarshal([]byte(up.bodies[0]), &payload)
	if payload["title"] != "Hi" || payload["recipient"].(map[string]any)["identifier"] != "u1" {
		t.Errorf("payload %v", payload)
	}
	// A retried activity finds the message sent and does not send it again.
	res, err = a.SendMessage(context.Background(), job)
	if err != nil || res.Status != "sent" || up.calls() != 1 {
		t.Errorf("retry after success: %+v %v, %d calls", res, err, up.calls())
	}
}

func TestSendMessageWaitsForAnotherAttempt(t *testing.T) {
	d, appID, a, _ := setup(t)
	ep := newEndpoint(t)
	webhookInstance(t, a, appID, "hook", ep.srv.URL)
	job := queueWebhook(t, d, appID, a, `{"notification":{"title":"Hi"},"sendTo":{"recipients":["u1"]},"override":{"channels":["webhook"]}}`)
	exec(t, d, `UPDATE message_logs SET locked_until = now() + interval '1 minute' WHERE id = $1`, job.LogID)
	_, err := a.SendMessage(context.Background(), job)
	var app *Failure
	if !errors.As(err, &app) || app.Permanent || ep.calls() != 0 {
		t.Errorf("a held message must be retried later, not sent: %v (%d calls)", err, ep.calls())
	}
}

func TestGiveUpsAreRecorded(t *testing.T) {
	d, appID, a, _ := setup(t)
	ep := newEndpoint(t, 503)
	webhookInstance(t, a, appID, "hook", ep.srv.URL)
	job := queueWebhook(t, d, appID, a, `{"notification":{"title":"Hi"},"sendTo":{"recipients":["u1"]},"override":{"channels":["webhook"]}}`)
	_, _ = a.SendMessage(context.Background(), job)
	if err := a.RecordGiveUps(context.Background(), send.GiveUpInput{LogIDs: []int64{job.LogID}, Reason: "retries ran out"}); err != nil {
		t.Fatal(err)
	}
	if l := logOf(t, d, job.LogID); l.Status != "failed" || !strings.Contains(l.Error, "503") || !strings.Contains(l.Error, "gave up: retries ran out") {
		t.Errorf("log %+v", l)
	}
}
