// Package runnable owns one fact: which version of a flow a send runs now. Accept (a send
// naming the flow), the delivery pipeline (starting the send's runs) and flow schedules
// (checking their trigger) all ask Lookup, in one query, and tell the same three reasons
// apart: the flow does not exist, is archived, or has no published version.
//
// It is a package of its own below internal/flow so that send and delivery, which the
// architecture keeps from importing the flow store, can import it (docs/architecture.md).
package runnable

import (
	"context"
	"errors"
	"fmt"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Version is the runnable version of a flow and what a send needs to know of it.
type Version struct {
	// FlowID is the flow's row id (versions are keyed by it).
	FlowID int64
	// Number is the published version new sends run.
	Number int32
	// Critical flows are delivered whatever the recipient's opt-outs, and their sends jump
	// the relay's queue.
	Critical bool
	// HasPayloadSchema tells whether the version declares a payload schema (accept reads it
	// once per version).
	HasPayloadSchema bool
}

// Why a flow has no runnable version: the reason an *UnavailableError wraps (errors.Is).
var (
	ErrNotFound     = errors.New("does not exist")
	ErrArchived     = errors.New("is archived")
	ErrNotPublished = errors.New("has no published version")
)

// UnavailableError says that a flow has no runnable version, and why (Reason: ErrNotFound,
// ErrArchived or ErrNotPublished). Its message is `workflow "<identifier>" <reason>`.
type UnavailableError struct {
	Identifier string
	Reason     error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("workflow %q %s", e.Identifier, e.Reason)
}

// Unwrap returns the reason.
func (e *UnavailableError) Unwrap() error { return e.Reason }

// Lookup returns the version of the app's flow that sends run, in one query on the
// (app_id, identifier) unique index (q: a *db.DB's Queries, or a transaction's). A flow
// without one is an *UnavailableError; other errors are the database's (mapped by
// db.MapError).
func Lookup(ctx context.Context, q *dbsqlc.Queries, appID int64, identifier string) (Version, error) {
	row, err := q.FlowPublishedVersion(ctx, dbsqlc.FlowPublishedVersionParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return Version{}, &UnavailableError{Identifier: identifier, Reason: ErrNotFound}
		}
		return Version{}, err
	}
	if row.Archived {
		return Version{}, &UnavailableError{Identifier: identifier, Reason: ErrArchived}
	}
	if row.PublishedVersion == nil {
		return Version{}, &UnavailableError{Identifier: identifier, Reason: ErrNotPublished}
	}
	return Version{FlowID: row.ID, Number: *row.PublishedVersion, Critical: row.Critical, HasPayloadSchema: row.HasPayloadSchema}, nil
}
