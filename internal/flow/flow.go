// Package flow stores user-defined workflows: a draft definition per workflow, validated on
// every save, and immutable published versions that sends run.
package flow

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/payloadschema"
)

// Flow is a workflow as the management API shows it.
type Flow struct {
	ID         int64           `json:"id"`
	Identifier string          `json:"identifier"`
	Name       string          `json:"name"`
	Definition json.RawMessage `json:"definition"`
	// Positions is where the console's designer draws each step of the draft, by step id
	// (console metadata: never part of a version or a run).
	Positions        json.RawMessage `json:"positions"`
	PublishedVersion *int32          `json:"publishedVersion"`
	// Critical workflows (security alerts, receipts, one-time codes) are delivered whatever
	// the recipient's opt-outs; the mark applies to every run's next step, whatever version.
	Critical bool `json:"critical"`
	// PayloadSchema is the JSON Schema (draft 2020-12) of the data the draft's sends carry
	// (null: none); publish copies it into the version, and accept refuses (422) a send whose
	// data does not match the published version's.
	PayloadSchema json.RawMessage `json:"payloadSchema"`
	// ArchivedAt is when the workflow was archived (null: it is not); an archived workflow
	// takes no sends and is listed only when asked for.
	ArchivedAt *time.Time `json:"archivedAt"`
	CreatedAt  time.Time  `json:"createdAt"`
	UpdatedAt  time.Time  `json:"updatedAt"`
}

// TemplateChecker tells whether an app has a template; nil skips the check.
type TemplateChecker func(ctx context.Context, appID int64, identifier string) bool

// Service stores and validates workflows.
type Service struct {
	db        *db.DB
	templates TemplateChecker
	// LayoutExists tells whether an app has an email layout (an inline email step's
	// layout); nil skips the check.
	LayoutExists TemplateChecker
}

// NewService returns a Service.
func NewService(d *db.DB, templates TemplateChecker) *Service {
	return &Service{db: d, templates: templates}
}

var identifierRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,99}$`)

// input is a validated create or update body.
type input struct {
	identifier, name string
	definition       json.RawMessage
	// program is the definition compiled (nil when it has problems).
	program *flowdef.Program
	// positions is nil when the body has none (an update keeps the stored ones).
	positions json.RawMessage
	// critical is nil when the body has none (an update keeps the stored mark).
	critical *bool
	// setSchema is whether the body has payloadSchema (an update keeps the stored schema
	// otherwise); payloadSchema is nil when it was null (the schema is removed).
	setSchema     bool
	payloadSchema json.RawMessage
}

func (s *Service) parse(ctx context.Context, appID int64, body []byte, create bool) (input, error) {
	var exists, layouts func(string) bool
	if s.templates != nil {
		exists = func(id string) bool { return s.templates(ctx, appID, id) }
	}
	if s.LayoutExists != nil {
		layouts = func(id string) bool { return s.LayoutExists(ctx, appID, id) }
	}
	return parseWith(body, create, exists, layouts)
}

// Check checks a workflow body ({identifier, name, definition}, the identifier when
// create) as Create and Update do, without a database: templateExists tells whether the
// app has a template (nil skips that check). The herald CLI validates with it. It returns
// every problem.
func Check(body []byte, create bool, templateExists func(string) bool) []string {
	_, err := parse(body, create, templateExists)
	var he *herald.Error
	if errors.As(err, &he) {
		if len(he.Details) > 0 {
			return he.Details
		}
		return []string{he.Message}
	}
	if err != nil {
		return []string{err.Error()}
	}
	return nil
}

func parse(body []byte, create bool, templateExists func(string) bool) (input, error) {
	return parseWith(body, create, templateExists, nil)
}

// parseWith is parse with the check of inline email steps' layouts (nil skips it).
func parseWith(body []byte, create bool, templateExists, layoutExists func(string) bool) (input, error) {
	var p herald.Problems
	top := js.Fields(body)
	if top == nil {
		return input{}, herald.Invalid("body must be a JSON object")
	}
	var in input
	if create {
		id, ok := js.String(top["identifier"])
		switch {
		case !ok:
			p.Addf("identifier must be a string")
		case !identifierRE.MatchString(id):
			p.Addf("identifier must be 1-100 letters, digits, '_', '.' or '-', starting with a letter or digit")
		}
		in.identifier = id
	}
	name, ok := js.String(top["name"])
	switch {
	case !ok:
		p.Addf("name must be a string")
	case strings.TrimSpace(name) == "" || len(name) > 200:
		p.Addf("name must be 1-200 characters")
	}
	in.name = name
	raw := top["definition"]
	var steps []string // the definition's step ids, when it is valid
	if js.Kind(raw) != "object" {
		p.Addf("definition must be an object")
	} else {
		prog, err := compile(raw, templateExists, layoutExists)
		if err != nil {
			var he *herald.Error
			if !errors.As(err, &he) {
				return input{}, err
			}
			p = append(p, he.Details...)
		}
		in.definition, in.program = raw, prog
		if prog != nil {
			steps = make([]string, len(prog.Steps))
			for i, st := range prog.Steps {
				steps[i] = st.ID
			}
		}
	}
	in.positions = parsePositions(top["positions"], steps, &p)
	if raw, ok := top["payloadSchema"]; ok {
		in.setSchema = true
		if js.Present(raw) {
			if probs := payloadschema.Check(raw); len(probs) > 0 {
				p = append(p, probs...)
			} else {
				in.payloadSchema = raw
			}
		}
	}
	if raw, ok := top["critical"]; ok && js.Kind(raw) != "null" {
		var v bool
		if js.Kind(raw) != "boolean" || json.Unmarshal(raw, &v) != nil {
			p.Addf("critical must be a boolean value")
		} else {
			in.critical = &v
		}
	}
	return in, p.Err()
}

// compile compiles a definition with every check a save and a publish make: Herald's
// channels, inline content, and the app's templates and layouts (nil skips either).
func compile(raw json.RawMessage, templateExists, layoutExists func(string) bool) (*flowdef.Program, error) {
	return flowdef.Compile(raw, flowdef.Checker{Channels: herald.Channels, CheckContent: templates.CheckContent, TemplateExists: templateExists, LayoutExists: layoutExists})
}

// Create saves a new workflow's draft.
func (s *Service) Create(ctx context.Context, appID int64, body []byte) (Flow, error) {
	in, err := s.parse(ctx, appID, body, true)
	if err != nil {
		return Flow{}, err
	}
	positions := in.positions
	if positions == nil {
		positions = json.RawMessage(`{}`)
	}
	row, err := s.db.CreateFlow(ctx, dbsqlc.CreateFlowParams{AppID: appID, Identifier: in.identifier, Name: in.name, Draft: in.definition, Positions: positions, Critical: in.critical != nil && *in.critical, PayloadSchema: in.payloadSchema})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ECONFLICT {
			return Flow{}, herald.Errorf(herald.ECONFLICT, "a workflow with identifier %q exists", in.identifier)
		}
		return Flow{}, err
	}
	return fromRow(row), nil
}

// Update replaces a workflow's draft (and its positions, critical mark and payload schema,
// when the body has them: a null payloadSchema removes it); runs in progress and the
// published version are unchanged until the next publish.
func (s *Service) Update(ctx context.Context, appID int64, identifier string, body []byte) (Flow, error) {
	in, err := s.parse(ctx, appID, body, false)
	if err != nil {
		return Flow{}, err
	}
	row, err := s.db.UpdateFlowDraft(ctx, dbsqlc.UpdateFlowDraftParams{AppID: appID, Identifier: identifier, Name: in.name, Draft: in.definition, Positions: in.positions, Critical: in.critical,
		SetPayloadSchema: in.setSchema, PayloadSchema: in.payloadSchema})
	if err != nil {
		return Flow{}, notFound(err)
	}
	return fromRow(row), nil
}

// Publish makes the draft the next immutable version and the one new sends run. The draft
// is compiled first, with the checks of a save: one that no longer compiles (a template it
// names was deleted since) is refused with every problem (400), and nothing is published.
// The version published is the draft that compiled (a save meanwhile waits for the next
// publish), with its payload schema, written in one transaction.
func (s *Service) Publish(ctx context.Context, appID int64, identifier string) (int32, error) {
	var exists, layouts func(string) bool
	if s.templates != nil {
		exists = func(id string) bool { return s.templates(ctx, appID, id) }
	}
	if s.LayoutExists != nil {
		layouts = func(id string) bool { return s.LayoutExists(ctx, appID, id) }
	}
	var version int32
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		// Publishes of one app (and commits published into it) take turns: two at once
		// would both number their version max+1.
		if _, err := q.LockAppConfig(ctx, appID); err != nil {
			return notFound(err)
		}
		row, err := q.GetFlow(ctx, dbsqlc.GetFlowParams{AppID: appID, Identifier: identifier})
		if err != nil {
			return notFound(err)
		}
		if _, err := compile(row.Draft, exists, layouts); err != nil {
			var he *herald.Error
			if errors.As(err, &he) && he.Code == herald.EINVALID {
				return &herald.Error{Code: herald.EINVALID, Message: "the draft does not compile, so it cannot be published", Details: he.Details}
			}
			return err
		}
		// The draft that compiled is the one published, whatever a save does meanwhile.
		if err := q.PublishFlowDefinition(ctx, dbsqlc.PublishFlowDefinitionParams{AppID: appID, ID: row.ID, Definition: row.Draft, PayloadSchema: row.PayloadSchema}); err != nil {
			return db.MapError(err)
		}
		after, err := q.GetFlow(ctx, dbsqlc.GetFlowParams{AppID: appID, Identifier: identifier})
		if err != nil {
			return notFound(err)
		}
		if after.PublishedVersion == nil {
			return herald.NotFound("workflow")
		}
		version = *after.PublishedVersion
		return nil
	})
	return version, err
}

// Get returns one workflow.
func (s *Service) Get(ctx context.Context, appID int64, identifier string) (Flow, error) {
	row, err := s.db.GetFlow(ctx, dbsqlc.GetFlowParams{AppID: appID, Identifier: identifier})
	if err != nil {
		return Flow{}, notFound(err)
	}
	return fromRow(row), nil
}

// List returns the app's workflows, optionally only published ones; archived ones only
// with includeArchived.
func (s *Service) List(ctx context.Context, appID int64, publishedOnly, includeArchived bool) ([]Flow, error) {
	rows, err := s.db.ListFlows(ctx, dbsqlc.ListFlowsParams{AppID: appID, PublishedOnly: publishedOnly, IncludeArchived: includeArchived})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Flow, len(rows))
	for i, r := range rows {
		out[i] = fromRow(r)
	}
	return out, nil
}

// LogEntry is one step outcome of a run.
type LogEntry struct {
	ID             int64     `json:"id"`
	RequestID      string    `json:"requestId"`
	Workflow       string    `json:"workflow"`
	Version        int32     `json:"version"`
	UserIdentifier string    `json:"userIdentifier"`
	StepID         string    `json:"stepId"`
	StepType       string    `json:"stepType"`
	Outcome        string    `json:"outcome"`
	Detail         string    `json:"detail"`
	WorkflowID     string    `json:"workflowId"`
	CreatedAt      time.Time `json:"createdAt"`
}

// Logs returns a page of the app's workflow log, newest first, and the total.
func (s *Service) Logs(ctx context.Context, appID int64, page, limit int) ([]LogEntry, int64, error) {
	rows, err := s.db.ListFlowLogs(ctx, dbsqlc.ListFlowLogsParams{AppID: appID, MaxRows: int32(limit), SkipRows: int32((page - 1) * limit)})
	if err != nil {
		return nil, 0, db.MapError(err)
	}
	total, err := s.db.CountFlowLogs(ctx, appID)
	if err != nil {
		return nil, 0, db.MapError(err)
	}
	out := make([]LogEntry, len(rows))
	for i, r := range rows {
		out[i] = LogEntry{ID: r.ID, RequestID: r.RequestID, Workflow: r.FlowIdentifier, Version: r.FlowVersion,
			UserIdentifier: r.UserIdentifier, StepID: r.StepID, StepType: r.StepType, Outcome: r.Outcome,
			Detail: r.Detail, WorkflowID: r.WorkflowID, CreatedAt: r.CreatedAt}
	}
	return out, total, nil
}

func fromRow(r dbsqlc.Flow) Flow {
	return Flow{ID: r.ID, Identifier: r.Identifier, Name: r.Name, Definition: r.Draft, Positions: r.Positions,
		PublishedVersion: r.PublishedVersion, Critical: r.Critical, PayloadSchema: r.PayloadSchema, ArchivedAt: r.ArchivedAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

func notFound(err error) error {
	if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
		return herald.NotFound("workflow")
	}
	return err
}
