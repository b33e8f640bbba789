package pipeline

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/templates"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/providers"
)

// sendCacheSize bounds the sends whose content a worker keeps loaded.
const sendCacheSize = 256

// sendEntry is what every delivery of one send shares: the request without its recipients,
// its template bundle and data, and its parsed overrides and attachments. It is loaded once
// per worker and send, not once per message.
type sendEntry struct {
	appID int64
	req   herald.SendRequest
	// bundle renders the send's content; nil when templateErr says why not.
	bundle      *templates.Bundle
	templateErr string
	sendData    map[string]any
	// override holds override's members: channel, <providerIdentifier>, ….
	override    map[string]json.RawMessage
	attachments []providers.Attachment
	attachErr   string
	// categoryID is the send's category, nil when it has none (or it is gone).
	categoryID *int64
	// critical is set when the send's category is marked critical: its emails carry no
	// unsubscribe link.
	critical bool
}

// sendCache keeps the most recent entries, dropping the oldest first.
type sendCache struct {
	mu      sync.Mutex
	entries map[uuid.UUID]*sendEntry
	order   []uuid.UUID
}

func (c *sendCache) get(id uuid.UUID) *sendEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[id]
}

func (c *sendCache) put(id uuid.UUID, e *sendEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[id]; ok {
		return
	}
	if len(c.order) >= sendCacheSize {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[id] = e
	c.order = append(c.order, id)
}

// sendEntry returns the shared content of a send, loading it on first use.
func (a *Service) sendEntry(ctx context.Context, requestID uuid.UUID) (*sendEntry, error) {
	a.cacheOnce.Do(func() { a.cache = &sendCache{entries: map[uuid.UUID]*sendEntry{}} })
	if e := a.cache.get(requestID); e != nil {
		return e, nil
	}
	row, err := a.DB.DeliveryRequestContent(ctx, requestID)
	if err != nil {
		return nil, db.MapError(err)
	}
	return a.loadEntry(ctx, requestID, row.AppID, row.Payload, newEntryLoad())
}

// sendEntries returns the shared content of several sends, loading those not cached with
// one query (a batch of a pack of single-recipient sends names many).
func (a *Service) sendEntries(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*sendEntry, error) {
	a.cacheOnce.Do(func() { a.cache = &sendCache{entries: map[uuid.UUID]*sendEntry{}} })
	out := make(map[uuid.UUID]*sendEntry, len(ids))
	var missing []uuid.UUID
	for _, id := range ids {
		if e := a.cache.get(id); e != nil {
			out[id] = e
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	rows, err := a.DB.DeliveryRequestContents(ctx, missing)
	if err != nil {
		return nil, db.MapError(err)
	}
	load := newEntryLoad()
	for _, r := range rows {
		if out[r.ID], err = a.loadEntry(ctx, r.ID, r.AppID, r.Payload, load); err != nil {
			return nil, err
		}
	}
	for _, id := range missing {
		if out[id] == nil {
			return nil, db.MapError(pgx.ErrNoRows)
		}
	}
	return out, nil
}

// entryLoad is what the sends loaded together share: app names, and templates with their
// layouts by app and identifier.
type entryLoad struct {
	appNames map[int64]string
	bundles  map[bundleKey]*templates.Bundle
}

type bundleKey struct {
	app        int64
	identifier string
}

func newEntryLoad() *entryLoad {
	return &entryLoad{appNames: map[int64]string{}, bundles: map[bundleKey]*templates.Bundle{}}
}

// loadEntry builds and caches a send's shared content from its stored request (without
// recipients).
func (a *Service) loadEntry(ctx context.Context, requestID uuid.UUID, appID int64, payload []byte, load *entryLoad) (*sendEntry, error) {
	appNames := load.appNames
	e := &sendEntry{appID: appID}
	if err := herald.DecodeSendRequest(payload, &e.req); err != nil {
		return nil, fmt.Errorf("request %s: %w", requestID, err)
	}
	appName, ok := appNames[appID]
	if !ok {
		app, err := a.DB.GetAppByID(ctx, appID)
		if err != nil {
			return nil, db.MapError(err)
		}
		appName, appNames[appID] = app.Name, app.Name
	}
	var cat *templates.Category
	if ident := e.req.Notification.Category; ident != "" {
		c, err := a.DB.DeliveryCategory(ctx, dbsqlc.DeliveryCategoryParams{AppID: appID, Identifier: ident})
		switch {
		case err == nil:
			cat = &templates.Category{Identifier: c.Identifier, Name: c.Name}
			e.categoryID, e.critical = &c.ID, c.Critical
		case herald.ErrorCode(db.MapError(err)) != herald.ENOTFOUND:
			return nil, db.MapError(err)
		}
	}
	var err error
	key := bundleKey{appID, e.req.Notification.TemplateIdentifier}
	if b, ok := load.bundles[key]; ok {
		e.bundle = b.For(e.req.Notification)
	} else {
		e.bundle, err = a.Templates.Bundle(ctx, appID, key.identifier, e.req.Notification)
		switch {
		case herald.ErrorCode(err) == herald.ENOTFOUND:
			e.templateErr = err.Error()
		case err != nil:
			return nil, err
		default:
			load.bundles[key] = e.bundle
		}
	}
	if e.sendData, err = templates.SendData(e.req.Data, appID, appName, cat, e.req.Notification); err != nil {
		e.templateErr = "data cannot be read: " + err.Error()
	}
	if e.req.Override != nil {
		e.override = js.Fields(e.req.Override.Raw)
	}
	e.attachments, e.attachErr = attachments(e.req.Data)
	a.cache.put(requestID, e)
	return e, nil
}

// providerOverride is what a provider receives as Message.Override: the send's
// override.channel.<channel> object merged with override.<providerIdentifier> (without its
// _config, which overlays the instance configuration instead).
func (e *sendEntry) providerOverride(channel, provider string) json.RawMessage {
	merged := map[string]json.RawMessage{}
	for k, v := range js.Fields(js.Fields(e.override["channel"])[channel]) {
		merged[k] = v
	}
	for k, v := range js.Fields(e.override[provider]) {
		if k != "_config" {
			merged[k] = v
		}
	}
	if len(merged) == 0 {
		return nil
	}
	out, _ := json.Marshal(merged)
	return out
}

// configOverlay is override.<providerIdentifier>._config, if any.
func (e *sendEntry) configOverlay(provider string) json.RawMessage {
	raw := js.Fields(e.override[provider])["_config"]
	if !js.Present(raw) {
		return nil
	}
	return raw
}

// maxAttachmentBytes bounds the decoded attachments of one send.
const maxAttachmentBytes = 10 << 20

// attachments reads data.attachments: [{filename, contentType, content (base64)}].
func attachments(data json.RawMessage) ([]providers.Attachment, string) {
	raw := js.Fields(data)["attachments"]
	if !js.Present(raw) {
		return nil, ""
	}
	items, ok := js.Elements(raw)
	if !ok {
		return nil, "data.attachments must be an array"
	}
	var out []providers.Attachment
	total := 0
	for i, it := range items {
		f := js.Fields(it)
		name, _ := js.String(f["filename"])
		ct, _ := js.String(f["contentType"])
		b64, ok := js.String(f["content"])
		if f == nil || name == "" || !ok {
			return nil, fmt.Sprintf("data.attachments[%d] needs a filename and a base64 content", i)
		}
		content, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Sprintf("data.attachments[%d].content must be base64", i)
		}
		if total += len(content); total > maxAttachmentBytes {
			return nil, fmt.Sprintf("data.attachments are larger than %d bytes", maxAttachmentBytes)
		}
		out = append(out, providers.Attachment{Filename: name, ContentType: ct, Content: content})
	}
	return out, ""
}
