package inbox

import (
	"context"
	"time"
	"unicode/utf8"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/inbox/events"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// Op is what a Change does to one timestamp flag.
type Op int32

// Flag operations; the values are those the ChangeInboxItem query takes.
const (
	Keep  Op = 0
	Set   Op = 1 // set to now unless already set (marking twice keeps the first time)
	Clear Op = -1
)

// Change is a change of one notification's flags.
type Change struct {
	Seen, Read, Clicked Op
	// State, when non-nil, replaces the free-form state.
	State *string
}

// The changes behind the single-item routes (docs/decisions.md#inbox-states).
var (
	MarkSeen   = Change{Seen: Set}                   // POST /{id}/views, GET /{id}
	MarkUnseen = Change{Seen: Clear}                 // DELETE /{id}/views
	MarkRead   = Change{Read: Set}                   // POST /{id}/reads
	MarkUnread = Change{Read: Clear, Clicked: Clear} // DELETE /{id}/reads
	Click      = Change{Clicked: Set, Read: Set}     // POST /{id}/click
)

// ParseStateChange reads the change of PUT /{id}/state from its body {state}: it sets
// state, and the states seen, read and clicked also set the matching timestamp.
func ParseStateChange(body []byte) (Change, error) {
	f := js.Fields(body)
	if f == nil {
		return Change{}, herald.Invalid("body must be a JSON object")
	}
	state, ok := js.String(f["state"])
	var p herald.Problems
	switch {
	case !ok:
		p.Addf("state must be a string")
	case state == "":
		p.Addf("state should not be empty")
	case utf8.RuneCountInString(state) > MaxStateLength:
		p.Addf("state must be at most %d characters", MaxStateLength)
	}
	if err := p.Err(); err != nil {
		return Change{}, err
	}
	c := Change{State: &state}
	switch state {
	case "seen":
		c.Seen = Set
	case "read":
		c.Read = Set
	case "clicked":
		c.Clicked = Set
	}
	return c, nil
}

// before are a notification's flags before a change.
type before struct {
	seenAt, readAt, clickedAt *time.Time
	state                     *string
}

// effects names the events a change causes given the flags before it, mirroring the
// conditions under which ChangeInboxItem writes: nothing for a change that changes
// nothing, so each transition is announced exactly once however often it is requested.
func (c Change) effects(b before) []string {
	var kinds []string
	if c.Seen == Set && b.seenAt == nil {
		kinds = append(kinds, events.NotificationSeen)
	}
	if c.Read == Set && b.readAt == nil {
		kinds = append(kinds, events.NotificationRead)
	}
	if (c.Seen == Clear && b.seenAt != nil) || (c.Read == Clear && b.readAt != nil) ||
		(c.Clicked == Set && b.clickedAt == nil) || (c.Clicked == Clear && b.clickedAt != nil) ||
		(c.State != nil && (b.state == nil || *b.state != *c.State)) {
		kinds = append(kinds, events.NotificationInteracted)
	}
	return kinds
}

// Apply changes one notification of a user's inbox and returns it as it is afterwards. A
// notification that is not in this user's inbox (another user's, another app's, deleted)
// is not found.
func (s *Service) Apply(ctx context.Context, appID int64, userIdentifier string, id int64, c Change) (Notification, error) {
	uid, ok, err := s.userID(ctx, appID, userIdentifier)
	if err != nil {
		return Notification{}, err
	}
	if !ok {
		return Notification{}, herald.NotFound("notification")
	}
	params := dbsqlc.ChangeInboxItemParams{
		ID: id, AppID: appID, UserID: uid, Seen: int32(c.Seen), Read: int32(c.Read), Clicked: int32(c.Clicked),
	}
	if c.State != nil {
		params.SetState, params.State = true, *c.State
	}
	row, err := s.db.ChangeInboxItem(ctx, params)
	if err != nil {
		return Notification{}, notFoundAs(err, "notification")
	}
	for _, kind := range c.effects(before{seenAt: row.SeenAt, readAt: row.ReadAt, clickedAt: row.ClickedAt, state: row.State}) {
		s.publish(ctx, kind, appID, uid, []int64{id})
	}
	items, err := s.load(ctx, appID, uid, []int64{id})
	if err != nil {
		return Notification{}, err
	}
	if len(items) == 0 { // deleted by a concurrent request since the change
		return Notification{}, herald.NotFound("notification")
	}
	return items[0], nil
}

// Get returns one notification of the user's inbox and marks it seen.
func (s *Service) Get(ctx context.Context, appID int64, userIdentifier string, id int64) (Notification, error) {
	return s.Apply(ctx, appID, userIdentifier, id, MarkSeen)
}

// Delete removes a notification from the user's inbox. Deleting it again succeeds and
// changes nothing.
func (s *Service) Delete(ctx context.Context, appID int64, userIdentifier string, id int64) error {
	uid, ok, err := s.userID(ctx, appID, userIdentifier)
	if err != nil {
		return err
	}
	if !ok {
		return herald.NotFound("notification")
	}
	row, err := s.db.DeleteInboxItem(ctx, dbsqlc.DeleteInboxItemParams{ID: id, AppID: appID, UserID: uid})
	if err != nil {
		return notFoundAs(err, "notification")
	}
	if row.DeletedAt == nil {
		s.publish(ctx, events.NotificationDeleted, appID, uid, []int64{id})
	}
	return nil
}

// notFoundAs maps a database error, naming what was not found.
func notFoundAs(err error, what string) error {
	err = db.MapError(err)
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		return herald.NotFound(what)
	}
	return err
}
