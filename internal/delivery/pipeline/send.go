package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/workflows/send"
)

// Error types of SendMessage failures, as Temporal shows them.
const (
	errProvider = "ProviderError"
	errContent  = "ContentError"
	errBusy     = "MessageBusy"
)

// SendMessage delivers one queued recipient × channel. It claims the message log row (an
// attempt that finds the message already sent reports that and sends nothing), renders
// the content, and tries the channel's instances in route order. Success marks the row
// sent. When every instance failed permanently (a 4xx, an invalid address) the row is
// failed and the error is non-retryable; otherwise the row stays queued and Temporal
// retries, after the provider's Retry-After when it gave one.
func (a *Service) SendMessage(ctx context.Context, job send.Job) (send.SendResult, error) {
	lg, err := a.DB.ClaimMessageLog(ctx, dbsqlc.ClaimMessageLogParams{ID: job.LogID, LeaseSeconds: send.SendLease.Seconds()})
	if errors.Is(err, pgx.ErrNoRows) {
		return a.notClaimed(ctx, job)
	}
	if err != nil {
		return send.SendResult{}, db.MapError(err)
	}
	defer a.keepAlive(ctx, func(ctx context.Context) []any {
		if _, err := a.DB.RenewMessageLease(ctx, dbsqlc.RenewMessageLeaseParams{ID: lg.ID, Attempts: lg.Attempts, LeaseSeconds: send.SendLease.Seconds()}); err != nil && ctx.Err() == nil {
			a.Log.Warn("could not renew a message lease", "logId", lg.ID, "error", err)
		}
		return nil
	})()
	e, err := a.sendEntry(ctx, lg.RequestID)
	if err != nil {
		return a.retryLater(ctx, lg, err)
	}
	users, err := a.DB.DeliveryUsers(ctx, dbsqlc.DeliveryUsersParams{AppID: lg.AppID, Ids: []int64{lg.UserID}})
	if err != nil {
		return a.retryLater(ctx, lg, db.MapError(err))
	}
	if len(users) == 0 {
		return a.failed(ctx, lg, nil, "the recipient no longer exists", errContent)
	}
	msg, facts, err := a.compose(ctx, e, lg, users[0].Identifier, users[0].Profile)
	if err != nil {
		return a.failed(ctx, lg, nil, err.Error(), errContent)
	}
	return a.route(ctx, e, lg, msg, facts)
}

// route sends a composed message through the instances its channel's routes plan for the
// recipient's template data (facts); a channel without any fails permanently.
func (a *Service) route(ctx context.Context, e *sendEntry, lg dbsqlc.MessageLog, msg providers.Message, facts map[string]any) (send.SendResult, error) {
	plan, err := a.Channels.Plan(ctx, lg.AppID, lg.Channel, facts)
	if err != nil {
		return a.retryLater(ctx, lg, err)
	}
	if len(plan) == 0 {
		return a.failed(ctx, lg, nil, delivery.ReasonNotConfigured, errContent)
	}
	return a.dispatch(ctx, e, lg, msg, plan)
}

// dispatch tries the planned instances in order until one accepts the message.
func (a *Service) dispatch(ctx context.Context, e *sendEntry, lg dbsqlc.MessageLog, msg providers.Message, plan []channels.Candidate) (send.SendResult, error) {
	o := a.deliver(ctx, e, lg, msg, plan, nil)
	switch {
	case o.err != nil:
		return send.SendResult{}, o.err
	case o.status == delivery.StatusSent:
		return send.SendResult{Status: delivery.StatusSent, Provider: o.provider}, nil
	case o.status == delivery.StatusFailed:
		return send.SendResult{Status: delivery.StatusFailed}, permanent(o.text, errProvider, nil)
	}
	return send.SendResult{}, &Failure{Message: o.text, Type: errProvider, RetryAfter: o.wait}
}

// outcome is what one attempt at a message came to, already recorded in the message log:
// sent, failed for good, or (status empty) to retry, after wait when the provider said so.
type outcome struct {
	status   string
	provider string
	wait     time.Duration
	// text is the failure, as the message log shows it.
	text string
	// err is a failure of Herald's own (the database) that left the message queued.
	err error
	// hold: every route's breaker is open, or the app is at its plan's provider call
	// limit; the message waits for wait (Retry.Hold).
	hold bool
}

