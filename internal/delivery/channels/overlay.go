package channels

import (
	"encoding/json"
	"fmt"
	"maps"
	"sort"

	"github.com/heraldhq/herald/internal/providers/configschema"
)

// A send may carry override.<providerIdentifier>._config, an overlay of the configuration
// of the instance that delivers it. The stored instance's secrets were entered for its
// destinations (base URL, host, port, region, TLS mode: the keys its schema marks
// "x-destination"), so an overlay may never move them elsewhere, or every backend holding
// the app's API secret, and every console developer, could aim the stored API key or SMTP
// password at a server of their own. So an overlay is one of two things:
//
//   - ordinary keys only (a sender name, a message stream, a timeout): merged over the
//     stored configuration;
//   - the send's own credentials, when it names any secret key of the kind: used alone,
//     nothing stored merged in, and complete by the kind's schema (every required key,
//     the secret included). Naming a secret key, even as "" or null, says so.
//
// An overlay naming a destination key without bringing its own credentials is refused, at
// accept (CheckOverride, a 400) and again by overlayConfig when a message is delivered, so a
// request accepted before this rule, or through a path that skipped the check, leaks nothing.

// overlayAdvice ends the refusal of a destination key in an overlay.
const overlayAdvice = "a send may not change the destination of a stored provider instance; give complete credentials instead"

// overlayConfig returns the configuration a provider is built from for one send: stored (the
// instance's, secrets unsealed) under extra (the send's _config), following the rules
// above, or the problems that refuse it, named under at ("override.smtp._config").
func overlayConfig(schema *configschema.Schema, stored, extra map[string]json.RawMessage, at string) (map[string]json.RawMessage, []string) {
	if schema == nil {
		return nil, []string{at + ": the provider has no configuration schema, so no override of it is accepted"}
	}
	if ownCredentials(schema, extra) {
		config := maps.Clone(extra)
		raw, _ := json.Marshal(config)
		if probs := schema.Validate(raw, at); len(probs) > 0 {
			return nil, probs
		}
		return config, nil
	}
	if probs := destinationProblems(schema, extra, at); len(probs) > 0 {
		return nil, probs
	}
	config := maps.Clone(stored)
	if config == nil {
		config = map[string]json.RawMessage{}
	}
	maps.Copy(config, extra)
	raw, _ := json.Marshal(config)
	if probs := schema.Validate(raw, at); len(probs) > 0 {
		return nil, probs
	}
	return config, nil
}

// ownCredentials reports whether an overlay names a secret key of the kind: then it is
// the send's own credentials and nothing stored is used.
func ownCredentials(schema *configschema.Schema, extra map[string]json.RawMessage) bool {
	for _, name := range schema.SecretFields() {
		if _, ok := extra[name]; ok {
			return true
		}
	}
	return false
}

// destinationProblems names each destination key an overlay sets.
func destinationProblems(schema *configschema.Schema, extra map[string]json.RawMessage, at string) []string {
	var out []string
	for _, name := range schema.DestinationFields() {
		if _, ok := extra[name]; ok {
			out = append(out, fmt.Sprintf("%s.%s: %s", at, name, overlayAdvice))
		}
	}
	return out
}

// CheckOverride checks a send's override at accept: for each provider of the catalogue it
// names, override.<provider>._config must be an object that either changes ordinary keys
// only (each of the right type), or is the send's complete own credentials. It returns one
// message per problem (none for a send without such overlays).
func (s *Service) CheckOverride(override json.RawMessage) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(override, &top) != nil {
		return nil // the send's own parser reports a malformed override
	}
	names := make([]string, 0, len(top))
	for name := range top {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		kind, ok := s.catalogue.Lookup(name)
		if !ok {
			continue
		}
		var section map[string]json.RawMessage
		if json.Unmarshal(top[name], &section) != nil {
			continue
		}
		raw, ok := section["_config"]
		if !ok || string(raw) == "null" {
			continue
		}
		at := "override." + name + "._config"
		extra := map[string]json.RawMessage{}
		if json.Unmarshal(raw, &extra) != nil {
			out = append(out, at+" must be an object")
			continue
		}
		schema, err := configschema.Parse(kind.ConfigSchema)
		if err != nil {
			out = append(out, at+": the provider has no configuration schema, so no override of it is accepted")
			continue
		}
		if ownCredentials(schema, extra) {
			out = append(out, schema.Validate(raw, at)...)
			continue
		}
		out = append(out, destinationProblems(schema, extra, at)...)
		// The ordinary keys are checked by type now; the merged whole again at delivery.
		for _, name := range schema.DestinationFields() {
			delete(extra, name)
		}
		partial := *schema
		partial.Required = nil
		ordinary, _ := json.Marshal(extra)
		out = append(out, partial.Validate(ordinary, at)...)
	}
	return out
}
