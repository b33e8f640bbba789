package channels

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/providers/configschema"
)

// Mask stands for a secret field's value in responses; sending it back in an update keeps
// the stored value.
const Mask = "********"

// split separates a configuration into its public fields and its secret ones.
func split(config map[string]json.RawMessage, secretFields []string) (public, secret map[string]json.RawMessage) {
	public, secret = map[string]json.RawMessage{}, map[string]json.RawMessage{}
	isSecret := map[string]bool{}
	for _, f := range secretFields {
		isSecret[f] = true
	}
	for k, v := range config {
		if isSecret[k] {
			secret[k] = v
		} else {
			public[k] = v
		}
	}
	return public, secret
}

// seal encrypts the secret fields as one JSON object; nil when there are none.
func seal(box *secrets.Box, secret map[string]json.RawMessage) ([]byte, error) {
	if len(secret) == 0 {
		return nil, nil
	}
	plain, err := json.Marshal(secret)
	if err != nil {
		return nil, err
	}
	return box.Seal(plain), nil
}

// unseal returns the full configuration: public fields and the decrypted secret ones.
func unseal(box *secrets.Box, public json.RawMessage, sealed []byte) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if len(public) > 0 {
		if err := json.Unmarshal(public, &out); err != nil {
			return nil, fmt.Errorf("stored config: %w", err)
		}
	}
	if len(sealed) > 0 {
		plain, err := box.Open(sealed)
		if err != nil {
			return nil, err
		}
		secret := map[string]json.RawMessage{}
		if err := json.Unmarshal(plain, &secret); err != nil {
			return nil, fmt.Errorf("stored secrets: %w", err)
		}
		maps.Copy(out, secret)
	}
	return out, nil
}

// masked is the public configuration with each secret field that is set shown as Mask.
func masked(box *secrets.Box, public json.RawMessage, sealed []byte) json.RawMessage {
	out := map[string]json.RawMessage{}
	_ = json.Unmarshal(public, &out)
	if len(sealed) > 0 {
		if plain, err := box.Open(sealed); err == nil {
			secret := map[string]json.RawMessage{}
			_ = json.Unmarshal(plain, &secret)
			mask, _ := json.Marshal(Mask)
			for k := range secret {
				out[k] = mask
			}
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// StoredProblems returns the rules a stored configuration breaks against its kind's
// schema, secrets included (a configuration published from another app arrives without
// the secrets it may need), and destinations the outbound guard refuses without resolving
// names. A kind missing from the build is one problem.
func (s *Service) StoredProblems(provider string, public json.RawMessage, sealed []byte) []string {
	kind, ok := s.catalogue.Lookup(provider)
	if !ok {
		return []string{fmt.Sprintf("provider %s is not in this build", provider)}
	}
	schema, err := configschema.Parse(kind.ConfigSchema)
	if err != nil {
		return []string{fmt.Sprintf("provider %s has a broken config schema", provider)}
	}
	config, err := unseal(s.box, public, sealed)
	if err != nil {
		return []string{"its stored secrets cannot be read"}
	}
	delete(config, SendRateKey)
	merged, _ := json.Marshal(config)
	if probs := schema.Validate(merged, "config"); len(probs) > 0 {
		return probs
	}
	// A destination the guard refuses (a commit made before the check, or under another
	// HERALD_PRIVATE_HOSTS); names are not resolved here, every connection checks them.
	return s.destinationProblems(schema, config, s.deps.Guard.CheckLiteral)
}