// gate admits a provider call through one instance (a batch bounds the calls in flight per
// instance, and the messages sent but not recorded yet); called ends the call, recorded
// the wait for its record.
type gate func(ctx context.Context, c *channels.Candidate) (called, recorded func(), err error)

// deliver tries the planned instances in order until one accepts the message, and records
// the outcome: sent with the instance that took it (and the failures before it), failed
// when every instance failed permanently, else the attempt's error with the message left
// queued for a retry. In a batch (b set) the calls are admitted by the batch, and the
// outcomes recorded with the batch's other messages (group commits); alone, one
// statement each.
func (a *Service) deliver(ctx context.Context, e *sendEntry, lg dbsqlc.MessageLog, msg providers.Message, plan []channels.Candidate, b *batch) outcome {
	var admit gate
	var turns *appTurns
	if b != nil {
		admit, turns = a.admit, b.turns
	}
	var failures []string
	permanent, optedOut := true, false
	var wait time.Duration
	var held time.Time
	skipped := 0
	// The app's provider call lease (its plan's maxProviderCalls), taken before the first
	// call and kept through failover; released once the outcome is recorded.
	var appCall func()
	defer func() {
		if appCall != nil {
			appCall()
		}
	}()
	for i := range plan {
		c := &plan[i]
		// The instance's breaker open: no call, the next route is tried, and the message
		// is held until the instance is probed again. Checked before waiting for a call
		// slot, and again once admitted (the breaker may have opened meanwhile).
		brk := a.breakerOf(c.InstanceID)
		hold := func(retryAt time.Time) {
			failures = append(failures, fmt.Sprintf("%s (%s): %s", c.Name, c.Provider, unavailableText(retryAt)))
			permanent = false
			skipped++
			if held.IsZero() || retryAt.Before(held) {
				held = retryAt
			}
		}
		if blocked, retryAt := a.breakerHeld(ctx, c.InstanceID, brk, time.Now()); blocked {
			hold(retryAt)
			continue
		}
		if appCall == nil && a.AppCalls != nil {
			if appCall = a.appCall(ctx, lg, turns); appCall == nil {
				return a.holdForApp(ctx, lg, c, b)
			}
		}
		m := msg
		m.Override = e.providerOverride(lg.Channel, c.Provider)
		called, recorded := func() {}, func() {}
		if admit != nil {
			var err error
			if called, recorded, err = admit(ctx, c); err != nil {
				return a.release(ctx, lg, err)
			}
		} else if a.Throttle != nil {
			if err := a.Throttle(ctx, c); err != nil {
				return a.release(ctx, lg, err)
			}
		}
		if ok, retryAt := a.breakerAllow(ctx, c.InstanceID, brk, time.Now()); !ok {
			called()
			recorded()
			hold(retryAt)
			continue
		}
		start := time.Now()
		res, err := a.sendVia(ctx, c, e, lg, m)
		took := time.Since(start)
		called()
		if ctx.Err() == nil {
			a.breakerRecord(ctx, c.InstanceID, brk, !unanswered(err), time.Now())
		} else {
			brk.abandon()
		}
		if err == nil {
			a.providerCall(lg.Channel, c.Provider, callSent, took)
			params := sentParams(lg, c, res, strings.Join(failures, "; "))
			if b != nil {
				sent, _ := a.recorders()
				sent.add(params)
			} else {
				a.recordSent(ctx, params)
			}
			recorded()
			return outcome{status: delivery.StatusSent, provider: c.Provider}
		}
		recorded()
		failures = append(failures, fmt.Sprintf("%s (%s): %v", c.Name, c.Provider, err))
		var pe *providers.Error
		if providers.IsPermanent(err) {
			a.providerCall(lg.Channel, c.Provider, callFailed, took)
			optedOut = optedOut || errors.As(err, &pe) && pe.OptedOut
		} else {
			a.providerCall(lg.Channel, c.Provider, callError, took)
			permanent = false
			if errors.As(err, &pe) && pe.RetryAfter > wait {
				wait = pe.RetryAfter
			}
		}
	}
	last := &plan[len(plan)-1]
	text := strings.Join(failures, "; ")
	if skipped == len(plan) {
		// Every route is held by its breaker: the message waits without counting an
		// attempt against its retry window (Retry.Hold).
		a.recordAttempt(ctx, b, dbsqlc.RecordMessageAttemptErrorParams{
			ID: lg.ID, Provider: &last.Provider, InstanceID: &last.InstanceID, Error: &text,
		})
		after := max(time.Until(held), time.Second)
		if b != nil {
			after += b.wake
		}
		return outcome{wait: after, text: text, hold: true}
	}
	if !held.IsZero() {
		wait = max(wait, time.Until(held))
	}
	if permanent {
		if optedOut {
			text = a.providerOptOut(ctx, lg) + text
		}
		if err := a.markFailed(ctx, lg, last, text); err != nil {
			return outcome{err: err, text: err.Error()}
		}
		return outcome{status: delivery.StatusFailed, text: text}
	}
	a.recordAttempt(ctx, b, dbsqlc.RecordMessageAttemptErrorParams{
		ID: lg.ID, Provider: &last.Provider, InstanceID: &last.InstanceID, Error: &text,
	})
	return outcome{wait: wait, text: text}
}

