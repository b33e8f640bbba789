package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/delivery/channels"
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

func setup(t *testing.T) (*db.DB, int64, *Service, *recordingPublisher) {
	t.Helper()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	creds, err := apps.NewService(d, box).Create(context.Background(), "app")
	if err != nil {
		t.Fatal(err)
	}
	pub := &recordingPublisher{}
	a := &Service{
		DB: d, Publisher: pub, Log: slog.New(slog.DiscardHandler),
		Channels:  channels.NewService(d, box, providers.NewCatalogue(webhook.Kind(), smtp.Kind()), providers.Deps{Guard: testGuard, HTTP: http.DefaultClient}),
		Templates: templates.NewService(d),
	}
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
	if err := d.InsertRequest(context.Background(), dbsqlc.InsertRequestParams{ID: id, AppID: appID, Payload: payload, RecipientCount: int32(len(req.Recipients))}); err != nil {
		t.Fatal(err)
	}
	return id
}

// recipientsSend is the body of a send titled "Hello" to n recipients, user-0000 on.
func recipientsSend(n int) string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("user-%04d", i)
	}
	body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "Hello"}, "sendTo": map[string]any{"recipients": ids}})
	return string(body)
}

// deliverWhole delivers in in one DeliverBatch call, which must leave nothing pending.
func deliverWhole(t *testing.T, a *Service, in sendwf.DeliverInput) {
	t.Helper()
	res, err := a.DeliverBatch(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pending) != 0 {
		t.Fatalf("pending after one call: %v", res.Pending)
	}
}

func count(t *testing.T, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.Pool.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDeliverThousandRecipientsInBatches(t *testing.T) {
	d, appID, a, pub := setup(t)
	body := recipientsSend(1000)
	req := accept(t, d, appID, body)
	a.BatchSize = 400

	in := sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: req}}}
	calls := 0
	for len(in.Cursors) > 0 {
		res, err := a.DeliverBatch(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		calls++
		in.Cursors = res.Pending
	}
	if calls != 3 {
		t.Errorf("took %d batches, want 3 of at most 400", calls)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", req); n != 1000 {
		t.Errorf("inbox rows = %d, want 1000", n)
	}
	if n := count(t, d, "SELECT count(*) FROM users WHERE app_id = $1", appID); n != 1000 {
		t.Errorf("users = %d, want 1000", n)
	}
	if len(pub.events) != 3 {
		t.Errorf("published %d events, want one per committed batch (3)", len(pub.events))
	}
	row, err := d.GetRequest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if row.Status != "completed" || row.DeliveredCount != 1000 || row.CompletedAt == nil {
		t.Errorf("request = %s delivered %d, want completed 1000", row.Status, row.DeliveredCount)
	}
}

// A call's Limit (a run's first slice, a local activity) bounds its recipients below the
// worker's slice size; a Limit above it changes nothing.
func TestDeliverStopsAtTheCallsLimit(t *testing.T) {
	d, appID, a, _ := setup(t)
	req := accept(t, d, appID, recipientsSend(300))
	a.BatchSize = 200
	var sizes []int
	in := sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: req}}, Limit: 100}
	for len(in.Cursors) > 0 {
		res, err := a.DeliverBatch(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, res.Delivered)
		in = sendwf.DeliverInput{Cursors: res.Pending, Limit: 1000}
	}
	if fmt.Sprint(sizes) != "[100 200]" {
		t.Errorf("calls delivered %v, want [100 200] (the first call's limit, then the worker's size)", sizes)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", req); n != 300 {
		t.Errorf("inbox rows = %d, want 300", n)
	}
}

