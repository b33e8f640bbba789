// Package erasure removes everything Herald holds about one user of an app (a request to be
// forgotten): profile, inbox, preferences, devices, topic subscriptions, message and flow
// logs, the user's entry in stored send requests, its pending runs and the Temporal
// histories that carried it. The answer counts what went; an audit entry records the
// erasure without the data.
package erasure

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"strconv"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/workflows/schedule"
)

// Report counts what an erasure removed, per kind.
type Report struct {
	Profile            int64 `json:"profile"`
	Notifications      int64 `json:"notifications"`
	Preferences        int64 `json:"preferences"`
	Devices            int64 `json:"devices"`
	TopicSubscriptions int64 `json:"topicSubscriptions"`
	MessageLogs        int64 `json:"messageLogs"`
	FlowLogs           int64 `json:"flowLogs"`
	FlowRuns           int64 `json:"flowRuns"`
	// RunsCancelled counts the user's runs that were still running and were stopped.
	RunsCancelled int64 `json:"runsCancelled"`
	// RequestsRedacted counts stored send requests the user was taken out of;
	// ScheduledCancelled the scheduled sends left without recipients and cancelled.
	RequestsRedacted   int64 `json:"requestsRedacted"`
	ScheduledCancelled int64 `json:"scheduledCancelled"`
	// OthersRedacted counts other users' inbox, message log and workflow log rows (of the sends that
	// reached the user) whose content named the user and was redacted.
	OthersRedacted  int64 `json:"othersRedacted"`
	ThrottleWindows int64 `json:"throttleWindows"`
	// WorkflowHistoriesDeleted counts Temporal runs deleted; WorkflowHistoriesKept runs that
	// carry other recipients too and are still running (encrypted; dropped by Temporal
	// after the namespace retention).
	WorkflowHistoriesDeleted int64 `json:"workflowHistoriesDeleted"`
	WorkflowHistoriesKept    int64 `json:"workflowHistoriesKept"`
	// WebhookDeliveries counts the event webhook deliveries about the user (pending ones
	// are not sent).
	WebhookDeliveries int64 `json:"webhookDeliveries"`
}

// Actor says who asked for an erasure, for the audit entry.
type Actor struct {
	// ConsoleUserID is the console user who acted (0: a backend with app credentials).
	ConsoleUserID, ViaTokenID int64
	// Via names the surface: "developerApi" or "console".
	Via string
}

// Service erases users.
type Service struct {
	db        *db.DB
	histories *Histories
	audit     *audit.Log
	log       *slog.Logger
}

// NewService returns a Service; histories may be nil (no Temporal: nothing to delete there).
func NewService(d *db.DB, histories *Histories, log *audit.Log, l *slog.Logger) *Service {
	return &Service{db: d, histories: histories, audit: log, log: l}
}