// recordAttempt records an attempt that failed or was held, leaving the message queued:
// with the batch's others when b is set, else on its own.
func (a *Service) recordAttempt(ctx context.Context, b *batch, params dbsqlc.RecordMessageAttemptErrorParams) {
	if b != nil {
		_, attempts := a.recorders()
		attempts.add(params)
		return
	}
	if err := a.DB.RecordMessageAttemptError(ctx, params); err != nil {
		a.Log.Error("could not record a failed attempt", "logId", params.ID, "error", err)
	}
}

// providerOptOut turns the message's channel off for its user when the provider says the
// recipient opted out there (an SMS STOP), so preferences show what the provider enforces and
// later sends are skipped with a reason instead of failing; it returns the note that
// starts the log row's error. A critical send still tries (the channel switch does not hold
// it), and fails at the provider until the user opts in there again.
func (a *Service) providerOptOut(ctx context.Context, lg dbsqlc.MessageLog) string {
	if err := a.DB.UpsertChannelPreferences(ctx, dbsqlc.UpsertChannelPreferencesParams{
		AppID: lg.AppID, UserID: lg.UserID, Channels: []string{lg.Channel}, Enabled: []bool{false},
	}); err != nil {
		a.Log.Error("could not record a provider opt-out", "logId", lg.ID, "error", err)
		return "the recipient opted out at the provider (STOP); "
	}
	return "the recipient opted out at the provider (STOP), so " + lg.Channel + " is now off for this user; "
}

// release records a failure of Herald's own and frees the message for a retry.
func (a *Service) release(ctx context.Context, lg dbsqlc.MessageLog, cause error) outcome {
	_, err := a.retryLater(ctx, lg, cause)
	return outcome{err: err, text: err.Error()}
}

// sentParams is what the message log records of a message an instance accepted.
func sentParams(lg dbsqlc.MessageLog, c *channels.Candidate, res providers.Result, earlier string) dbsqlc.MarkMessageSentParams {
	return dbsqlc.MarkMessageSentParams{
		ID: lg.ID, Provider: &c.Provider, InstanceID: &c.InstanceID, ProviderMessageID: res.ProviderMessageID,
		ProviderResponse: &res.Response, Error: earlier,
	}
}

// recordSent marks the message sent, retrying briefly: the provider has accepted it, so the
// activity succeeds either way (failing it would send the message again).
func (a *Service) recordSent(ctx context.Context, params dbsqlc.MarkMessageSentParams) {
	if err := retryCommit(ctx, func() error { return a.DB.MarkMessageSent(ctx, params) }); err != nil {
		a.Log.Error("could not record a sent message; its log row stays queued", "logId", params.ID, "error", err)
	}
}

