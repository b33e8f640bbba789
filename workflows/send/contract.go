// Package send is the workflow that delivers accepted send requests. This file is its
// contract: names, IDs and inputs shared with the relay that starts it and with the
// activities it runs.
package send

import (
	"strings"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/workflows/flowrun"
)

// WorkflowName is the registered name of the send workflow.
const WorkflowName = "Send"

// DeliverActivityName delivers a bounded slice of recipients of one or more requests.
const DeliverActivityName = "DeliverBatch"

// FailActivityName marks requests failed when delivery cannot go on.
const FailActivityName = "FailRequests"

// SendActivityName delivers one recipient × channel through the channel's providers.
const SendActivityName = "SendMessage"

// GiveUpActivityName records the messages whose retries ran out.
const GiveUpActivityName = "RecordGiveUps"

// WorkflowID names the run that carries a group of requests: send/<id> for one request,
// sends/<first id> for a pack of several (docs/delivery.md).
func WorkflowID(requestIDs []uuid.UUID) string {
	if len(requestIDs) == 1 {
		return "send/" + requestIDs[0].String()
	}
	return "sends/" + requestIDs[0].String()
}

// IsSendWorkflowID reports whether id names a send workflow.
func IsSendWorkflowID(id string) bool {
	return strings.HasPrefix(id, "send/") || strings.HasPrefix(id, "sends/")
}

// Input starts (or continues) a send run.
type Input struct {
	// Cursors are the requests still to deliver and where each stands.
	Cursors []Cursor
	// Jobs are external deliveries decided by an earlier run and not started yet.
	Jobs []Job `json:",omitempty"`
	// Runs are runs of user-defined workflows decided by an earlier run and not started yet.
	Runs []flowrun.RunInput `json:",omitempty"`
}

// NewInput starts every request at its first recipient.
func NewInput(requestIDs []uuid.UUID) Input {
	in := Input{Cursors: make([]Cursor, len(requestIDs))}
	for i, id := range requestIDs {
		in.Cursors[i] = Cursor{RequestID: id}
	}
	return in
}

// Cursor is one request's progress through its recipients: first the inline recipients,
// then the members of each topic in turn, paged by user id so a topic of millions is read
// with bounded memory and history.
type Cursor struct {
	RequestID uuid.UUID
	// Offset is the number of inline recipients already delivered.
	Offset int
	// Topic is the index in the request's topics of the topic being paged; it counts only
	// once the inline recipients are done.
	Topic int `json:",omitempty"`
	// AfterUser is the last user id delivered in that topic (keyset paging).
	AfterUser int64 `json:",omitempty"`
	// FlowVersion is the version of the user-defined workflow a send naming one runs,
	// pinned by its first slice so every recipient runs the same version; FlowUnavailable
	// when the workflow or its published version is missing (the send fails).
	FlowVersion int32 `json:",omitempty"`
}

// FlowUnavailable marks a send whose workflow cannot run.
const FlowUnavailable = -1

// DeliverInput asks for the next slice of work of some requests.
type DeliverInput struct {
	Cursors []Cursor
}

// DeliverResult tells the workflow what is left. Requests that completed or failed are not
// in Pending.
type DeliverResult struct {
	Pending   []Cursor
	Delivered int
	// Jobs are the external deliveries of the slice, queued in the message log.
	Jobs []Job `json:",omitempty"`
	// Runs are the runs of user-defined workflows to start for the slice's recipients of
	// sends naming a workflow (small inputs: each run loads its definition and data).
	Runs []flowrun.RunInput `json:",omitempty"`
}

// Job is one external delivery: a queued message log row (recipient × channel). The
// activity loads everything else from it, so jobs stay small in workflow history.
type Job struct {
	LogID   int64
	Channel string
}

// SendResult is what a delivered job reports.
type SendResult struct {
	// Status is the message log status after the attempt: sent, or the status a previous
	// attempt already reached.
	Status   string
	Provider string `json:",omitempty"`
}

// GiveUpInput names the jobs whose retries ran out, with the last error seen.
type GiveUpInput struct {
	LogIDs []int64
	Reason string
}

// FailInput names requests to mark failed and why.
type FailInput struct {
	RequestIDs []uuid.UUID
	Reason     string
}
