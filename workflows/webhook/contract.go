// Package webhook is the workflow that delivers the events of one event webhook endpoint:
// it drains the endpoint's due deliveries in batches (the activity claims, posts and
// records them, internal/webhooks) until none is due, then ends; the relay starts it again
// when more are due. This file is its contract.
package webhook

import (
	"strconv"
	"strings"

	"github.com/heraldhq/herald/workflows/contract"
)

// Registered names (durable: never rename).
const (
	WorkflowName        = "WebhookDeliveries"
	DeliverActivityName = "DeliverWebhooks"
)

// WorkflowID names the delivery workflow of an endpoint: one run at a time per endpoint.
func WorkflowID(endpointID int64) string { return "webhook/" + strconv.FormatInt(endpointID, 10) }

// IsWorkflowID reports whether id names a delivery workflow.
func IsWorkflowID(id string) bool { return strings.HasPrefix(id, "webhook/") }

// Input starts the delivery workflow of an endpoint.
type Input struct {
	EndpointID int64
	AppID      int64
	// TaskQueue is where the delivery activity runs (the webhook kind's queue, so a slow
	// endpoint holds only webhook slots); empty: the workflow's own queue.
	TaskQueue string
}

// Result is what one delivery activity did (internal/webhooks.Result).
type Result struct {
	Attempted int  `json:"attempted"`
	Succeeded int  `json:"succeeded"`
	More      bool `json:"more"`
}

// MaxBatchesPerRun bounds the activities of one run before it continues as new, keeping
// its history small.
const MaxBatchesPerRun = 200

// DeliverWebhooks is the delivery activity, as a typed descriptor (workflows/contract).
var DeliverWebhooks = contract.Define[Input, Result](DeliverActivityName)