// sendVia sends through one instance. Push channels send once per stored subscription or
// device token, removing those the push service says are gone.
func (a *Service) sendVia(ctx context.Context, c *channels.Candidate, e *sendEntry, lg dbsqlc.MessageLog, m providers.Message) (providers.Result, error) {
	overlay := e.configOverlay(c.Provider)
	p, err := a.Channels.Provider(ctx, *c, overlay)
	if err != nil {
		return providers.Result{}, err
	}
	if cl, ok := p.(io.Closer); ok && overlay != nil {
		// Built for this message only: its pooled connections go with it.
		defer cl.Close()
	}
	targets, err := a.pushTargets(ctx, lg, &m)
	if err != nil {
		return providers.Result{}, err
	}
	if targets == nil {
		return p.Send(ctx, m)
	}
	if len(targets) == 0 {
		return providers.Result{}, providers.Permanent("%s", missingPushReason(lg.Channel))
	}
	var ok *providers.Result
	var firstErr error
	sent := 0
	for _, t := range targets {
		res, err := p.Send(ctx, t.msg)
		var pe *providers.Error
		switch {
		case err == nil:
			sent++
			if ok == nil {
				ok = &res
			}
		case errors.As(err, &pe) && pe.Gone:
			if err := t.forget(ctx); err != nil {
				a.Log.Error("could not remove a gone push address", "logId", lg.ID, "error", err)
			}
		case firstErr == nil:
			firstErr = err
		}
	}
	switch {
	case ok != nil:
		ok.Response = fmt.Sprintf("%s (%d of %d addresses)", ok.Response, sent, len(targets))
		return *ok, nil
	case firstErr != nil:
		return providers.Result{}, firstErr
	default:
		return providers.Result{}, providers.Permanent("%s (the push service says every stored one is gone)", missingPushReason(lg.Channel))
	}
}

// failed marks the message failed and returns a non-retryable error.
func (a *Service) failed(ctx context.Context, lg dbsqlc.MessageLog, c *channels.Candidate, text, errType string) (send.SendResult, error) {
	if err := a.markFailed(ctx, lg, c, text); err != nil {
		return send.SendResult{}, err
	}
	return send.SendResult{Status: delivery.StatusFailed}, permanent(text, errType, nil)
}

// markFailed records a permanent failure; c is the last instance tried, nil when no
// provider was called (the outcome is counted then; provider calls were counted each).
func (a *Service) markFailed(ctx context.Context, lg dbsqlc.MessageLog, c *channels.Candidate, text string) error {
	params := dbsqlc.MarkMessageFailedParams{ID: lg.ID, Error: &text}
	if c != nil {
		params.Provider, params.InstanceID = &c.Provider, &c.InstanceID
	}
	if err := a.DB.MarkMessageFailed(ctx, params); err != nil {
		return db.MapError(err)
	}
	if c == nil {
		a.Decided(lg.Channel, delivery.StatusFailed)
	}
	return nil
}

// retryLater releases the message after a failure of Herald's own (the database) and
// returns the error for Temporal to retry.
func (a *Service) retryLater(ctx context.Context, lg dbsqlc.MessageLog, cause error) (send.SendResult, error) {
	text := cause.Error()
	if err := a.DB.RecordMessageAttemptError(ctx, dbsqlc.RecordMessageAttemptErrorParams{ID: lg.ID, Error: &text}); err != nil {
		a.Log.Error("could not record a failed attempt", "logId", lg.ID, "error", err)
	}
	return send.SendResult{}, cause
}

// notClaimed answers for a message another attempt has handled or is handling.
func (a *Service) notClaimed(ctx context.Context, job send.Job) (send.SendResult, error) {
	lg, err := a.DB.GetMessageLog(ctx, job.LogID)
	if errors.Is(err, pgx.ErrNoRows) {
		return send.SendResult{}, permanent("the message log row is gone (recipient deleted?)", errContent, nil)
	}
	if err != nil {
		return send.SendResult{}, db.MapError(err)
	}
	if lg.Status == delivery.StatusQueued {
		// Retry when the holder's lease runs out: it is renewed while its worker lives.
		wait := time.Second
		if lg.LockedUntil != nil {
			wait = min(max(time.Until(*lg.LockedUntil)+500*time.Millisecond, time.Second), send.SendLease)
		}
		return send.SendResult{}, &Failure{Message: "another attempt is sending this message", Type: errBusy, RetryAfter: wait}
	}
	return send.SendResult{Status: lg.Status, Provider: deref(lg.Provider)}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
