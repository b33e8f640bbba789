package erasure

import (
	"context"
	"errors"
	"fmt"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// Histories removes the Temporal runs that carried a user, so their histories (inputs,
// activity results, rendered messages) do not outlive the erasure. Payloads are encrypted
// (internal/platform/temporalcodec) but with the installation's key, which decrypts
// everyone's; deleting the history is what makes the user's part unreadable.
type Histories struct {
	Client    client.Client
	Namespace string
}

// HistoryCounts is what Remove did.
type HistoryCounts struct {
	// Deleted counts runs (executions) deleted; Kept counts runs still running that carry
	// other recipients too, left to finish (their payloads are encrypted, and Temporal
	// drops their histories after the namespace's retention period).
	Deleted, Kept int
}

// Remove deletes every run of the user's own workflow ids (terminating those still
// running: they serve nobody else) and every closed run of the shared ones. Runs that are
// gone already are skipped, so a repeat after a partial failure finishes the job.
func (h *Histories) Remove(ctx context.Context, own, shared []string) (HistoryCounts, error) {
	var out HistoryCounts
	done := map[string]bool{}
	for _, group := range []struct {
		ids []string
		own bool
	}{{own, true}, {shared, false}} {
		for _, id := range group.ids {
			if id == "" || done[id] {
				continue
			}
			done[id] = true
			runs, err := h.runs(ctx, id)
			if err != nil {
				return out, err
			}
			for _, r := range runs {
				if !group.own && r.running {
					out.Kept++
					continue
				}
				_, err := h.Client.WorkflowService().DeleteWorkflowExecution(ctx, &workflowservice.DeleteWorkflowExecutionRequest{
					Namespace: h.Namespace, WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: id, RunId: r.runID},
				})
				var nf *serviceerror.NotFound
				switch {
				case err == nil:
					out.Deleted++
				case errors.As(err, &nf):
				default:
					return out, fmt.Errorf("delete workflow run %s/%s: %w", id, r.runID, err)
				}
			}
		}
	}
	return out, nil
}

type run struct {
	runID   string
	running bool
}

// runs lists the runs of a workflow id: the latest (described, which never lags) and the
// earlier ones of a continue-as-new chain (from visibility).
func (h *Histories) runs(ctx context.Context, id string) ([]run, error) {
	var out []run
	seen := map[string]bool{}
	d, err := h.Client.DescribeWorkflowExecution(ctx, id, "")
	var nf *serviceerror.NotFound
	switch {
	case errors.As(err, &nf):
	case err != nil:
		return nil, fmt.Errorf("describe workflow %s: %w", id, err)
	default:
		info := d.GetWorkflowExecutionInfo()
		r := run{runID: info.GetExecution().GetRunId(), running: info.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING}
		out = append(out, r)
		seen[r.runID] = true
	}
	if strings.ContainsAny(id, `'"\`) {
		return out, nil // not expressible in a visibility query; the latest run is handled
	}
	var token []byte
	for {
		res, err := h.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: h.Namespace, Query: "WorkflowId = '" + id + "'", NextPageToken: token,
		})
		if err != nil {
			return nil, fmt.Errorf("list runs of workflow %s: %w", id, err)
		}
		for _, e := range res.GetExecutions() {
			if rid := e.GetExecution().GetRunId(); !seen[rid] {
				seen[rid] = true
				out = append(out, run{runID: rid, running: e.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING})
			}
		}
		if token = res.GetNextPageToken(); len(token) == 0 {
			return out, nil
		}
	}
}

// RecipientRuns finds, through Temporal's visibility, the runs whose recipient search
// attribute (HeraldRecipient) is the user: its flow runs and the digest collectors its runs
// started (a collector delivers to the recipient of the run that started it, so it is the
// user's own too), including runs the database no longer lists. An identifier that cannot
// be quoted in a query finds nothing.
func (h *Histories) RecipientRuns(ctx context.Context, appID int64, identifier string) (own []string, err error) {
	if strings.ContainsAny(identifier, `'"\`) {
		return nil, nil
	}
	query := fmt.Sprintf("HeraldAppId = '%d' AND HeraldRecipient = '%s'", appID, identifier)
	var token []byte
	for {
		res, err := h.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: h.Namespace, Query: query, NextPageToken: token})
		if err != nil {
			return own, fmt.Errorf("list the user's runs: %w", err)
		}
		for _, e := range res.GetExecutions() {
			own = append(own, e.GetExecution().GetWorkflowId())
		}
		if token = res.GetNextPageToken(); len(token) == 0 {
			return own, nil
		}
	}
}
