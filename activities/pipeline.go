// Package activities holds the Temporal activities: structs that carry their dependencies
// and whose methods are adapters: each decodes its input, calls one service method (the
// delivery pipeline is internal/delivery/pipeline) and maps its error to Temporal's retry
// semantics.
package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/heraldhq/herald/internal/delivery/pipeline"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/send"
)

// Pipeline delivers send requests: the activities of the send workflow and of a flow's
// channel steps, adapters over the delivery pipeline.
type Pipeline struct {
	*pipeline.Service
}

// NewService builds the delivery pipeline the activities run, telling it about the
// Temporal activity each call runs in.
func NewService(s *pipeline.Service) *pipeline.Service {
	s.Worker = temporalWorker{}
	return s
}

// temporalWorker answers the pipeline's questions about the activity of a call.
type temporalWorker struct{}

// WorkflowID names the run the activity of ctx belongs to.
func (temporalWorker) WorkflowID(ctx context.Context) string { return workflowID(ctx) }

// Stopping reports whether the worker running the activity of ctx is shutting down.
func (temporalWorker) Stopping(ctx context.Context) bool { return workerStopping(ctx) }

// KeepAlive heartbeats for the activity of ctx until stop is called.
func (temporalWorker) KeepAlive(ctx context.Context, beat func(context.Context) []any) (stop func()) {
	return keepAlive(ctx, beat)
}

// DeliverBatch delivers the next slice of recipients of the given requests
// (pipeline.Service.DeliverBatch), heartbeating meanwhile.
func (a *Pipeline) DeliverBatch(ctx context.Context, in send.DeliverInput) (send.DeliverResult, error) {
	defer keepAlive(ctx, nil)()
	res, err := a.Service.DeliverBatch(ctx, in)
	return res, retryable(err)
}

// SendMessage delivers one queued recipient × channel (pipeline.Service.SendMessage).
func (a *Pipeline) SendMessage(ctx context.Context, job send.Job) (send.SendResult, error) {
	res, err := a.Service.SendMessage(ctx, job)
	return res, retryable(err)
}

// SendMessages delivers a batch of queued messages of one channel
// (pipeline.Service.SendMessages).
func (a *Pipeline) SendMessages(ctx context.Context, in send.SendBatchInput) (send.SendBatchResult, error) {
	res, err := a.Service.SendMessages(ctx, in)
	return res, retryable(err)
}

// DeliverStep delivers one channel step of a workflow run to its recipient
// (pipeline.Service.DeliverStep).
func (a *Pipeline) DeliverStep(ctx context.Context, in flowrun.DeliverStepInput) (flowrun.DeliverStepResult, error) {
	res, err := a.Service.DeliverStep(ctx, in)
	return res, retryable(err)
}

// FailRequests records that requests could not be delivered.
func (a *Pipeline) FailRequests(ctx context.Context, in send.FailInput) error {
	return retryable(a.Service.FailRequests(ctx, in))
}

// RecordGiveUps marks failed the messages whose retries ran out.
func (a *Pipeline) RecordGiveUps(ctx context.Context, in send.GiveUpInput) error {
	return retryable(a.Service.RecordGiveUps(ctx, in))
}

// DropHeldMessages records that a cancelled run's held messages will never be sent.
func (a *Pipeline) DropHeldMessages(ctx context.Context, in send.DropHeldInput) error {
	return retryable(a.Service.DropHeldMessages(ctx, in))
}

// workflowID names the run an activity belongs to, for the message log.
func workflowID(ctx context.Context) string {
	if !activity.IsActivity(ctx) {
		return ""
	}
	return activity.GetInfo(ctx).WorkflowExecution.ID
}

// DropHeldStep records that a cancelled run's held step will never be sent.
func (a *Pipeline) DropHeldStep(ctx context.Context, in flowrun.DropHeldStepInput) error {
	return retryable(a.Service.DropHeldStep(ctx, in))
}

// LoadQueuedJobs returns the next queued external messages of a send run's backlog
// (pipeline.Service.LoadQueuedJobs).
func (a *Pipeline) LoadQueuedJobs(ctx context.Context, in send.LoadQueuedInput) (send.LoadQueuedResult, error) {
	res, err := a.Service.LoadQueuedJobs(ctx, in)
	return res, retryable(err)
}

// retryable maps the pipeline's errors to Temporal's retry semantics: a pipeline.Failure
// becomes an application error of its type, not retried when permanent, retried after its
// RetryAfter when set; any other error (the database's) is retried by the activity's policy.
func retryable(err error) error {
	var f *pipeline.Failure
	if err == nil || !errors.As(err, &f) {
		return err
	}
	if f.Permanent {
		return temporal.NewNonRetryableApplicationError(f.Message, f.Type, f.Cause)
	}
	return temporal.NewApplicationErrorWithOptions(f.Message, f.Type, temporal.ApplicationErrorOptions{NextRetryDelay: f.RetryAfter, Cause: f.Cause})
}
