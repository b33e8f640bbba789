package users

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// MaxPatchOperations caps a JSON Patch document.
const MaxPatchOperations = 100

// patchOptions follow RFC 6902 strictly (no negative array indices, a remove of a missing
// path fails) and bound what copy operations may add.
var patchOptions = &jsonpatch.ApplyOptions{AccumulatedCopySizeLimit: 1 << 20}

// Profile returns a user's profile; a user who does not exist yet has an empty one.
func (s *Service) Profile(ctx context.Context, appID int64, identifier string) (json.RawMessage, error) {
	u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return json.RawMessage(`{}`), nil
		}
		return nil, err
	}
	return u.Profile, nil
}

// MergeProfile merges the body's keys into the user's profile (PUT /profile), creating
// the user when needed, and returns the new profile.
func (s *Service) MergeProfile(ctx context.Context, appID int64, identifier string, body []byte) (json.RawMessage, error) {
	var p herald.Problems
	CheckIdentifier("user id", identifier, &p)
	if js.Kind(body) != "object" {
		p.Addf("body must be a JSON object of profile keys")
	} else {
		CheckProfile("profile", body, &p)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	u, err := s.upsert(ctx, appID, identifier, body)
	return u.Profile, err
}

// PatchProfile changes the user's profile (PATCH /profile), creating the user when needed.
// The body's shape picks the format: an array is an RFC 6902 JSON Patch, an object an RFC
// 7386 JSON Merge Patch (its keys replace the profile's, null removes a key, nested objects
// merge), which is what the published SDKs send; anything else is a 400. The patch applies
// in full or not at all: a failing test operation, a path that does not exist, or a result
// that is not a valid profile (one with the key identifier, or too large) is a 400 and
// leaves the profile unchanged.
func (s *Service) PatchProfile(ctx context.Context, appID int64, identifier string, body []byte) (json.RawMessage, error) {
	var p herald.Problems
	CheckIdentifier("user id", identifier, &p)
	apply := parseProfilePatch(body, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	var out json.RawMessage
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		// The upsert creates the user if needed and locks its row until the commit, so
		// concurrent patches apply one after the other.
		u, err := q.UpsertUserProfile(ctx, dbsqlc.UpsertUserProfileParams{AppID: appID, Identifier: identifier, Profile: json.RawMessage(`{}`)})
		if err != nil {
			return db.MapError(err)
		}
		doc, err := apply(u.Profile)
		if err != nil {
			return err
		}
		u, err = q.ReplaceUserProfile(ctx, dbsqlc.ReplaceUserProfileParams{ID: u.ID, AppID: appID, Profile: doc})
		out = u.Profile
		return db.MapError(err)
	})
	return out, err
}

// ApplyPatch applies a PATCH /profile body (a JSON Patch array or a JSON Merge Patch
// object) to a profile, as PATCH /profile does, and returns the patched profile, or a 400
// error naming every malformed operation, the operation that cannot be applied, or why
// the result is not a valid profile. It touches no storage: the store applies it to the
// locked row.
func ApplyPatch(profile json.RawMessage, body []byte) (json.RawMessage, error) {
	var p herald.Problems
	apply := parseProfilePatch(body, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	return apply(profile)
}

// parseProfilePatch checks a PATCH /profile body, recording every problem, and returns
// the function that applies it to a stored profile (nil when there is a problem).
func parseProfilePatch(body []byte, p *herald.Problems) func(json.RawMessage) (json.RawMessage, error) {
	switch js.Kind(body) {
	case "array":
		patch := parsePatch(body, p)
		if patch == nil {
			return nil
		}
		return func(profile json.RawMessage) (json.RawMessage, error) { return applyPatch(profile, patch) }
	case "object":
		if js.Fields(body) == nil {
			p.Addf("body must be valid JSON")
			return nil
		}
		return func(profile json.RawMessage) (json.RawMessage, error) { return applyMergePatch(profile, body) }
	default:
		p.Addf("body must be an array of JSON Patch operations (RFC 6902) or an object of profile keys to merge (JSON Merge Patch, RFC 7386)")
		return nil
	}
}

// applyMergePatch applies an RFC 7386 merge patch (an object) to a profile and checks the
// result.
func applyMergePatch(profile json.RawMessage, patch []byte) (json.RawMessage, error) {
	doc, err := jsonpatch.MergePatch(profile, patch)
	if err != nil {
		return nil, herald.Invalid("body cannot be merged into the profile: " + err.Error())
	}
	var probs herald.Problems
	CheckProfile("the patched profile", doc, &probs)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	return doc, nil
}

func applyPatch(profile json.RawMessage, patch jsonpatch.Patch) (json.RawMessage, error) {
	doc := []byte(profile)
	var err error
	for i, op := range patch {
		if doc, err = (jsonpatch.Patch{op}).ApplyWithOptions(doc, patchOptions); err != nil {
			return nil, herald.Invalid(describePatchError(i, op, err))
		}
	}
	var probs herald.Problems
	CheckProfile("the patched profile", doc, &probs)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	return doc, nil
}

// patchOps lists the RFC 6902 operations and whether each needs value and from.
var patchOps = map[string]struct{ value, from bool }{
	"add": {value: true}, "remove": {}, "replace": {value: true},
	"move": {from: true}, "copy": {from: true}, "test": {value: true},
}

// parsePatch checks the shape of every operation, recording each problem, and decodes the
// patch when there is none.
func parsePatch(body []byte, p *herald.Problems) jsonpatch.Patch {
	ops, ok := js.Elements(body)
	switch {
	case !ok:
		p.Addf("body must be an array of JSON Patch operations")
		return nil
	case len(ops) > MaxPatchOperations:
		p.Addf("body must contain no more than %d operations", MaxPatchOperations)
		return nil
	}
	before := len(*p)
	for i, raw := range ops {
		f := js.Fields(raw)
		if f == nil {
			p.Addf("[%d] must be an object", i)
			continue
		}
		name, ok := js.String(f["op"])
		spec, known := patchOps[name]
		if !ok || !known {
			p.Addf("[%d].op must be one of the following values: add, remove, replace, move, copy, test", i)
		}
		if path, ok := js.String(f["path"]); !ok || (path != "" && !strings.HasPrefix(path, "/")) {
			p.Addf("[%d].path must be a JSON Pointer string", i)
		}
		if spec.from {
			if from, ok := js.String(f["from"]); !ok || (from != "" && !strings.HasPrefix(from, "/")) {
				p.Addf("[%d].from must be a JSON Pointer string", i)
			}
		}
		if _, has := f["value"]; spec.value && !has {
			p.Addf("[%d].value is required for %s", i, name)
		}
	}
	if len(*p) > before {
		return nil
	}
	patch, err := jsonpatch.DecodePatch(body)
	if err != nil {
		p.Addf("body must be an array of JSON Patch operations")
		return nil
	}
	return patch
}

// describePatchError words the failure of operation i for the caller.
func describePatchError(i int, op jsonpatch.Operation, err error) string {
	path, _ := op.Path()
	if errors.Is(err, jsonpatch.ErrTestFailed) {
		return fmt.Sprintf("[%d] test at %q failed: the value differs; the profile is unchanged", i, path)
	}
	return fmt.Sprintf("[%d] %s at %q cannot be applied: the path does not exist or is not valid here; the profile is unchanged", i, op.Kind(), path)
}
