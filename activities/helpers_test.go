package activities

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/pipeline"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/smtp"
	"github.com/heraldhq/herald/internal/providers/webhook"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

type recordingPublisher struct{ events []events.Event }

// testGuard lets tests reach their servers on loopback, as stacktest's HERALD_PRIVATE_HOSTS
// does.
var testGuard = netguard.New("", []string{"127.0.0.1", "localhost"})

func (r *recordingPublisher) Publish(_ context.Context, evs ...events.Event) {
	r.events = append(r.events, evs...)
}

func setup(t *testing.T) (*db.DB, int64, *Pipeline, *recordingPublisher) {
	t.Helper()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	creds, err := apps.NewService(d, box).Create(context.Background(), "app")
	if err != nil {
		t.Fatal(err)
	}
	pub := &recordingPublisher{}
	a := &Pipeline{Service: NewService(&pipeline.Service{
		DB: d, Publisher: pub, Log: slog.New(slog.DiscardHandler),
		Channels:  channels.NewService(d, box, providers.NewCatalogue(webhook.Kind(), smtp.Kind()), providers.Deps{Guard: testGuard, HTTP: http.DefaultClient}),
		Templates: templates.NewService(d),
	})}
	return d, creds.AppID, a, pub
}

func accept(t *testing.T, d *db.DB, appID int64, body string) uuid.UUID {
	t.Helper()
	id, err := send.NewService(d, nil).Accept(context.Background(), appID, []byte(body), "")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// store writes a valid send straight into the outbox, skipping the accept-time workflow
// check: a request whose workflow is gone by the time it is delivered (deleted by a
// published commit after the accept), or the step tests' workflow that only exists in
// the step input.
func store(t *testing.T, d *db.DB, appID int64, body string) uuid.UUID {
	t.Helper()
	req, err := send.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(req)
	id := uuid.Must(uuid.NewV7())
	if _, err := d.Pool.Exec(context.Background(), `INSERT INTO notification_requests (id, app_id, payload, recipient_count) VALUES ($1, $2, $3, $4)`,
		id, appID, payload, int32(len(req.Recipients))); err != nil {
		t.Fatal(err)
	}
	return id
}

func count(t *testing.T, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.Pool.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func drain(t *testing.T, a *Pipeline, cursors []sendwf.Cursor) (int, []sendwf.Job) {
	t.Helper()
	in := sendwf.DeliverInput{Cursors: cursors}
	calls := 0
	var jobs []sendwf.Job
	for len(in.Cursors) > 0 {
		res, err := a.DeliverBatch(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		calls++
		jobs = append(jobs, res.Jobs...)
		in.Cursors = res.Pending
		if calls > 100 {
			t.Fatal("DeliverBatch does not finish")
		}
	}
	return calls, jobs
}

func exec(t *testing.T, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.Pool.Exec(context.Background(), q, args...); err != nil {
		t.Fatal(err)
	}
}

func webhookInstance(t *testing.T, a *Pipeline, appID int64, name, url string) channels.Instance {
	t.Helper()
	inst, err := a.Channels.CreateInstance(context.Background(), appID, "webhook", channels.InstanceInput{Provider: "webhook", Name: name,
		Config: json.RawMessage(`{"url":"` + url + `","secret":"0123456789abcdef"}`)})
	if err != nil {
		t.Fatal(err)
	}
	return inst
}
