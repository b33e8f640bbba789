package send

import (
	"context"
	"fmt"
	"sync"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/flow/runnable"
	"github.com/heraldhq/herald/internal/platform/payloadschema"
)

// maxCachedSchemas bounds the compiled payload schemas a Service keeps; past it the cache
// starts over (versions are immutable, so a dropped entry is only compiled again).
const maxCachedSchemas = 4096

// versionKey names one published version: flow ids are never reused, so a version of a
// workflow deleted and made again under the same identifier is another key.
type versionKey struct {
	flowID  int64
	version int32
}

// schemaCache holds the compiled payload schema of each version accept has checked data
// against. A version never changes, so entries never go stale.
type schemaCache struct {
	mu sync.RWMutex
	m  map[versionKey]*payloadschema.Schema
}

func (c *schemaCache) get(k versionKey) (*payloadschema.Schema, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s, ok := c.m[k]
	return s, ok
}

func (c *schemaCache) put(k versionKey, s *payloadschema.Schema) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedSchemas {
		c.m = make(map[versionKey]*payloadschema.Schema)
	}
	c.m[k] = s
}

// checkPayload refuses (422, every problem listed with its JSON pointer) a send whose data
// does not match the payload schema of the workflow version it will run. The schema is read
// and compiled once per version; later sends only validate.
func (s *Service) checkPayload(ctx context.Context, appID int64, v runnable.Version, req *herald.SendRequest) error {
	if !v.HasPayloadSchema {
		return nil
	}
	k := versionKey{flowID: v.FlowID, version: v.Number}
	sch, ok := s.schemas.get(k)
	if !ok {
		raw, err := s.db.FlowVersionPayloadSchema(ctx, dbsqlc.FlowVersionPayloadSchemaParams{AppID: appID, FlowID: v.FlowID, Version: k.version})
		if err != nil {
			return db.MapError(err)
		}
		if raw == nil {
			return nil
		}
		var probs []string
		if sch, probs = payloadschema.Compile(raw); sch == nil {
			// Checked at save; a schema that no longer compiles is a bug, not the caller's.
			return fmt.Errorf("payload schema of workflow %q version %d: %v", req.Notification.Flow.Identifier, k.version, probs)
		}
		s.schemas.put(k, sch)
	}
	probs := sch.Validate(req.Data, "/data")
	if len(probs) == 0 {
		return nil
	}
	noun := "problems"
	if len(probs) == 1 {
		noun = "problem"
	}
	e := herald.Errorf(herald.EUNPROCESSABLE, "data does not match the payload schema of workflow %q (version %d): %d %s",
		req.Notification.Flow.Identifier, k.version, len(probs), noun)
	e.Fields = probs
	return e
}
