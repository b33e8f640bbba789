package realtime

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/inbox/events"
)

// Channel is the Postgres notification channel of the bus.
const Channel = "herald_events"

// ListenerAppName is the application_name of the listening connection, so an operator (or
// a test) can find it in pg_stat_activity.
const ListenerAppName = "herald-realtime-listener"

// PGBus is the Bus over Postgres LISTEN/NOTIFY. Publishing uses the pool; listening holds
// one dedicated connection, outside the pool, for the life of the process.
type PGBus struct {
	db  *db.DB
	url string
	log *slog.Logger

	// Backoff bounds the wait between reconnection attempts of the listener.
	MinBackoff, MaxBackoff time.Duration
	// IdleCheck is how long the listener waits for a notification before it pings the
	// server, so a connection that died silently is noticed.
	IdleCheck time.Duration
	// PublishTimeout bounds one Publish call.
	PublishTimeout time.Duration
}

// NewPGBus returns a bus publishing through d and listening on its own connection to url.
func NewPGBus(d *db.DB, url string, log *slog.Logger) *PGBus {
	return &PGBus{db: d, url: url, log: log, MinBackoff: 100 * time.Millisecond, MaxBackoff: 10 * time.Second,
		IdleCheck: 30 * time.Second, PublishTimeout: 5 * time.Second}
}

// Publish sends the events of one committed change as one NOTIFY (several only when the
// ids do not fit in one payload), in one round trip. Failures are logged, never returned:
// realtime is best effort and listeners resync after gaps.
func (b *PGBus) Publish(ctx context.Context, evs ...events.Event) {
	if len(evs) == 0 {
		return
	}
	payloads, err := encode(evs, maxPayload)
	if err != nil {
		b.log.Error("realtime publish: cannot encode", "error", err)
		return
	}
	// The change is committed: publish it even when the caller's context is ending.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.PublishTimeout)
	defer cancel()
	if err := b.db.NotifyPayloads(ctx, dbsqlc.NotifyPayloadsParams{Channel: Channel, Payloads: payloads}); err != nil {
		b.log.Warn("realtime publish failed; connected clients catch up on their next resync", "kind", evs[0].Kind, "error", err)
	}
}

// Listen holds a LISTEN connection until ctx ends, reconnecting with exponential backoff
// and jitter when it drops, and calls resync each time it listens again.
func (b *PGBus) Listen(ctx context.Context, deliver func(events.Event), resync func()) error {
	wait := b.MinBackoff
	for {
		conn, err := b.connect(ctx)
		if err == nil {
			wait = b.MinBackoff
			resync()
			err = b.receive(ctx, conn, deliver)
			closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			_ = conn.Close(closeCtx)
			cancel()
		}
		if ctx.Err() != nil {
			return nil
		}
		b.log.Warn("realtime listener lost its connection; reconnecting", "error", err, "in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait/2 + rand.N(wait/2+1)):
		}
		wait = min(2*wait, b.MaxBackoff)
	}
}

func (b *PGBus) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(b.url)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["application_name"] = ListenerAppName
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(cctx, "LISTEN "+Channel); err != nil {
		_ = conn.Close(context.Background())
		return nil, err
	}
	b.log.Debug("realtime listener listening", "channel", Channel)
	return conn, nil
}

// receive delivers notifications until the connection fails or ctx ends.
func (b *PGBus) receive(ctx context.Context, conn *pgx.Conn, deliver func(events.Event)) error {
	for {
		wctx, cancel := context.WithTimeout(ctx, b.IdleCheck)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err = conn.Ping(pctx)
			cancel()
			if err != nil {
				return err
			}
			continue
		}
		evs, err := decode(n.Payload)
		if err != nil {
			b.log.Error("realtime listener: dropping a message", "error", err)
			continue
		}
		for _, ev := range evs {
			deliver(ev)
		}
	}
}