// Erase removes the app's user named by identifier and everything about it. It is safe to
// repeat: the steps that touch Temporal come first and skip what is gone, and the database
// part is one transaction, so a failure leaves the user in place for the next attempt. A
// user that does not exist (or no longer does) is not found.
func (s *Service) Erase(ctx context.Context, appID int64, identifier string, by Actor) (Report, error) {
	var rep Report
	u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return rep, herald.NotFound("user")
		}
		return rep, err
	}
	needles := Needles(identifier, u.Profile)
	patterns := LikePatterns(needles)

	// 0. Read what names the user, and refuse while a send that lists it inline is being
	// delivered: it pages through its recipients by position, so taking an entry out now
	// would make it skip someone else (and it would create the user again when it reached
	// the entry). Nothing has changed yet; the caller retries when the send has completed.
	requestIDs, err := s.db.UserRequestIDs(ctx, dbsqlc.UserRequestIDsParams{AppID: appID, UserID: u.ID, Identifier: identifier})
	if err != nil {
		return rep, db.MapError(err)
	}
	requests, err := s.db.RequestsNamingUser(ctx, dbsqlc.RequestsNamingUserParams{AppID: appID, RequestIds: requestIDs,
		Patterns: append(patterns, RecipientPattern(identifier))})
	if err != nil {
		return rep, db.MapError(err)
	}
	redacted := make([]RedactedRequest, len(requests))
	for i, r := range requests {
		if redacted[i], err = RedactRequest(r.Payload, identifier, needles); err != nil {
			return rep, herald.Errorf(herald.EINTERNAL, "request %s has an unreadable payload: %v", r.ID, err)
		}
		if redacted[i].RemovedRecipient && r.Status == "started" {
			return rep, herald.Errorf(herald.ECONFLICT, "send %s to this user is being delivered; erase the user once it has completed", r.ID)
		}
	}

	// 1. Stop the user's runs: marked cancelled first (a run not started yet sees the mark),
	// then their executions deleted with the histories of the runs that carried the user.
	cancelled, err := s.db.CancelUserFlowRuns(ctx, dbsqlc.CancelUserFlowRunsParams{AppID: appID, Identifier: identifier})
	if err != nil {
		return rep, db.MapError(err)
	}
	rep.RunsCancelled = int64(len(cancelled))
	own, err := s.db.UserFlowRunWorkflowIDs(ctx, dbsqlc.UserFlowRunWorkflowIDsParams{AppID: appID, Identifier: identifier})
	if err != nil {
		return rep, db.MapError(err)
	}
	shared, err := s.db.UserSharedWorkflowIDs(ctx, dbsqlc.UserSharedWorkflowIDsParams{AppID: appID, RequestIds: requestIDs, UserID: u.ID})
	if err != nil {
		return rep, db.MapError(err)
	}
	// Redact the requests now (outside the final transaction is fine: redacting twice is a
	// no-op), so a scheduled send left empty is cancelled before its wait is deleted.
	var emptied []uuid.UUID
	for i, r := range requests {
		red := redacted[i]
		if red.Changed {
			if err := s.db.SetRequestPayload(ctx, dbsqlc.SetRequestPayloadParams{AppID: appID, ID: r.ID, Payload: red.Payload, RecipientCount: int32(red.Recipients)}); err != nil {
				return rep, db.MapError(err)
			}
			rep.RequestsRedacted++
		}
		if r.ScheduledStatus == nil {
			continue
		}
		// Every scheduled request that reached the user has its wait's history deleted once
		// closed; one left without recipients is cancelled and its wait deleted now.
		shared = append(shared, schedule.WorkflowID(r.ID))
		if red.Recipients == 0 && red.Topics == 0 {
			n, err := s.db.CancelScheduledRequest(ctx, dbsqlc.CancelScheduledRequestParams{AppID: appID, RequestID: r.ID})
			if err != nil {
				return rep, db.MapError(err)
			}
			rep.ScheduledCancelled += n
			emptied = append(emptied, r.ID)
		}
	}
	for _, id := range emptied {
		own = append(own, schedule.WorkflowID(id))
	}
	if s.histories != nil && len(own)+len(shared) > 0 {
		// Runs the database does not name (digest collectors the user's runs started):
		// best effort (a namespace without Herald's search attributes answers an error, and
		// the runs the database names still go). A user the database names no run of never
		// reached Temporal, and nothing is asked of it.
		if vo, err := s.histories.RecipientRuns(ctx, appID, identifier); err != nil {
			s.log.Warn("erasure: the user's runs not listed from Temporal visibility", "appId", appID, "error", err)
		} else {
			own = append(own, vo...)
		}
		hc, err := s.histories.Remove(ctx, own, shared)
		if err != nil {
			s.log.Warn("erasure: Temporal histories not removed; the user is kept for a retry", "appId", appID, "error", err)
			return rep, herald.Errorf(herald.EUNAVAILABLE, "the workflow service did not answer; nothing about the user was deleted yet, retry the erasure")
		}
		rep.WorkflowHistoriesDeleted, rep.WorkflowHistoriesKept = int64(hc.Deleted), int64(hc.Kept)
	}

	// 2. The database, in one transaction with the audit entry.
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		locked, err := q.LockAppUser(ctx, dbsqlc.LockAppUserParams{AppID: appID, Identifier: identifier})
		if err != nil {
			return db.MapError(err)
		}
		c, err := q.CountUserData(ctx, dbsqlc.CountUserDataParams{AppID: appID, UserID: locked.ID})
		if err != nil {
			return db.MapError(err)
		}
		rep.Notifications, rep.MessageLogs, rep.Preferences, rep.Devices, rep.TopicSubscriptions =
			c.Notifications, c.MessageLogs, c.Preferences, c.Devices, c.TopicSubscriptions
		if rep.FlowLogs, err = q.DeleteUserFlowLogs(ctx, dbsqlc.DeleteUserFlowLogsParams{AppID: appID, Identifier: identifier}); err != nil {
			return db.MapError(err)
		}
		if rep.FlowRuns, err = q.DeleteUserFlowRuns(ctx, dbsqlc.DeleteUserFlowRunsParams{AppID: appID, Identifier: identifier}); err != nil {
			return db.MapError(err)
		}
		if len(patterns) > 0 {
			if rep.ThrottleWindows, err = q.DeleteThrottlesMentioning(ctx, dbsqlc.DeleteThrottlesMentioningParams{AppID: appID, Patterns: patterns}); err != nil {
				return db.MapError(err)
			}
		}
		if len(patterns) > 0 && len(requestIDs) > 0 {
			if rep.OthersRedacted, err = redactOthers(ctx, q, appID, locked.ID, identifier, requestIDs, needles, patterns); err != nil {
				return err
			}
		}
		if rep.Profile, err = q.DeleteAppUserByID(ctx, dbsqlc.DeleteAppUserByIDParams{AppID: appID, UserID: locked.ID}); err != nil {
			return db.MapError(err)
		}
		// After the user's rows are gone: their deletion may itself have recorded events.
		if rep.WebhookDeliveries, err = q.DeleteUserWebhookDeliveries(ctx, dbsqlc.DeleteUserWebhookDeliveriesParams{AppID: appID, Identifier: identifier}); err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, appID, identifier, by, rep)
	})
	if err != nil {
		if herald.ErrorCode(err) == herald.ENOTFOUND {
			return Report{}, herald.NotFound("user") // erased by a concurrent request
		}
		return Report{}, err
	}
	return rep, nil
}

