package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/delivery/render"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/flow/rundetail"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/workflows/flowrun"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// StepSourceKey is the source key of the inbox row an in-app step writes: distinct per
// step, so one run may write several rows for one request and user, and recognisable, so
// inbox changes of these rows can wake the run (see flow.InboxSignals).
func StepSourceKey(stepID string) string { return "flow:" + stepID }

// Outcomes of a channel step (flowrun.DeliverStepResult.Status).
const (
	stepSent    = "sent"
	stepSkipped = "skipped"
	stepFailed  = "failed"
)

// DeliverStep delivers one channel step of a workflow run to its recipient through the
// delivery pipeline: the step's message log row (keyed by the step id) records the outcome;
// the channel must be configured, the user's preference for the category × channel on and
// the address present, else the step is skipped with the reason; the content (the step's
// template or inline content, its batching form after a digest) is rendered with the run's
// data; in-app writes the inbox row, other channels go through the providers with failover.
// A retried attempt finds the row settled and sends nothing twice. Errors are classified as
// SendMessage does: permanent ones are non-retryable, a 429 retries after its Retry-After.
func (a *Service) DeliverStep(ctx context.Context, in flowrun.DeliverStepInput) (flowrun.DeliverStepResult, error) {
	requestID, err := uuid.Parse(in.RequestID)
	if err != nil {
		return flowrun.DeliverStepResult{}, permanent("bad request id "+in.RequestID, errContent, err)
	}
	users, err := a.DB.DeliveryUsers(ctx, dbsqlc.DeliveryUsersParams{AppID: in.AppID, Ids: []int64{in.Recipient.UserID}})
	if err != nil {
		return flowrun.DeliverStepResult{}, db.MapError(err)
	}
	if len(users) == 0 {
		return flowrun.DeliverStepResult{Status: stepFailed, Reason: "the recipient no longer exists"},
			permanent("the recipient no longer exists", errContent, nil)
	}
	user := users[0]
	lg, err := a.stepLog(ctx, in, requestID)
	if err != nil {
		return flowrun.DeliverStepResult{}, err
	}
	if lg.Status == delivery.StatusHeld {
		// The run woke up after the quiet hours (Release), or a hold is retried: queued
		// again and decided anew (a retried hold holds it again).
		if err := a.DB.ReleaseStepLog(ctx, lg.ID); err != nil {
			return flowrun.DeliverStepResult{}, db.MapError(err)
		}
		lg.Status = delivery.StatusQueued
	}
	if lg.Status != delivery.StatusQueued {
		return a.stepDone(ctx, in, lg)
	}
	claimed, err := a.DB.ClaimMessageLog(ctx, dbsqlc.ClaimMessageLogParams{ID: lg.ID, LeaseSeconds: sendwf.SendLease.Seconds()})
	if errors.Is(err, pgx.ErrNoRows) {
		// Another attempt settled the step or is delivering it.
		if lg, err = a.DB.GetMessageLog(ctx, lg.ID); err != nil {
			return flowrun.DeliverStepResult{}, db.MapError(err)
		}
		if lg.Status == delivery.StatusQueued {
			return flowrun.DeliverStepResult{}, &Failure{Message: "another attempt is delivering this step", Type: errBusy}
		}
		return a.stepDone(ctx, in, lg)
	}
	if err != nil {
		return flowrun.DeliverStepResult{}, db.MapError(err)
	}
	return a.deliverClaimedStep(ctx, in, claimed, user)
}

