package all

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

// DefaultTimeoutSeconds bounds one call to an HTTP provider's API when the instance sets no
// timeoutSeconds (the pipeline's former global bound).
const DefaultTimeoutSeconds = 30

// timeoutProperty is the ordinary (neither secret nor destination) configuration key every
// HTTP provider kind gets, like smtp's and webhook's.
const timeoutProperty = `"timeoutSeconds": {"type": "integer", "minimum": 1, "maximum": 60, "default": 30,
  "title": "Timeout (s)", "description": "How long one call to the provider's API may take before it counts as a transient failure"}`

// withTimeout gives a kind the per-instance deadline keys: timeoutSeconds, the bound of one
// call (default DefaultTimeoutSeconds), then connectTimeoutSeconds and
// responseTimeoutSeconds (httpcall.Deadlines). Its schema lists them last, and each
// instance calls the API with a client bounded by them, so a slow or hung provider
// instance holds a worker slot no longer than its operator allows.
func withTimeout(k providers.Kind) providers.Kind {
	schema, err := addProperty(k.ConfigSchema, timeoutProperty+",\n  "+httpcall.DeadlineProperties)
	if err != nil {
		panic(fmt.Sprintf("provider kind %s: %v", k.Identifier, err))
	}
	k.ConfigSchema = schema
	next := k.New
	k.New = func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
		var c struct {
			TimeoutSeconds int `json:"timeoutSeconds"`
			httpcall.Deadlines
		}
		// A malformed config is the kind's to report (next decodes it too).
		_ = json.Unmarshal(raw, &c)
		if c.TimeoutSeconds <= 0 {
			c.TimeoutSeconds = DefaultTimeoutSeconds
		}
		d := time.Duration(c.TimeoutSeconds) * time.Second
		if deps.HTTP != nil {
			client := *deps.HTTP // same transport and guard, own bound
			client.Timeout = d
			deps.HTTP = &client
		} else {
			deps.HTTP = deps.Guard.Client(d)
		}
		deps.HTTP = httpcall.WithDeadlines(deps.HTTP, c.Deadlines)
		return next(raw, deps)
	}
	return k
}

// addProperty appends one property (`"name": {...}`) to the properties of a JSON schema,
// keeping the order of the others (the console shows them in order).
func addProperty(schema json.RawMessage, property string) (json.RawMessage, error) {
	var root map[string]json.RawMessage
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, err
	}
	props := []byte(root["properties"])
	end := len(props) - 1
	for end >= 0 && props[end] != '}' {
		end--
	}
	if end < 0 {
		return nil, fmt.Errorf("schema has no properties object")
	}
	sep := ","
	var existing map[string]json.RawMessage
	if err := json.Unmarshal(props, &existing); err != nil {
		return nil, err
	}
	if len(existing) == 0 {
		sep = ""
	}
	if _, ok := existing["timeoutSeconds"]; ok {
		return schema, nil
	}
	root["properties"] = json.RawMessage(string(props[:end]) + sep + property + "}")
	return json.Marshal(root)
}
