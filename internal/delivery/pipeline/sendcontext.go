package pipeline

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/delivery/templates"
)

// batchCall is state shared by the requests of one DeliverBatch call.
type batchCall struct {
	// configured caches each app's channels with an enabled provider instance.
	configured map[int64]map[string]bool
	workflowID string
	// works are the pages decided so far, written together at the end of the call.
	works []*pageWork
	// users are the recipients and preferences the call resolved.
	users *userCache
	// holdQuiet: the run holds messages for quiet hours (send.DeliverInput.HoldQuietHours);
	// now is the call's clock for them.
	holdQuiet bool
	now       time.Time
	// holdChannels: the run takes channel holds from the call (send.DeliverInput.HoldChannels);
	// holds caches each app's held channels (heldChannels).
	holdChannels bool
	holds        map[int64]map[string]channelHold
	// wake is added to the end of every hold the call tells its run (wakeDelay).
	wake time.Duration
}

// sendContext is what delivering the pages of one request needs, computed once per call.
type sendContext struct {
	appID      int64
	requestID  uuid.UUID
	workflowID string
	req        *herald.SendRequest
	categoryID *int64
	// category is the category's identifier ("" without one), for opt-out reasons.
	category string
	// critical names what makes the send critical ("category security"; "" when not):
	// it ignores opt-outs.
	critical string
	// defaults are the app's defaults for the category's channels.
	defaults map[string]bool
	channels delivery.SendChannels
	// bundle renders the template; nil when the send names none (or it is missing).
	bundle *templates.Bundle
	// templateErr is set when the named template could not be found: every channel of
	// every recipient fails with it.
	templateErr string
	// sendData is the template data shared by the recipients (with a template only).
	sendData map[string]any
	// needProfiles is set when pages must load profiles: for addresses or rendering.
	needProfiles bool
	// topics caches topic ids by identifier (0: no such topic).
	topics map[string]int64
	// users is the call's cache of resolved users and preferences.
	users *userCache
	// holdQuiet and now come from the call (batchCall): external messages of recipients
	// in their quiet hours are held (quiet.go).
	holdQuiet bool
	now       time.Time
	// holds are the app's channels held by open circuit breakers, when the run asked for
	// them (batchCall.holdChannels): their new messages are queued with the hold's note.
	holds map[string]channelHold
}

// prepare computes a request's send context: category, template, and channel selection.
func (a *Service) prepare(ctx context.Context, call *batchCall, appID int64, requestID uuid.UUID, req *herald.SendRequest) (*sendContext, error) {
	configured, ok := call.configured[appID]
	if !ok {
		var err error
		if configured, err = a.Channels.ConfiguredChannels(ctx, appID); err != nil {
			return nil, err
		}
		call.configured[appID] = configured
	}
	cat, catID, err := resolveCategory(ctx, a.DB.Queries, appID, req)
	if err != nil {
		return nil, db.MapError(err)
	}
	sc := &sendContext{appID: appID, requestID: requestID, workflowID: call.workflowID, req: req, categoryID: catID, topics: map[string]int64{}, users: call.users}
	if cat != nil {
		sc.category, sc.defaults = cat.Identifier, cat.Defaults
		if cat.Critical {
			sc.critical = "category " + cat.Identifier
		}
	}
	var override []string
	if req.Override != nil {
		override = req.Override.Channels
	}
	if ident := req.Notification.TemplateIdentifier; ident != "" {
		b, err := a.Templates.Bundle(ctx, appID, ident, req.Notification)
		switch {
		case herald.ErrorCode(err) == herald.ENOTFOUND:
			sc.templateErr = err.Error()
		case err != nil:
			return nil, err
		default:
			sc.bundle = b
		}
	}
	if sc.bundle != nil {
		sc.channels = delivery.ForSend(override, true, sc.bundle.Channels(), configured)
		app, err := a.DB.GetAppByID(ctx, appID)
		if err != nil {
			return nil, db.MapError(err)
		}
		if sc.sendData, err = templates.SendData(req.Data, appID, app.Name, templateCategory(cat), req.Notification); err != nil {
			sc.templateErr = "data cannot be read: " + err.Error()
		}
	} else {
		sc.channels = delivery.ForSend(override, false, nil, configured)
	}
	external := slices.ContainsFunc(sc.channels.Candidates, func(c string) bool { return c != herald.ChannelInApp })
	sc.needProfiles = sc.bundle != nil || external
	if call.holdChannels && external {
		// Only sends that may queue external messages read the holds: an in-app send
		// costs no query more.
		if sc.holds, err = a.heldChannels(ctx, call, appID); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// resolveCategory finds the request's category; the deprecated top-level form creates it.
func resolveCategory(ctx context.Context, q *dbsqlc.Queries, appID int64, req *herald.SendRequest) (*resolvedCategory, *int64, error) {
	name := req.Notification.Category
	if name == "" {
		return nil, nil, nil
	}
	if req.CreateCategory {
		if _, err := q.EnsureCategory(ctx, dbsqlc.EnsureCategoryParams{AppID: appID, Identifier: name}); err != nil {
			return nil, nil, err
		}
	}
	cat, err := q.GetCategoryByIdentifier(ctx, dbsqlc.GetCategoryByIdentifierParams{AppID: appID, Identifier: name})
	if err == pgx.ErrNoRows {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return &resolvedCategory{Category: templates.Category{Identifier: cat.Identifier, Name: cat.Name}, Critical: cat.Critical,
		Defaults: categories.DecodeDefaults(cat.ChannelDefaults)}, &cat.ID, nil
}

// resolvedCategory is a send's category: what templates see, and its critical mark.
type resolvedCategory struct {
	templates.Category
	Critical bool
	// Defaults are the app's defaults for the category's channels (false: starts off).
	Defaults map[string]bool
}

// templateCategory is what templates see of a send's category (nil without one).
func templateCategory(c *resolvedCategory) *templates.Category {
	if c == nil {
		return nil
	}
	return &c.Category
}
