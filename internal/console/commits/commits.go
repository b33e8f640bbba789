package commits

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/channels"
)

// MaxMessageLength caps a commit message.
const MaxMessageLength = 500

// Service records commits and publishes them.
type Service struct {
	db       *db.DB
	channels *channels.Service
}

// NewService returns a Service; channels checks published provider configurations.
func NewService(d *db.DB, ch *channels.Service) *Service {
	return &Service{db: d, channels: ch}
}

// Commit is a recorded snapshot as the management API shows it (without the snapshot).
type Commit struct {
	ID      int64    `json:"id"`
	AppID   int64    `json:"appId"`
	Message string   `json:"message"`
	Changes []Change `json:"changes"`
	// CreatedBy is the console user who committed (null once that account is gone).
	CreatedBy      *int64        `json:"createdBy"`
	CreatedByEmail string        `json:"createdByEmail,omitempty"`
	CreatedAt      time.Time     `json:"createdAt"`
	Publications   []Publication `json:"publications"`
}

// Publication is one time a commit was published.
type Publication struct {
	AppID       int64     `json:"appId"`
	AppName     string    `json:"appName"`
	PublishedAt time.Time `json:"publishedAt"`
}

// Pagination describes a page of a list.
type Pagination struct {
	TotalCount int `json:"totalCount"`
	Page       int `json:"page"`
	Limit      int `json:"limit"`
}

// ChangePage is a page of an app's uncommitted changes.
type ChangePage struct {
	Pagination Pagination `json:"pagination"`
	// HeadCommitID is the commit the changes are counted from (null before the first).
	HeadCommitID *int64   `json:"headCommitId"`
	Data         []Change `json:"data"`
}

// CommitPage is a page of an app's commits.
type CommitPage struct {
	Pagination Pagination `json:"pagination"`
	Data       []Commit   `json:"data"`
}

// head returns the snapshot of the app's head commit (empty before the first) and its id.
func head(ctx context.Context, q *dbsqlc.Queries, appID int64) (Snapshot, *int64, error) {
	c, err := q.GetCommitHead(ctx, appID)
	if err == pgx.ErrNoRows {
		return Snapshot{}, nil, nil
	}
	if err != nil {
		return Snapshot{}, nil, db.MapError(err)
	}
	var s Snapshot
	if err := json.Unmarshal(c.Snapshot, &s); err != nil {
		return Snapshot{}, nil, err
	}
	return s, &c.ID, nil
}

// changes lists what differs between the app's configuration and its head.
func changes(ctx context.Context, q *dbsqlc.Queries, appID int64) ([]Change, Snapshot, *int64, error) {
	base, headID, err := head(ctx, q, appID)
	if err != nil {
		return nil, Snapshot{}, nil, err
	}
	cur, err := Capture(ctx, q, appID)
	if err != nil {
		return nil, Snapshot{}, nil, err
	}
	return Diff(base, cur), cur, headID, nil
}

// Uncommitted returns a page of the app's changes since its head commit.
func (s *Service) Uncommitted(ctx context.Context, appID int64, page, limit int) (ChangePage, error) {
	all, _, headID, err := changes(ctx, s.db.Queries, appID)
	if err != nil {
		return ChangePage{}, err
	}
	return ChangePage{Pagination: Pagination{TotalCount: len(all), Page: page, Limit: limit}, HeadCommitID: headID, Data: pageOf(all, page, limit)}, nil
}

// Changed returns the keys of one item type that differ from the app's head commit.
func (s *Service) Changed(ctx context.Context, appID int64, typ string) (map[string]bool, error) {
	all, _, _, err := changes(ctx, s.db.Queries, appID)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, c := range all {
		if c.Type == typ {
			out[c.Key] = true
		}
	}
	return out, nil
}

// Create commits the app's uncommitted changes with a message by a console user; with
// nothing to commit it is a conflict.
func (s *Service) Create(ctx context.Context, appID, userID int64, message string) (Commit, error) {
	message = strings.TrimSpace(message)
	var p herald.Problems
	switch {
	case message == "":
		p.Addf("message should not be empty")
	case utf8.RuneCountInString(message) > MaxMessageLength:
		p.Addf("message must be at most %d characters", MaxMessageLength)
	}
	if err := p.Err(); err != nil {
		return Commit{}, err
	}
	var out Commit
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		if _, err := q.LockAppConfig(ctx, appID); err != nil {
			return db.MapError(err)
		}
		diff, cur, _, err := changes(ctx, q, appID)
		if err != nil {
			return err
		}
		if len(diff) == 0 {
			return herald.Errorf(herald.ECONFLICT, "nothing to commit: the app has no uncommitted changes")
		}
		snap, _ := json.Marshal(cur)
		rawChanges, _ := json.Marshal(diff)
		row, err := q.CreateCommit(ctx, dbsqlc.CreateCommitParams{AppID: appID, Message: message, Snapshot: snap, Changes: rawChanges, CreatedBy: userRef(userID)})
		if err != nil {
			return db.MapError(err)
		}
		if err := q.SetCommitHead(ctx, dbsqlc.SetCommitHeadParams{AppID: appID, CommitID: row.ID}); err != nil {
			return db.MapError(err)
		}
		out = Commit{ID: row.ID, AppID: appID, Message: row.Message, Changes: diff, CreatedBy: row.CreatedBy, CreatedAt: row.CreatedAt, Publications: []Publication{}}
		return nil
	})
	return out, err
}