// redactOthers replaces the user's identifying strings in other users' inbox, message log
// (with the content a workflow step rendered) and workflow log rows (the input a step saw,
// the values a branch compared) of the sends that reached it (a message to a team that
// names a member).
func redactOthers(ctx context.Context, q *dbsqlc.Queries, appID, userID int64, identifier string, requestIDs []uuid.UUID, needles, patterns []string) (int64, error) {
	var n int64
	items, err := q.OthersNotificationsMentioning(ctx, dbsqlc.OthersNotificationsMentioningParams{AppID: appID, RequestIds: requestIDs, UserID: userID, Patterns: patterns})
	if err != nil {
		return 0, db.MapError(err)
	}
	for _, it := range items {
		err := q.SetNotificationContent(ctx, dbsqlc.SetNotificationContentParams{AppID: appID, ID: it.ID,
			Title: RedactText(it.Title, needles), Message: RedactText(it.Message, needles), Icon: RedactText(it.Icon, needles),
			Url: RedactText(it.Url, needles), Data: RedactJSON(it.Data, needles), Blocks: RedactJSON(it.Blocks, needles)})
		if err != nil {
			return 0, db.MapError(err)
		}
		n++
	}
	logs, err := q.OthersMessageLogsMentioning(ctx, dbsqlc.OthersMessageLogsMentioningParams{AppID: appID, RequestIds: requestIDs, UserID: userID, Patterns: patterns})
	if err != nil {
		return 0, db.MapError(err)
	}
	for _, l := range logs {
		err := q.SetMessageLogTexts(ctx, dbsqlc.SetMessageLogTextsParams{AppID: appID, ID: l.ID,
			Reason: redactPtr(l.Reason, needles), Error: redactPtr(l.Error, needles), ProviderResponse: redactPtr(l.ProviderResponse, needles)})
		if err != nil {
			return 0, db.MapError(err)
		}
		n++
	}
	contents, err := q.OthersMessageContentsMentioning(ctx, dbsqlc.OthersMessageContentsMentioningParams{AppID: appID, RequestIds: requestIDs, UserID: userID, Patterns: patterns})
	if err != nil {
		return 0, db.MapError(err)
	}
	for _, c := range contents {
		if err := q.SetMessageContent(ctx, dbsqlc.SetMessageContentParams{AppID: appID, MessageLogID: c.MessageLogID, Content: RedactJSON(c.Content, needles)}); err != nil {
			return 0, db.MapError(err)
		}
		n++
	}
	ids := make([]string, len(requestIDs))
	for i, id := range requestIDs {
		ids[i] = id.String()
	}
	steps, err := q.OthersFlowLogsMentioning(ctx, dbsqlc.OthersFlowLogsMentioningParams{AppID: appID, RequestIds: ids, Identifier: identifier, Patterns: patterns})
	if err != nil {
		return 0, db.MapError(err)
	}
	for _, l := range steps {
		err := q.SetFlowLogDetails(ctx, dbsqlc.SetFlowLogDetailsParams{AppID: appID, ID: l.ID,
			Detail: RedactText(l.Detail, needles), Input: redactRaw(l.Input, needles), Evaluation: redactRaw(l.Evaluation, needles)})
		if err != nil {
			return 0, db.MapError(err)
		}
		n++
	}
	return n, nil
}

// redactRaw is RedactJSON of a nullable column (nil stays nil).
func redactRaw(raw json.RawMessage, needles []string) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return RedactJSON(raw, needles)
}

// record writes the audit entry of an erasure: the app, who asked and the counts, and in
// place of the identifier a digest of it (an operator asked whether someone was erased can
// compare digests; nobody can read the identifier back).
func (s *Service) record(ctx context.Context, q *dbsqlc.Queries, appID int64, identifier string, by Actor, rep Report) error {
	if s.audit == nil {
		return nil
	}
	clientID, err := q.AppClientID(ctx, appID)
	if err != nil {
		return db.MapError(err)
	}
	var cid int64
	if clientID != nil {
		cid = *clientID
	}
	return s.audit.Client(ctx, q, cid, audit.Event{
		Action: audit.AppUserErased, ActorID: by.ConsoleUserID, ViaTokenID: by.ViaTokenID,
		TargetType: audit.TargetAppUser, TargetID: UserDigest(appID, identifier), TargetLabel: "app " + strconv.FormatInt(appID, 10),
		Details: map[string]any{"appId": appID, "via": by.Via, "erased": rep},
	})
}

// UserDigest stands for an app's user in audit entries: the hex SHA-256 of
// "<appId>:<identifier>".
func UserDigest(appID int64, identifier string) string {
	sum := sha256.Sum256([]byte(strconv.FormatInt(appID, 10) + ":" + identifier))
	return "sha256:" + hex.EncodeToString(sum[:])
}
