package flow

import (
	"encoding/json"
	"math"
	"slices"
	"sort"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// Position is where the console's designer draws a step (canvas units).
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// maxCoordinate bounds a position's coordinates: far beyond any canvas, small enough that
// no one stores numbers for their own sake.
const maxCoordinate = 1e6

// parsePositions checks a body's positions: an object from step ids (steps of the
// definition, when it is valid: steps is nil otherwise) to {x, y} numbers. It returns them
// as canonical JSON, or nil when they were not sent (or null): an update keeps the stored
// ones then. Every problem goes to p.
func parsePositions(raw json.RawMessage, steps []string, p *herald.Problems) json.RawMessage {
	if !js.Present(raw) {
		return nil
	}
	fields := js.Fields(raw)
	if fields == nil {
		p.Addf("positions must be an object from step ids to {x, y}")
		return nil
	}
	if len(fields) > flowdef.MaxSteps {
		p.Addf("positions must name no more than %d steps", flowdef.MaxSteps)
		return nil
	}
	ids := make([]string, 0, len(fields))
	for id := range fields {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make(map[string]Position, len(fields))
	for _, id := range ids {
		if steps != nil && !slices.Contains(steps, id) {
			p.Addf("positions.%s: no step with that id", id)
			continue
		}
		xy := js.Fields(fields[id])
		x, okX := coordinate(xy["x"])
		y, okY := coordinate(xy["y"])
		if xy == nil || len(xy) != 2 || !okX || !okY {
			p.Addf("positions.%s must be {x, y} with numbers between -%g and %g", id, maxCoordinate, maxCoordinate)
			continue
		}
		out[id] = Position{X: x, Y: y}
	}
	b, err := json.Marshal(out)
	if err != nil {
		p.Addf("positions: %v", err)
		return nil
	}
	return b
}

func coordinate(raw json.RawMessage) (float64, bool) {
	if js.Kind(raw) != "number" {
		return 0, false
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || math.IsNaN(f) || math.Abs(f) > maxCoordinate {
		return 0, false
	}
	return f, true
}
