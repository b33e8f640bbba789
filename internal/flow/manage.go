package flow

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/api/serviceerror"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// CopySuffix is added to a workflow's identifier to name its duplicate when the body names
// none.
const CopySuffix = "-copy"

// checkName adds a problem when name is not a valid workflow name.
func checkName(raw json.RawMessage, p *herald.Problems) string {
	name, ok := js.String(raw)
	switch {
	case !ok:
		p.Addf("name must be a string")
	case strings.TrimSpace(name) == "" || len(name) > 200:
		p.Addf("name must be 1-200 characters")
	}
	return name
}

// Patch renames a workflow ({"name": "..."}) and/or archives or unarchives it
// ({"archived": true|false}) and/or marks it critical ({"critical": true|false}: its runs
// ignore opt-outs). The identifier, the draft and the versions never change.
// Every problem of the body is reported and nothing changes.
func (s *Service) Patch(ctx context.Context, appID int64, identifier string, body []byte) (Flow, error) {
	var p herald.Problems
	top := js.Fields(body)
	if top == nil {
		return Flow{}, herald.Invalid("body must be a JSON object")
	}
	var name string
	rename := js.Present(top["name"])
	if rename {
		name = checkName(top["name"], &p)
	}
	var archived *bool
	if raw := top["archived"]; js.Present(raw) {
		var b bool
		if js.Kind(raw) != "boolean" || json.Unmarshal(raw, &b) != nil {
			p.Addf("archived must be a boolean")
		} else {
			archived = &b
		}
	}
	var critical *bool
	if raw := top["critical"]; js.Present(raw) {
		var b bool
		if js.Kind(raw) != "boolean" || json.Unmarshal(raw, &b) != nil {
			p.Addf("critical must be a boolean")
		} else {
			critical = &b
		}
	}
	if !rename && !js.Present(top["archived"]) && !js.Present(top["critical"]) {
		p.Addf("the body must have name, archived or critical")
	}
	if err := p.Err(); err != nil {
		return Flow{}, err
	}
	var out Flow
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		var row dbsqlc.Flow
		var err error
		if rename {
			if row, err = q.RenameFlow(ctx, dbsqlc.RenameFlowParams{AppID: appID, Identifier: identifier, Name: name}); err != nil {
				return notFound(err)
			}
		}
		if critical != nil {
			if row, err = q.SetFlowCritical(ctx, dbsqlc.SetFlowCriticalParams{AppID: appID, Identifier: identifier, Critical: *critical}); err != nil {
				return notFound(err)
			}
		}
		if archived != nil {
			if row, err = q.SetFlowArchived(ctx, dbsqlc.SetFlowArchivedParams{AppID: appID, Identifier: identifier, Archived: *archived}); err != nil {
				return notFound(err)
			}
		}
		out = fromRow(row)
		return nil
	})
	return out, err
}

// Duplicate copies a workflow's draft and node positions into a new, unpublished workflow.
// Body (optional): {"identifier": "...", "name": "..."}; without them the copy is
// "<identifier>-copy" named "<name> (copy)". An identifier in use is a 409 naming it.
func (s *Service) Duplicate(ctx context.Context, appID int64, identifier string, body []byte) (Flow, error) {
	var p herald.Problems
	top := map[string]json.RawMessage{}
	if len(strings.TrimSpace(string(body))) > 0 {
		if top = js.Fields(body); top == nil {
			return Flow{}, herald.Invalid("body must be a JSON object")
		}
	}
	newID := identifier + CopySuffix
	if raw := top["identifier"]; js.Present(raw) {
		id, ok := js.String(raw)
		switch {
		case !ok:
			p.Addf("identifier must be a string")
		case !identifierRE.MatchString(id):
			p.Addf("identifier must be 1-100 letters, digits, '_', '.' or '-', starting with a letter or digit")
		}
		newID = id
	} else if !identifierRE.MatchString(newID) {
		p.Addf("identifier is required: %q is too long to derive a copy's identifier from", identifier)
	}
	var name string
	if raw := top["name"]; js.Present(raw) {
		name = checkName(raw, &p)
	}
	if err := p.Err(); err != nil {
		return Flow{}, err
	}
	if name == "" {
		src, err := s.Get(ctx, appID, identifier)
		if err != nil {
			return Flow{}, err
		}
		name = truncate(src.Name, 200-len(" (copy)")) + " (copy)"
	}
	row, err := s.db.DuplicateFlow(ctx, dbsqlc.DuplicateFlowParams{AppID: appID, Identifier: identifier, NewIdentifier: newID, Name: name})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ECONFLICT {
			return Flow{}, herald.Errorf(herald.ECONFLICT, "a workflow with identifier %q exists", newID)
		}
		return Flow{}, notFound(err)
	}
	return fromRow(row), nil
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Delete deletes a workflow with its published versions (its run and message logs stay).
// A workflow that a flow schedule sends is not deleted: the 409 names the schedules, to be
// deleted first.
func (s *Service) Delete(ctx context.Context, appID int64, identifier string) error {
	_, err := s.db.DeleteUnscheduledFlow(ctx, dbsqlc.DeleteUnscheduledFlowParams{AppID: appID, Identifier: identifier})
	if err == nil {
		return nil
	}
	if err = db.MapError(err); herald.ErrorCode(err) != herald.ENOTFOUND {
		return err
	}
	if _, err := s.Get(ctx, appID, identifier); err != nil {
		return err
	}
	ids, err := s.db.FlowScheduleIDs(ctx, dbsqlc.FlowScheduleIDsParams{AppID: appID, Identifier: identifier})
	if err != nil {
		return db.MapError(err)
	}
	return herald.Errorf(herald.ECONFLICT, "workflow %q is used by flow schedule(s) %s; delete them first", identifier, strings.Join(ids, ", "))
}

// CancelRun cancels the running runs of a workflow that one send request started (every
// recipient's), as CancelByKey does for a cancellation key. An unknown workflow or request
// is a 404; a request whose runs have all finished cancels nothing.
func (s *Service) CancelRun(ctx context.Context, appID int64, identifier, requestID string, temporal Canceler, log *slog.Logger) (Cancellation, error) {
	id, err := uuid.Parse(requestID)
	if err != nil {
		return Cancellation{}, herald.Invalid("requestId must be a UUID")
	}
	if _, err := s.Get(ctx, appID, identifier); err != nil {
		return Cancellation{}, err
	}
	known, err := s.db.RequestOfApp(ctx, dbsqlc.RequestOfAppParams{AppID: appID, RequestID: id})
	if err != nil {
		return Cancellation{}, db.MapError(err)
	}
	if !known {
		return Cancellation{}, herald.NotFound("notification request")
	}
	ids, err := s.db.CancelRequestFlowRuns(ctx, dbsqlc.CancelRequestFlowRunsParams{AppID: appID, FlowIdentifier: identifier, RequestID: id})
	if err != nil {
		return Cancellation{}, db.MapError(err)
	}
	return cancelAll(ctx, ids, temporal, log), nil
}

// cancelAll cancels the Temporal runs of workflow ids already marked cancelled.
func cancelAll(ctx context.Context, ids []string, temporal Canceler, log *slog.Logger) Cancellation {
	var out Cancellation
	for _, id := range ids {
		err := temporal.CancelWorkflow(context.WithoutCancel(ctx), id, "")
		var nf *serviceerror.NotFound
		switch {
		case err == nil, errors.As(err, &nf):
			out.Cancelled++
		default:
			out.Failed++
			log.Warn("workflow run not cancelled", "workflowId", id, "error", err)
		}
	}
	return out
}