// deliverClaimedStep decides, renders and delivers a step whose log row this attempt holds.
func (a *Service) deliverClaimedStep(ctx context.Context, in flowrun.DeliverStepInput, lg dbsqlc.MessageLog, user dbsqlc.DeliveryUsersRow) (flowrun.DeliverStepResult, error) {
	fail := func(text string) (flowrun.DeliverStepResult, error) {
		return fromSend(a.failed(ctx, lg, nil, text, errContent))
	}
	later := func(cause error) (flowrun.DeliverStepResult, error) {
		return fromSend(a.retryLater(ctx, lg, cause))
	}
	e, err := a.sendEntry(ctx, lg.RequestID)
	if err != nil {
		return later(err)
	}
	bundle, err := a.stepBundle(ctx, in)
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		return fail(err.Error())
	} else if err != nil {
		return later(err)
	}
	cat, err := a.StepCategory(ctx, in.AppID, in.Category)
	if err != nil {
		return later(err)
	}
	catID := cat.ID
	reason, note, err := a.stepSkip(ctx, in, cat, bundle, user)
	if err != nil {
		return later(err)
	}
	if note != "" {
		if err := a.DB.NoteStepLog(ctx, dbsqlc.NoteStepLogParams{ID: lg.ID, AppID: in.AppID, Reason: &note}); err != nil {
			return later(db.MapError(err))
		}
	}
	if reason != "" {
		if err := a.DB.SettleStepLog(ctx, dbsqlc.SettleStepLogParams{ID: lg.ID, Status: delivery.StatusSkipped, Reason: reason}); err != nil {
			return later(db.MapError(err))
		}
		a.Decided(lg.Channel, delivery.StatusSkipped)
		return flowrun.DeliverStepResult{Status: stepSkipped, Reason: reason}, nil
	}
	if held, res, err := a.holdStep(ctx, in, lg, cat.Critical, user); err != nil {
		return later(err)
	} else if held {
		return res, nil
	}
	data, runData, err := stepData(e, in, user)
	if err != nil {
		return fail(err.Error())
	}
	critical := cat.Critical
	if !critical && catID != nil && lg.Channel == herald.ChannelEmail {
		if critical, err = a.FlowCritical(ctx, in.AppID, in.Flow.Identifier); err != nil {
			return later(err)
		}
	}
	headers := withLink(data, a.unsubscribeLink(lg, catID, critical), a.preferencesURL(lg))
	renderFor := bundle.Render
	if in.Batch != nil {
		renderFor = bundle.RenderBatch
	}
	out, err := renderFor(ctx, lg.Channel, data)
	if err != nil {
		return fail("render: " + err.Error())
	}
	if lg.Channel == herald.ChannelInApp {
		if err := a.recordContent(ctx, lg, contentOf(out, "")); err != nil {
			return later(err)
		}
		return a.stepInbox(ctx, in, e, lg, catID, out, runData)
	}
	msg, err := e.message(lg, user.Identifier, user.Profile, out)
	if err != nil {
		return fail(err.Error())
	}
	if err := a.recordContent(ctx, lg, contentOf(templates.Rendered{
		Subject: msg.Subject, HTML: msg.HTML, Text: msg.Text, Title: msg.Title, Body: msg.Body, Icon: msg.Icon, URL: msg.URL,
	}, addressText(msg.To))); err != nil {
		return later(err)
	}
	msg.Data, msg.Headers = runData, headers
	return fromSend(a.route(ctx, e, lg, msg, data))
}

// recordContent stores what a step rendered on its message log row (capped), for the run
// timeline: one more write per delivered workflow step, none for other sends.
func (a *Service) recordContent(ctx context.Context, lg dbsqlc.MessageLog, c rundetail.Content) error {
	return db.MapError(a.DB.SetStepLogContent(ctx, dbsqlc.SetStepLogContentParams{ID: lg.ID, AppID: lg.AppID, Content: c.Encode()}))
}

// contentOf is a step's rendered content as the timeline shows it, with its address.
func contentOf(out templates.Rendered, to string) rundetail.Content {
	return rundetail.Content{To: to, Subject: out.Subject, HTML: out.HTML, Text: out.Text, Title: out.Title, Body: out.Body, Icon: out.Icon, URL: out.URL}
}

// addressText is the address a message goes to, as one line (push tokens are not shown).
func addressText(a providers.Address) string {
	switch {
	case a.Email != "":
		return a.Email
	case a.PhoneNumber != "":
		return a.PhoneNumber
	case a.ChatChannel != "":
		return a.ChatChannel
	case a.WebhookURL != "":
		// The path of an incoming webhook is its secret: the host only.
		if u, err := url.Parse(a.WebhookURL); err == nil && u.Host != "" {
			return u.Scheme + "://" + u.Host + "/…"
		}
		return "a webhook URL"
	case len(a.PushTokens) > 0:
		return fmt.Sprintf("%d push token(s)", len(a.PushTokens))
	case a.WebPush != nil:
		return "a browser push subscription"
	}
	return ""
}

// fromSend turns the pipeline's outcome of a delivery into the interpreter's.
func fromSend(res sendwf.SendResult, err error) (flowrun.DeliverStepResult, error) {
	out := flowrun.DeliverStepResult{Status: stepStatus(res.Status)}
	if err != nil {
		out.Status, out.Reason = stepFailed, err.Error()
	}
	return out, err
}

// stepStatus maps a message log status to a step outcome.
func stepStatus(logStatus string) string {
	switch logStatus {
	case delivery.StatusSkipped:
		return stepSkipped
	case delivery.StatusFailed, "bounced", "":
		return stepFailed
	default:
		return stepSent
	}
}