func TestDeliverIsIdempotentAndKeepsRequestsIndependent(t *testing.T) {
	d, appID, a, _ := setup(t)
	good := accept(t, d, appID, `{"notification":{"title":"A","category":"promo"},"recipients":["x"],"category":"promo"}`)
	other := accept(t, d, appID, `{"notification":{"title":"B"},"sendTo":{"recipients":[{"identifier":"y","email":"y@example.com"}]},"override":{"channels":["email"]}}`)
	broken := uuid.New()
	if err := d.InsertRequest(context.Background(), dbsqlc.InsertRequestParams{ID: broken, AppID: appID, Payload: json.RawMessage(`{"recipients": 5}`)}); err != nil {
		t.Fatal(err)
	}
	in := sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: broken}, {RequestID: good}, {RequestID: other}}}
	if _, err := a.DeliverBatch(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	// A retried activity (same input) writes nothing twice.
	if _, err := a.DeliverBatch(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", good); n != 1 {
		t.Errorf("rows for good request = %d, want 1", n)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", other); n != 0 {
		t.Errorf("override without inApp wrote %d inbox rows", n)
	}
	if n := count(t, d, "SELECT count(*) FROM categories WHERE app_id = $1 AND identifier = 'promo'", appID); n != 1 {
		t.Errorf("deprecated category not created once: %d", n)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications n JOIN categories c ON c.id = n.category_id WHERE n.request_id = $1", good); n != 1 {
		t.Errorf("notification not tagged with its category")
	}
	if n := count(t, d, "SELECT count(*) FROM users WHERE app_id = $1 AND identifier = 'y' AND profile->>'email' = 'y@example.com'", appID); n != 1 {
		t.Errorf("inline user profile not stored")
	}
	for id, want := range map[uuid.UUID]string{broken: "failed", good: "completed", other: "completed"} {
		row, _ := d.GetRequest(context.Background(), id)
		if row.Status != want {
			t.Errorf("request %s status %s, want %s", id, row.Status, want)
		}
	}
	if got := count(t, d, "SELECT delivered_count FROM notification_requests WHERE id = $1", good); got != 1 {
		t.Errorf("delivered_count after retry = %d, want 1", got)
	}
	// The unreadable request says why, in herald.DecodeSendRequest's words.
	if row, _ := d.GetRequest(context.Background(), broken); row.Error == nil || !strings.Contains(*row.Error, "stored request is unreadable") {
		t.Errorf("broken request's error = %v, want it to say the stored request is unreadable", row.Error)
	}
}

// A large call is written in concurrent transactions split by user; together they write
// each row once, complete the request once with the right count, and a retry adds nothing.
func TestDeliverWritesLargeCallsInConcurrentChunks(t *testing.T) {
	defer func(p int) { writeParallelism = p }(writeParallelism)
	writeParallelism = 3
	d, appID, a, pub := setup(t)
	body := recipientsSend(1500)
	big := accept(t, d, appID, body)
	var cursors []sendwf.Cursor
	for i := range 300 { // a pack of single-recipient sends in the same call
		cursors = append(cursors, sendwf.Cursor{RequestID: accept(t, d, appID, fmt.Sprintf(`{"notification":{"title":"one"},"recipients":["user-%04d"]}`, i))})
	}
	in := sendwf.DeliverInput{Cursors: append([]sendwf.Cursor{{RequestID: big}}, cursors...)}
	a.BatchSize = 2000
	for range 2 { // the second call is a retry of the first
		deliverWhole(t, a, in)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", big); n != 1500 {
		t.Errorf("inbox rows of the large send = %d, want 1500", n)
	}
	if n := count(t, d, "SELECT count(*) FROM message_logs WHERE app_id = $1", appID); n != 1800 {
		t.Errorf("message logs = %d, want 1800", n)
	}
	if n := count(t, d, "SELECT count(*) FROM notification_requests WHERE app_id = $1 AND (status <> 'completed' OR delivered_count <> CASE WHEN id = $2 THEN 1500 ELSE 1 END)", appID, big); n != 0 {
		t.Errorf("%d requests not completed with their count", n)
	}
	if n := count(t, d, "SELECT count(*) FROM inbox_counters c JOIN users u ON u.id = c.user_id WHERE u.app_id = $1 AND c.total <> CASE WHEN u.identifier < 'user-0300' THEN 2 ELSE 1 END", appID); n != 0 {
		t.Errorf("%d users with a wrong inbox total", n)
	}
	if len(pub.events) != 1 {
		t.Errorf("published %d events for the first call, want 1 (a retry writes nothing new)", len(pub.events))
	}
}
