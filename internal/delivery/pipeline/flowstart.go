package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/flow/runnable"
	"github.com/heraldhq/herald/workflows/flowrun"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// ChannelWorkflow is the message log channel of a recipient's row when the send's
// workflow could not run for them.
const ChannelWorkflow = "workflow"

// deliverFlowRequest hands the next recipients of a send naming a user-defined workflow to
// runs of it, up to budget recipients. The first slice pins the published version in the
// cursor, so every recipient runs the same one. Each page registers its runs in flow_runs
// (with the cancellation key) in the transaction that records progress, and returns them
// for the send workflow to start. When the workflow or its published version is missing,
// every recipient gets a failed message log row saying so and the request fails.
func (a *Service) deliverFlowRequest(ctx context.Context, call *batchCall, appID int64, requestID uuid.UUID, req *herald.SendRequest, c sendwf.Cursor, budget int, res *sendwf.DeliverResult) (sendwf.Cursor, int, bool, error) {
	ref := req.Notification.Flow
	unavailable := ""
	if c.FlowVersion == 0 || c.FlowVersion == sendwf.FlowUnavailable {
		v, why, err := a.publishedVersion(ctx, appID, ref.Identifier)
		if err != nil {
			return c, 0, false, err
		}
		if c.FlowVersion == sendwf.FlowUnavailable && why == "" {
			v, why = sendwf.FlowUnavailable, fmt.Sprintf("workflow %q had no published version when this send began", ref.Identifier)
		}
		c.FlowVersion, unavailable = v, why
	}
	sc := &sendContext{appID: appID, requestID: requestID, workflowID: call.workflowID, req: req, topics: map[string]int64{}}
	used := 0
	for used < budget {
		page, next, done, err := a.nextPage(ctx, sc, c, budget-used)
		if err != nil {
			return c, used, false, err
		}
		next.FlowVersion = c.FlowVersion
		if unavailable != "" {
			err = a.failFlowPage(ctx, sc, page, done, unavailable)
		} else {
			err = a.registerRuns(ctx, sc, page, done, c.FlowVersion, res)
		}
		if err != nil {
			return c, used, false, err
		}
		used += max(len(page), 1)
		c = next
		if done {
			return c, used, true, nil
		}
	}
	return c, used, false, nil
}

// publishedVersion returns the version a send runs, or FlowUnavailable and why not.
func (a *Service) publishedVersion(ctx context.Context, appID int64, identifier string) (int32, string, error) {
	v, err := runnable.Lookup(ctx, a.DB.Queries, appID, identifier)
	var un *runnable.UnavailableError
	switch {
	case errors.As(err, &un):
		return sendwf.FlowUnavailable, un.Error(), nil
	case err != nil:
		return 0, "", err
	}
	return v.Number, "", nil
}

// registerRuns records the runs of a page and queues them for the send workflow.
func (a *Service) registerRuns(ctx context.Context, sc *sendContext, page []recipient, done bool, version int32, res *sendwf.DeliverResult) error {
	ref := sc.req.Notification.Flow
	params := dbsqlc.RegisterFlowRunsParams{AppID: sc.appID, RequestID: sc.requestID, FlowIdentifier: ref.Identifier}
	if ref.CancellationKey != "" {
		params.CancellationKey = &ref.CancellationKey
	}
	runs := make([]flowrun.RunInput, len(page))
	for i, r := range page {
		runs[i] = flowrun.RunInput{
			AppID: sc.appID, RequestID: sc.requestID.String(), Flow: flowrun.Ref{Identifier: ref.Identifier, Version: int(version)},
			CancellationKey: ref.CancellationKey, Recipient: flowrun.Recipient{UserID: r.userID, Identifier: r.identifier, Channels: r.topicChannels},
		}
		params.UserIdentifiers = append(params.UserIdentifiers, r.identifier)
		params.WorkflowIds = append(params.WorkflowIds, flowrun.WorkflowID(ref.Identifier, runs[i].RequestID, r.identifier))
	}
	err := a.DB.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		if len(page) > 0 {
			if err := q.RegisterFlowRuns(ctx, params); err != nil {
				return err
			}
		}
		return q.RecordDelivered(ctx, dbsqlc.RecordDeliveredParams{ID: sc.requestID, Delivered: int32(len(page)), Done: done})
	})
	if err != nil {
		return db.MapError(err)
	}
	res.Runs = append(res.Runs, runs...)
	res.Delivered += len(page)
	return nil
}

// failFlowPage records, for each recipient of a page, that the send's workflow cannot run,
// and fails the request with the page that ends it.
func (a *Service) failFlowPage(ctx context.Context, sc *sendContext, page []recipient, done bool, why string) error {
	w := &pageWrites{}
	for _, r := range page {
		w.log(r, ChannelWorkflow, delivery.StatusFailed, "", why)
	}
	w.logs.AppID, w.logs.RequestID, w.logs.WorkflowID = sc.appID, sc.requestID, sc.workflowID
	err := a.DB.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		if len(page) > 0 {
			if _, err := q.InsertMessageLogs(ctx, w.logs); err != nil {
				return err
			}
		}
		if done {
			return q.FailRequest(ctx, dbsqlc.FailRequestParams{ID: sc.requestID, Error: &why})
		}
		return nil
	})
	return db.MapError(err)
}