// stepLog creates (or finds, on a retry) the step's message log row.
func (a *Service) stepLog(ctx context.Context, in flowrun.DeliverStepInput, requestID uuid.UUID) (dbsqlc.MessageLog, error) {
	lg, err := a.DB.InsertStepLog(ctx, dbsqlc.InsertStepLogParams{
		AppID: in.AppID, RequestID: requestID, WorkflowID: a.workflowID(ctx), UserID: in.Recipient.UserID,
		UserIdentifier: in.Recipient.Identifier, Channel: in.Step.Type, StepKey: in.Step.ID, TemplateIdentifier: in.Step.Template,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		lg, err = a.DB.GetStepLog(ctx, dbsqlc.GetStepLogParams{AppID: in.AppID, RequestID: requestID, UserID: in.Recipient.UserID, Channel: in.Step.Type, StepKey: in.Step.ID})
	}
	return lg, db.MapError(err)
}

// stepDone answers for a step an earlier attempt settled.
func (a *Service) stepDone(ctx context.Context, in flowrun.DeliverStepInput, lg dbsqlc.MessageLog) (flowrun.DeliverStepResult, error) {
	res := flowrun.DeliverStepResult{Status: stepStatus(lg.Status), Reason: deref(lg.Reason)}
	if res.Status == stepFailed {
		res.Reason = deref(lg.Error)
	}
	if res.Status == stepSent && in.Step.Type == herald.ChannelInApp {
		id, err := a.DB.StepNotification(ctx, dbsqlc.StepNotificationParams{RequestID: lg.RequestID, UserID: lg.UserID, SourceKey: StepSourceKey(in.Step.ID)})
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return flowrun.DeliverStepResult{}, db.MapError(err)
		}
		res.NotificationID = id
	}
	return res, nil
}

// stepBundle loads the step's template, or compiles its inline content.
func (a *Service) stepBundle(ctx context.Context, in flowrun.DeliverStepInput) (*templates.Bundle, error) {
	if in.Step.Template != "" {
		return a.Templates.Bundle(ctx, in.AppID, in.Step.Template, herald.Content{TemplateIdentifier: in.Step.Template})
	}
	return a.Templates.InlineBundle(ctx, in.AppID, fmt.Sprintf("step %q", in.Step.ID), in.Step.Type, in.Step.Content, in.Step.Layout)
}

// stepData is the template data of a step: the send's (app, category, notification) with
// the run's data (a fetch may have added to it), the recipient, and the digest's batch. It
// also returns the run's data as JSON, which the inbox row and provider payloads carry.
func stepData(e *sendEntry, in flowrun.DeliverStepInput, user dbsqlc.DeliveryUsersRow) (map[string]any, json.RawMessage, error) {
	if e.sendData == nil {
		return nil, nil, errors.New(e.templateErr)
	}
	runData, err := json.Marshal(orEmptyMap(in.Data))
	if err != nil {
		return nil, nil, fmt.Errorf("data cannot be encoded: %w", err)
	}
	data := maps.Clone(e.sendData)
	if data["data"], err = render.DecodeJSON(runData); err != nil {
		return nil, nil, fmt.Errorf("data cannot be read: %w", err)
	}
	if in.Batch != nil {
		raw, _ := json.Marshal(in.Batch)
		if data["batch"], err = render.DecodeJSON(raw); err != nil {
			return nil, nil, fmt.Errorf("batch cannot be read: %w", err)
		}
	}
	return templates.Recipient(data, user.Identifier, user.Profile), runData, nil
}

func orEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// stepInbox writes an in-app step's inbox row and settles its log row in one transaction,
// then announces the row.
func (a *Service) stepInbox(ctx context.Context, in flowrun.DeliverStepInput, e *sendEntry, lg dbsqlc.MessageLog, catID *int64, out templates.Rendered, runData json.RawMessage) (flowrun.DeliverStepResult, error) {
	sourceKey := StepSourceKey(in.Step.ID)
	blocks := OrEmpty(e.req.Notification.Blocks, "[]")
	if out.Blocks != nil {
		blocks = out.Blocks // the template's, rendered for this user
	}
	var id int64
	err := a.DB.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		rows, err := q.InsertInboxRows(ctx, dbsqlc.InsertInboxRowsParams{
			AppID: in.AppID, RequestID: lg.RequestID, SourceKey: sourceKey, CategoryID: catID,
			Data: runData, Blocks: blocks,
			UserIds: []int64{lg.UserID}, Titles: []string{out.Title}, Messages: []string{out.Body}, Icons: []string{out.Icon}, Urls: []string{out.URL},
		})
		if err != nil {
			return err
		}
		if len(rows) == 1 {
			id = rows[0].ID
		} else if id, err = q.StepNotification(ctx, dbsqlc.StepNotificationParams{RequestID: lg.RequestID, UserID: lg.UserID, SourceKey: sourceKey}); err != nil {
			return err
		}
		return q.SettleStepLog(ctx, dbsqlc.SettleStepLogParams{ID: lg.ID, Status: delivery.StatusDelivered})
	})
	if err != nil {
		return fromSend(a.retryLater(ctx, lg, db.MapError(err)))
	}
	a.Decided(lg.Channel, delivery.StatusDelivered)
	a.Publisher.Publish(ctx, events.Event{Kind: events.NewNotification, AppID: in.AppID, UserIDs: []int64{lg.UserID}, NotificationIDs: []int64{id}})
	return flowrun.DeliverStepResult{Status: stepSent, NotificationID: id}, nil
}
