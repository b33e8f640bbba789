package pipeline

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"testing"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/platform/telemetry"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/webhook"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// withoutAnalytics removes what the message log search and the analytics add to the
// delivery path (migrations 00073 and 00074), for the comparison.
const withoutAnalytics = `
	DROP TRIGGER message_logs_analytics_insert ON message_logs;
	DROP TRIGGER message_logs_analytics_update ON message_logs;
	DROP INDEX message_logs_app_user, message_logs_app_status, message_logs_app_channel, message_logs_app_provider`

// BenchmarkDeliverPack measures DeliverBatch of a pack of 25 single-recipient in-app sends
// (what one activity of the benchmark's accept → inbox path does), with the analytics
// triggers, the log search indexes and the delivery metrics, and without them.
func BenchmarkDeliverPack(b *testing.B) {
	for _, on := range []bool{true, false} {
		name := "WithAnalytics"
		if !on {
			name = "WithoutAnalytics"
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			// Without waiting for the WAL flush at each commit, so the statements' own cost
			// shows rather than the disk's latency.
			u, _ := url.Parse(dbtest.URL(b))
			q := u.Query()
			q.Set("synchronous_commit", "off")
			u.RawQuery = q.Encode()
			d, err := db.Open(ctx, u.String(), db.PoolSize{MaxConns: 8})
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			box, _ := secrets.NewBox("test-key-0123456789")
			creds, err := apps.NewService(d, box).Create(ctx, "app")
			if err != nil {
				b.Fatal(err)
			}
			a := &Service{DB: d, Publisher: events.Nop{}, Log: slog.New(slog.DiscardHandler), Templates: templates.NewService(d),
				Channels: channels.NewService(d, box, providers.NewCatalogue(webhook.Kind()), providers.Deps{Guard: testGuard, HTTP: http.DefaultClient})}
			if on {
				a.Metrics = telemetry.NewMetrics()
			} else if _, err := d.Pool.Exec(ctx, withoutAnalytics); err != nil {
				b.Fatal(err)
			}
			svc := send.NewService(d, nil)
			body := []byte(`{"notification":{"title":"Hello"},"sendTo":{"recipients":["bench-user"]}}`)
			for b.Loop() {
				b.StopTimer()
				in := sendwf.DeliverInput{}
				for range 25 {
					id, err := svc.Accept(ctx, creds.AppID, body, "")
					if err != nil {
						b.Fatal(err)
					}
					in.Cursors = append(in.Cursors, sendwf.Cursor{RequestID: id})
				}
				b.StartTimer()
				res, err := a.DeliverBatch(ctx, in)
				if err != nil || res.Delivered != 25 {
					b.Fatalf("delivered %d: %v", res.Delivered, err)
				}
			}
		})
	}
}
