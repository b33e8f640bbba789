package herald

import (
	"context"
	"net/http"
	"strconv"
)

// SendOption adjusts one send.
type SendOption func(*sendOptions)

type sendOptions struct{ key string }

// WithIdempotencyKey sets the send's Idempotency-Key: the same key and body within 24 h
// answer the same requestId (a different body is a 422). Without it the client generates
// one per Send call, shared by that call's retries.
func WithIdempotencyKey(key string) SendOption { return func(o *sendOptions) { o.key = key } }

// Recipients turns user identifiers into the recipients of SendRequestSendTo.
func Recipients(identifiers ...string) []any {
	out := make([]any, len(identifiers))
	for i, id := range identifiers {
		out[i] = id
	}
	return out
}

// Recipient is a recipient given inline: the user is created or updated with these
// fields (and any in Profile) before the send.
type Recipient struct {
	// Identifier is the user's identifier (required).
	Identifier string
	// Email and PhoneNumber update the user's profile when set.
	Email, PhoneNumber string
	// Profile holds further profile fields.
	Profile map[string]any
}

// MarshalJSON writes the recipient object of the send request.
func (r Recipient) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(r.Profile)+3)
	for k, v := range r.Profile {
		m[k] = v
	}
	m["identifier"] = r.Identifier
	if r.Email != "" {
		m["email"] = r.Email
	}
	if r.PhoneNumber != "" {
		m["phoneNumber"] = r.PhoneNumber
	}
	return marshalMap(m)
}

// Send sends a notification (POST /v3/notifications) and returns its request id. The
// request carries an Idempotency-Key, so it is retried on timeouts, connection errors,
// 429 and 5xx without risk of a second delivery.
func (c *Client) Send(ctx context.Context, req SendRequest, opts ...SendOption) (*SendAccepted, error) {
	o := sendOptions{}
	for _, f := range opts {
		f(&o)
	}
	if o.key == "" {
		o.key = c.newKey()
	}
	h := c.appHeaders()
	h.Set("Idempotency-Key", o.key)
	var out SendAccepted
	err := c.do(ctx, request{method: http.MethodPost, path: "/notifications", body: req, header: h, idempotent: true}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// CancelWorkflowRuns cancels the runs of sends made with notification.workflow.cancellationKey
// (POST /v3/workflows/cancel).
func (c *Client) CancelWorkflowRuns(ctx context.Context, req WorkflowCancel) (*WorkflowCancellation, error) {
	var out WorkflowCancellation
	err := c.do(ctx, request{method: http.MethodPost, path: "/workflows/cancel", body: req, header: c.appHeaders(), idempotent: true}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateSchedule creates a recurring workflow trigger (POST /v3/workflows/schedules).
func (c *Client) CreateSchedule(ctx context.Context, req WorkflowScheduleCreate) (*WorkflowSchedule, error) {
	var out WorkflowSchedule
	if err := c.do(ctx, request{method: http.MethodPost, path: "/workflows/schedules", body: req, header: c.appHeaders()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListSchedules lists the app's recurring workflow triggers (GET /v3/workflows/schedules).
func (c *Client) ListSchedules(ctx context.Context) ([]WorkflowSchedule, error) {
	var out []WorkflowSchedule
	if err := c.do(ctx, request{method: http.MethodGet, path: "/workflows/schedules", header: c.appHeaders()}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteSchedule deletes a recurring workflow trigger (DELETE /v3/workflows/schedules/{id}).
func (c *Client) DeleteSchedule(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "/workflows/schedules/" + strconv.FormatInt(id, 10), header: c.appHeaders()}, nil)
}
