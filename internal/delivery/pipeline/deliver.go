// Package pipeline is the delivery pipeline of a send: it pages the recipients of accepted
// requests, decides every recipient × channel, writes in-app rows and the message log, holds
// messages for quiet hours and starts the runs of flow sends; it claims queued messages,
// composes them, routes them through the provider instances with failover and circuit
// breakers, and records every outcome; and it delivers the channel steps of flow runs. The
// Temporal activities (package activities) are its adapters: they decode their input, call
// one method of Service, and heartbeat; the Temporal specifics a call needs come through
// Worker.
package pipeline

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/inbox/events"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// DefaultBatchSize is how many recipients one DeliverBatch call handles at most. Larger
// calls mean fewer Temporal round trips and larger concurrent writes: a 100,000-member
// in-app broadcast took 9.2–9.3 s with 1,000, 5.4–7.7 s with 2,000 and 5.0–5.6 s with
// 4,000 (make bench, back to back). A call's result carries one small job per external
// delivery (about 40 bytes each), far below Temporal's payload limits.
const DefaultBatchSize = 4000

// MaxSmallSends is the most external messages a DeliverBatch call asked to (SendSmall)
// sends itself rather than handing them to SendMessages batches: a pack of single-recipient
// sends then costs one activity, not two.
const MaxSmallSends = 250

// maxRunsPerCall bounds the user-defined workflow runs one call returns: each carries its
// recipient and payload, so a call's result stays well below Temporal's payload limits.
const maxRunsPerCall = 1000

// Service delivers send requests.
type Service struct {
	DB *db.DB
	// Publisher announces each committed batch of inbox rows (one event per batch).
	Publisher events.Publisher
	// Channels knows the app's provider instances and routes.
	Channels *channels.Service
	// Templates loads and renders templates.
	Templates *templates.Service
	BatchSize int
	Log       *slog.Logger
	// Metrics, when set, counts outcomes and times provider calls.
	Metrics Metrics
	// InstanceConcurrency bounds the provider calls SendMessages has in flight per provider
	// instance in this worker (0: DefaultInstanceConcurrency).
	InstanceConcurrency int
	// Throttle, when set, is called before each provider call with the instance it goes
	// to, and may wait: the stack paces instances that have a send rate (config.sendRate)
	// with a token bucket shared by every worker. An error fails the call as a transient
	// failure of Herald's.
	Throttle func(ctx context.Context, c *channels.Candidate) error
	// AppCalls, when set, bounds each app's provider calls in flight across workers (its
	// plan's maxProviderCalls): a message over it is held on the run's timer, untried.
	AppCalls AppCalls
	// AppRuns, when set, renews and releases the leases of send runs of apps whose plan
	// bounds their runs in flight (maxSendsInFlight; the relay takes them).
	AppRuns AppRuns
	// HoldSpread, when set, bounds the random wait of a SendMessages batch that held
	// messages before it returns (see spreadHeld; DefaultHoldSpread in a worker).
	HoldSpread time.Duration
	// WakeSpread, when set, bounds a random delay added to the end of every breaker hold a
	// call or a batch tells its run (see wakeDelay; DefaultWakeSpread in a worker).
	WakeSpread time.Duration
	// BulkWriters bounds the bulk message log writes (claims, sent marks and attempt records
	// of more than a few rows) this process runs at a time (see bulkWrite; 0:
	// DefaultBulkWriters).
	BulkWriters int
	// BulkShare is the percent of the time a large call's inbox writes, and a wave of
	// attempt records (commitAttempts), may take while single sends are being delivered in
	// the process (see pace.go; HERALD_BROADCAST_SHARE in a worker). 0 or 100: written flat
	// out.
	BulkShare int
	// Unsubscribe builds the one-click unsubscribe links of non-critical emails
	// (List-Unsubscribe, {{unsubscribeUrl}}); nil: emails carry none.
	Unsubscribe *unsubscribe.Links
	// Worker, when set, tells the service about the Temporal activity a call runs in (its
	// workflow, whether its worker is stopping, its heartbeats); nil: outside an activity.
	Worker Worker

	// slots holds a semaphore per provider instance (see admit).
	slots sync.Map
	// bulk is the gate of bulk message log writes (bulkwrites.go).
	bulk bulkWrites
	// pace paces large calls' inbox writes beside single sends (pace.go).
	pace pacer
	// records are the group commits of sent marks and attempt records (groupcommit.go).
	records recorders
	// breakers holds the circuit breaker of each provider instance (breaker.go).
	breakers  sync.Map
	cacheOnce sync.Once
	cache     *sendCache
	// draw picks a wait in [0, n) for spreadHeld and wakeDelay (nil: uniformly at random).
	draw func(n time.Duration) time.Duration
}

