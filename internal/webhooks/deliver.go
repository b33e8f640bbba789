package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/platform/netguard"
)

// maxResponse is how much of an endpoint's answer the delivery log keeps.
const maxResponse = 1024

// Policy is how deliveries are retried and when an endpoint is disabled
// (config.WebhooksConfig).
type Policy struct {
	RetryBase, RetryMaxWait, RetryPeriod time.Duration
	DisableAfter                         int
	DisableAfterPeriod                   time.Duration
	Timeout                              time.Duration
	// BatchSize is the most deliveries one Deliver call attempts; Parallel how many of an
	// unordered endpoint's go out at once.
	BatchSize, Parallel int
}

// Deliverer sends the due deliveries of one endpoint (the activity of workflows/webhook).
type Deliverer struct {
	DB       *db.DB
	Service  *Service
	HTTP     *http.Client
	Audit    *audit.Log
	Log      *slog.Logger
	Policy   Policy
	now      func() time.Time
	jitterFn func() float64
}

// NewDeliverer returns a deliverer posting through the guard's client (every connection is
// checked again, so a name re-pointed at an internal address after save is refused).
func NewDeliverer(d *db.DB, svc *Service, guard *netguard.Guard, a *audit.Log, log *slog.Logger, p Policy) *Deliverer {
	if p.BatchSize <= 0 {
		p.BatchSize = 100
	}
	if p.Parallel <= 0 {
		p.Parallel = 16
	}
	client := guard.Client(p.Timeout)
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Deliverer{DB: d, Service: svc, HTTP: client, Audit: a, Log: log, Policy: p, now: time.Now, jitterFn: rand.Float64}
}

// Result says what one Deliver call did; More means the endpoint may have more due now.
type Result struct {
	Attempted int  `json:"attempted"`
	Succeeded int  `json:"succeeded"`
	More      bool `json:"more"`
}

// Deliver attempts up to BatchSize due deliveries of the endpoint, in chunks of Parallel
// (one at a time, stopping at the first failure, for an ordered endpoint). beat is called
// after each chunk (the activity's heartbeat).
func (d *Deliverer) Deliver(ctx context.Context, endpointID int64, beat func()) (Result, error) {
	var res Result
	ep, err := d.DB.WebhookEndpointForDelivery(ctx, endpointID)
	if errors.Is(err, pgx.ErrNoRows) {
		return res, nil // deleted: nothing to do
	}
	if err != nil {
		return res, err
	}
	if !ep.Enabled || (ep.BlockedUntil != nil && ep.BlockedUntil.After(d.now())) {
		return res, nil
	}
	secrets, err := d.Service.signingSecrets(ep)
	if err != nil {
		return res, err
	}
	chunk := d.Policy.Parallel
	if ep.Ordered {
		chunk = 1
	}
	lease := d.Policy.Timeout + 10*time.Second // one chunk: requests in parallel, each bounded by Timeout
	for res.Attempted < d.Policy.BatchSize {
		rows, err := d.DB.ClaimWebhookDeliveries(ctx, dbsqlc.ClaimWebhookDeliveriesParams{
			EndpointID: ep.ID, Ordered: ep.Ordered, MaxRows: int32(min(chunk, d.Policy.BatchSize-res.Attempted)), LeaseSeconds: lease.Seconds(),
		})
		if err != nil {
			return res, err
		}
		if len(rows) == 0 {
			return res, nil
		}
		outcomes := make([]attempt, len(rows))
		var wg sync.WaitGroup
		for i, row := range rows {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outcomes[i] = d.post(ctx, ep, secrets, row)
			}()
		}
		wg.Wait()
		failed, ok, first := 0, 0, time.Time{}
		var retryAt *time.Time
		for i, row := range rows {
			o := outcomes[i]
			next, err := d.record(ctx, row, o)
			if err != nil {
				return res, err
			}
			if o.ok() {
				ok++
				continue
			}
			failed++
			if first.IsZero() || o.at.Before(first) {
				first = o.at
			}
			retryAt = &next
		}
		res.Attempted += len(rows)
		res.Succeeded += ok
		if ok > 0 {
			if err := d.DB.WebhookEndpointSucceeded(ctx, ep.ID); err != nil {
				return res, err
			}
		}
		if failed > 0 {
			if err := d.failed(ctx, ep, failed, first, retryAt); err != nil {
				return res, err
			}
			if ep.Ordered {
				return res, nil // the head waits for its retry; nothing may overtake it
			}
		}
		if beat != nil {
			beat()
		}
	}
	res.More = true
	return res, nil
}

// attempt is the outcome of one POST.
type attempt struct {
	at         time.Time
	status     int // 0: no answer
	latency    time.Duration
	response   string
	err        string
	retryAfter time.Duration
}