// List returns a page of the app's commits, newest first; publishTo > 0 keeps those
// published to that app.
func (s *Service) List(ctx context.Context, appID, publishTo int64, page, limit int) (CommitPage, error) {
	rows, err := s.db.ListCommits(ctx, dbsqlc.ListCommitsParams{AppID: appID, PublishTo: publishTo, MaxRows: int32(limit), SkipRows: int32((page - 1) * limit)})
	if err != nil {
		return CommitPage{}, db.MapError(err)
	}
	total, err := s.db.CountCommits(ctx, dbsqlc.CountCommitsParams{AppID: appID, PublishTo: publishTo})
	if err != nil {
		return CommitPage{}, db.MapError(err)
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	pubs, err := s.db.CommitPublications(ctx, ids)
	if err != nil {
		return CommitPage{}, db.MapError(err)
	}
	out := CommitPage{Pagination: Pagination{TotalCount: int(total), Page: page, Limit: limit}, Data: make([]Commit, len(rows))}
	for i, r := range rows {
		c := Commit{ID: r.ID, AppID: r.AppID, Message: r.Message, Changes: []Change{}, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, Publications: []Publication{}}
		if r.CreatedByEmail != nil {
			c.CreatedByEmail = *r.CreatedByEmail
		}
		_ = json.Unmarshal(r.Changes, &c.Changes)
		for _, p := range pubs {
			if p.CommitID == r.ID {
				c.Publications = append(c.Publications, Publication{AppID: p.AppID, AppName: p.AppName, PublishedAt: p.CreatedAt})
			}
		}
		out.Data[i] = c
	}
	return out, nil
}

// Published is the outcome of a publish.
type Published struct {
	CommitID    int64     `json:"commitId"`
	PublishTo   int64     `json:"publishTo"`
	PublishedAt time.Time `json:"publishedAt"`
	// Changes are what the publish changed in the target app.
	Changes []Change `json:"changes"`
	// Warnings name what needs attention in the target (provider instances waiting for
	// their secrets, instances the commit lacks).
	Warnings []string `json:"warnings"`
}

// Publish applies a commit of app fromApp to app target in one transaction: the target's
// configuration becomes the commit's (provider secrets excepted) and its head the commit.
// Publishing an older commit rolls back. The caller checks that both apps belong to the
// same client.
func (s *Service) Publish(ctx context.Context, fromApp, commitID, target, userID int64) (Published, error) {
	var out Published
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		c, err := q.GetCommit(ctx, dbsqlc.GetCommitParams{AppID: fromApp, ID: commitID})
		if err != nil {
			if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
				return herald.NotFound("commit")
			}
			return err
		}
		var snap Snapshot
		if err := json.Unmarshal(c.Snapshot, &snap); err != nil {
			return err
		}
		if _, err := q.LockAppConfig(ctx, target); err != nil {
			return db.MapError(err)
		}
		before, err := Capture(ctx, q, target)
		if err != nil {
			return err
		}
		warnings, err := apply(ctx, q, s.channels, target, snap)
		if err != nil {
			return db.MapError(err)
		}
		diff := Diff(before, snap)
		rawChanges, _ := json.Marshal(diff)
		rawWarnings, _ := json.Marshal(warnings)
		pub, err := q.CreatePublication(ctx, dbsqlc.CreatePublicationParams{CommitID: commitID, AppID: target, Changes: rawChanges, Warnings: rawWarnings, PublishedBy: userRef(userID)})
		if err != nil {
			return db.MapError(err)
		}
		if err := q.SetCommitHead(ctx, dbsqlc.SetCommitHeadParams{AppID: target, CommitID: commitID}); err != nil {
			return db.MapError(err)
		}
		out = Published{CommitID: commitID, PublishTo: target, PublishedAt: pub.CreatedAt, Changes: diff, Warnings: warnings}
		return nil
	})
	return out, err
}

// Preview returns what publishing a commit of fromApp to target would change there (the
// same diff Publish reports), changing nothing.
func (s *Service) Preview(ctx context.Context, fromApp, commitID, target int64) ([]Change, error) {
	var out []Change
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		c, err := q.GetCommit(ctx, dbsqlc.GetCommitParams{AppID: fromApp, ID: commitID})
		if err != nil {
			if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
				return herald.NotFound("commit")
			}
			return err
		}
		var snap Snapshot
		if err := json.Unmarshal(c.Snapshot, &snap); err != nil {
			return err
		}
		before, err := Capture(ctx, q, target)
		if err != nil {
			return err
		}
		out = Diff(before, snap)
		return nil
	})
	if out == nil {
		out = []Change{}
	}
	return out, err
}

func userRef(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func pageOf[T any](all []T, page, limit int) []T {
	start := (page - 1) * limit
	if start >= len(all) {
		return []T{}
	}
	return all[start:min(start+limit, len(all))]
}