// Worker is what the service asks of the activity a call runs in.
type Worker interface {
	// WorkflowID names the run the activity of ctx belongs to, for the message log.
	WorkflowID(ctx context.Context) string
	// Stopping reports whether the worker running the activity of ctx is shutting down:
	// long calls then finish the step at hand and hand the rest back to the workflow.
	Stopping(ctx context.Context) bool
	// KeepAlive heartbeats for the activity of ctx until the returned stop is called,
	// asking beat (when given) for each heartbeat's details.
	KeepAlive(ctx context.Context, beat func(context.Context) []any) (stop func())
}

// DeliverBatch delivers the next slice of recipients of the given requests, up to
// BatchSize recipients in all: it decides every recipient × channel, writes in-app rows and
// the message log, and returns the external deliveries as jobs with the cursors still
// pending. The pages of one call are written in one transaction (see commitPages); a
// retried call writes nothing twice (inbox rows and log rows are unique per request, user
// and channel) and hands out the same jobs.
func (a *Service) DeliverBatch(ctx context.Context, in sendwf.DeliverInput) (sendwf.DeliverResult, error) {
	ids := make([]uuid.UUID, len(in.Cursors))
	for i, c := range in.Cursors {
		ids[i] = c.RequestID
	}
	rows, err := a.DB.GetRequestsByIDs(ctx, ids)
	if err != nil {
		return sendwf.DeliverResult{}, db.MapError(err)
	}
	byID := make(map[uuid.UUID]dbsqlc.GetRequestsByIDsRow, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	budget := a.BatchSize
	if budget <= 0 {
		budget = DefaultBatchSize
	}
	if in.Limit > 0 {
		budget = min(budget, in.Limit)
	}
	call := &batchCall{configured: map[int64]map[string]bool{}, workflowID: a.workflowID(ctx), users: newUserCache(),
		holdQuiet: in.HoldQuietHours, now: time.Now(), holdChannels: in.HoldChannels, wake: a.wakeDelay()}
	if err := a.preResolveCall(ctx, call, in.Cursors, byID, budget); err != nil {
		return sendwf.DeliverResult{}, err
	}
	var res sendwf.DeliverResult
	runsLeft := min(budget, maxRunsPerCall)
	// flush writes the pages decided so far in one transaction.
	flush := func() error {
		n, jobs, held, err := a.commitPages(ctx, call.works)
		call.works = nil
		res.Delivered += n
		res.Jobs = append(res.Jobs, jobs...)
		res.Held = append(res.Held, held...)
		return err
	}
	for _, c := range in.Cursors {
		// A completed request is delivered again when asked: that is a retry of its last
		// slice, whose jobs must be handed out again (nothing is written twice).
		row, ok := byID[c.RequestID]
		if !ok || row.Status == "failed" {
			continue
		}
		if budget == 0 {
			res.Pending = append(res.Pending, c)
			continue
		}
		var req herald.SendRequest
		if err := herald.DecodeSendRequest(row.Payload, &req); err != nil {
			a.Fail(ctx, c.RequestID, err.Error())
			continue
		}
		var next sendwf.Cursor
		var used int
		var done bool
		if req.Notification.Flow != nil {
			if runsLeft == 0 {
				res.Pending = append(res.Pending, c)
				continue
			}
			next, used, done, err = a.deliverFlowRequest(ctx, call, row.AppID, c.RequestID, &req, c, min(budget, runsLeft), &res)
			runsLeft -= min(used, runsLeft)
		} else {
			var sc *sendContext
			if sc, err = a.prepare(ctx, call, row.AppID, c.RequestID, &req); err != nil {
				return sendwf.DeliverResult{}, err
			}
			sc.holdQuiet, sc.now = call.holdQuiet, call.now
			next, used, done, err = a.deliverRequest(ctx, call, sc, c, budget)
		}
		if err != nil {
			return sendwf.DeliverResult{}, err
		}
		budget -= used
		if !done {
			res.Pending = append(res.Pending, next)
		}
		// A worker shutting down writes what it decided and hands the rest back: the
		// workflow continues on another worker from the returned cursors.
		if a.stopping(ctx) {
			budget = 0
		}
	}
	if err := flush(); err != nil {
		return sendwf.DeliverResult{}, err
	}
	res.Holds = call.runHolds()
	if len(rows) > 0 {
		// The relay packs one app's requests per run: its lease is that app's.
		a.keepRunLease(ctx, rows[0].AppID, call.workflowID, len(res.Pending) > 0)
	}
	if in.Spill && len(res.Jobs) > 0 {
		// The run's backlog reads these from the message log (LoadQueuedJobs).
		res.Spilled, res.SpillFrom = len(res.Jobs), res.Jobs[0].LogID
		for _, j := range res.Jobs[1:] {
			res.SpillFrom = min(res.SpillFrom, j.LogID)
		}
		res.Jobs = nil
		return res, nil
	}
	if in.SendSmall && len(res.Jobs) > 0 && len(res.Jobs) <= MaxSmallSends && !a.stopping(ctx) {
		// A retried call finds the messages it sent no longer queued (not handed out
		// again) and claims the others again.
		out, err := a.SendMessages(ctx, sendwf.SendBatchInput{Jobs: res.Jobs})
		if err != nil {
			return sendwf.DeliverResult{}, err
		}
		res.Jobs, res.Sent, res.Failed, res.Retries = nil, out.Sent, out.Failed, out.Retries
	}
	return res, nil
}

// preResolveCall parses the requests of a call and creates their inline recipients with
// one upsert per app.
func (a *Service) preResolveCall(ctx context.Context, call *batchCall, cursors []sendwf.Cursor, rows map[uuid.UUID]dbsqlc.GetRequestsByIDsRow, budget int) error {
	reqs := map[int]*herald.SendRequest{}
	appOf := map[int]int64{}
	for i, c := range cursors {
		row, ok := rows[c.RequestID]
		if !ok || row.Status == "failed" {
			continue
		}
		var req herald.SendRequest
		if herald.DecodeSendRequest(row.Payload, &req) != nil {
			continue // Deliver fails the request with the decoder's error
		}
		reqs[i], appOf[i] = &req, row.AppID
	}
	return a.preResolve(ctx, call.users, cursors, reqs, appOf, budget)
}

// deliverRequest decides pages of one request until the budget is spent or the request is
// done, adding them to the call's writes, and returns where it stands.
func (a *Service) deliverRequest(ctx context.Context, call *batchCall, sc *sendContext, c sendwf.Cursor, budget int) (sendwf.Cursor, int, bool, error) {
	used := 0
	for used < budget {
		page, next, done, err := a.nextPage(ctx, sc, c, budget-used)
		if err != nil {
			return c, used, false, err
		}
		pw, err := a.decidePage(ctx, sc, page, done)
		if err != nil {
			return c, used, false, err
		}
		call.works = append(call.works, pw)
		// An empty page (a missing topic) still costs one, so the loop always ends.
		used += max(len(page), 1)
		c = next
		if done {
			return c, used, true, nil
		}
		if a.stopping(ctx) {
			return c, budget, false, nil
		}
	}
	return c, used, false, nil
}

// FailRequests records that requests could not be delivered. The run ends: its lease of
// its app's runs in flight (AppRuns) is given back.
func (a *Service) FailRequests(ctx context.Context, in sendwf.FailInput) error {
	for _, id := range in.RequestIDs {
		if err := a.DB.FailRequest(ctx, dbsqlc.FailRequestParams{ID: id, Error: &in.Reason}); err != nil {
			return db.MapError(err)
		}
	}
	if a.AppRuns != nil && len(in.RequestIDs) > 0 {
		rows, err := a.DB.GetRequestsByIDs(ctx, in.RequestIDs[:1])
		if err != nil {
			return db.MapError(err)
		}
		if len(rows) > 0 {
			a.keepRunLease(ctx, rows[0].AppID, a.workflowID(ctx), false)
		}
	}
	return nil
}

// RecordGiveUps marks failed the messages whose retries ran out.
func (a *Service) RecordGiveUps(ctx context.Context, in sendwf.GiveUpInput) error {
	if in.Backlog != nil {
		if err := a.DB.GiveUpBacklog(ctx, dbsqlc.GiveUpBacklogParams{
			RequestIds: in.Backlog.RequestIDs, FromID: in.Backlog.FromLogID, Reason: "gave up: " + in.Reason,
		}); err != nil {
			return db.MapError(err)
		}
	}
	if len(in.LogIDs) == 0 {
		return nil
	}
	return db.MapError(a.DB.GiveUpMessageLogs(ctx, dbsqlc.GiveUpMessageLogsParams{Ids: in.LogIDs, Reason: "gave up: " + in.Reason}))
}

// Fail records that a request could not be delivered (and logs it).
func (a *Service) Fail(ctx context.Context, id uuid.UUID, reason string) {
	a.Log.Error("request failed", "requestId", id, "reason", reason)
	if err := a.DB.FailRequest(ctx, dbsqlc.FailRequestParams{ID: id, Error: &reason}); err != nil {
		a.Log.Error("could not record request failure", "requestId", id, "error", err)
	}
}

// workflowID names the run the activity of ctx belongs to, for the message log.
func (a *Service) workflowID(ctx context.Context) string {
	if a.Worker == nil {
		return ""
	}
	return a.Worker.WorkflowID(ctx)
}

// stopping reports whether the worker running the activity of ctx is shutting down.
func (a *Service) stopping(ctx context.Context) bool {
	return a.Worker != nil && a.Worker.Stopping(ctx)
}

// keepAlive heartbeats for the activity of ctx (see Worker.KeepAlive); outside one it does
// nothing.
func (a *Service) keepAlive(ctx context.Context, beat func(context.Context) []any) (stop func()) {
	if a.Worker == nil {
		return func() {}
	}
	return a.Worker.KeepAlive(ctx, beat)
}

// OrEmpty is raw, or empty when raw is.
func OrEmpty(raw json.RawMessage, empty string) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(empty)
	}
	return raw
}