func (a attempt) ok() bool { return a.status >= 200 && a.status < 300 }

// Body is the JSON body of every delivery: the event's type, when it happened and its data.
type Body struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// body renders a delivery's body; the same row gives the same bytes on every attempt.
func body(row dbsqlc.WebhookDelivery) ([]byte, error) {
	return json.Marshal(Body{Type: row.EventType, Timestamp: row.CreatedAt.UTC().Format(time.RFC3339Nano), Data: row.Data})
}

func (d *Deliverer) post(ctx context.Context, ep dbsqlc.WebhookEndpoint, secrets []string, row dbsqlc.WebhookDelivery) attempt {
	a := attempt{at: d.now()}
	b, err := body(row)
	if err != nil {
		a.err = "cannot encode the event: " + err.Error()
		return a
	}
	ts := a.at.Unix()
	sig, err := SignatureHeader(secrets, row.MessageID, ts, b)
	if err != nil {
		a.err = err.Error()
		return a
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.Url, bytes.NewReader(b))
	if err != nil {
		a.err = "invalid URL"
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Herald-Webhooks/1")
	req.Header.Set(HeaderID, row.MessageID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(HeaderSignature, sig)
	start := time.Now()
	resp, err := d.HTTP.Do(req)
	a.latency = time.Since(start)
	if err != nil {
		a.err = netguard.Describe(err, "HTTP", req.URL.Host)
		return a
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	a.status = resp.StatusCode
	a.response = validUTF8(snippet)
	a.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), a.at)
	if !a.ok() {
		a.err = "HTTP " + strconv.Itoa(resp.StatusCode)
	}
	return a
}

// validUTF8 keeps the snippet storable as text: a cut multi-byte character or binary bytes
// become U+FFFD.
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// backoff is the wait after the n-th failed attempt (n ≥ 1): RetryBase doubled n-1 times,
// plus up to 10% jitter, at most RetryMaxWait; a longer Retry-After wins (capped the same).
func (d *Deliverer) backoff(n int, retryAfter time.Duration) time.Duration {
	w := d.Policy.RetryBase
	for i := 1; i < n && w < d.Policy.RetryMaxWait; i++ {
		w *= 2
	}
	w += time.Duration(float64(w) * 0.1 * d.jitterFn())
	w = max(w, retryAfter)
	return min(w, d.Policy.RetryMaxWait)
}

// record writes an attempt's outcome: succeeded, pending again after the backoff, or
// failed when the next attempt would fall past the retry period. It returns when the next
// attempt is due.
func (d *Deliverer) record(ctx context.Context, row dbsqlc.WebhookDelivery, a attempt) (time.Time, error) {
	status, next := "succeeded", a.at
	if !a.ok() {
		next = a.at.Add(d.backoff(int(row.Attempts), a.retryAfter))
		status = "pending"
		if next.After(row.CreatedAt.Add(d.Policy.RetryPeriod)) {
			status = "failed"
		}
	}
	var code *int32
	if a.status != 0 {
		c := int32(a.status)
		code = &c
	}
	err := d.DB.FinishWebhookAttempt(ctx, dbsqlc.FinishWebhookAttemptParams{
		ID: row.ID, Status: status, NextAttemptAt: next, AttemptedAt: a.at, LastStatus: code,
		LatencyMs: int32(a.latency.Milliseconds()), Response: a.response, Error: a.err,
	})
	return next, err
}

// failed counts failures on the endpoint and, when that disabled it, records why.
func (d *Deliverer) failed(ctx context.Context, ep dbsqlc.WebhookEndpoint, n int, first time.Time, retryAt *time.Time) error {
	r, err := d.DB.WebhookEndpointFailed(ctx, dbsqlc.WebhookEndpointFailedParams{
		ID: ep.ID, Failures: int32(n), FirstFailureAt: first, Threshold: int32(d.Policy.DisableAfter),
		PeriodSeconds: d.Policy.DisableAfterPeriod.Seconds(), BlockedUntil: retryAt,
	})
	if err != nil {
		return err
	}
	if !r.DisabledNow {
		return nil
	}
	d.Log.Warn("webhook endpoint disabled after consecutive failures", "app", r.AppID, "endpoint", r.ID, "failures", r.ConsecutiveFailures)
	if d.Audit == nil || r.ClientID == nil {
		return nil
	}
	return d.Audit.Client(ctx, nil, *r.ClientID, audit.Event{Action: audit.WebhookAutoDisabled, TargetType: "webhookEndpoint",
		TargetID: strconv.FormatInt(r.ID, 10), TargetLabel: r.Url,
		Details: map[string]any{"appId": r.AppID, "consecutiveFailures": r.ConsecutiveFailures}})
}
