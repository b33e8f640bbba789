package channels

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/netguard"
	"github.com/heraldhq/herald/providers/configschema"
)

// hostName is a DNS host name (underscores tolerated, as some internal names have them).
var hostName = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_-]{1,63})*\.?$`)

// checkDestinations refuses, at save, the destinations of a configuration (the properties
// its schema marks "x-destination": webhook URLs, API base URLs, the SMTP host) that point
// at a loopback, private or link-local address, or at a name resolving to one, unless the
// operator allow-listed the host (HERALD_PRIVATE_HOSTS). Each connection is checked again
// when it is made, since DNS can change.
func (s *Service) checkDestinations(ctx context.Context, schema *configschema.Schema, config map[string]json.RawMessage, p *herald.Problems) {
	if schema == nil {
		return
	}
	dest := schema.Destinations()
	names := make([]string, 0, len(dest))
	for name := range dest {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var v string
		if json.Unmarshal(config[name], &v) != nil || strings.TrimSpace(v) == "" {
			continue
		}
		var err error
		switch dest[name] {
		case "url":
			err = s.deps.Guard.CheckURL(ctx, v)
		case "host":
			h := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "["), "]")
			if _, perr := netip.ParseAddr(h); perr != nil && !hostName.MatchString(h) {
				p.Addf("config.%s must be a host name or an IP address (no scheme, no port: set config.port)", name)
				continue
			}
			err = s.deps.Guard.Check(ctx, h, port(schema, config))
		}
		switch {
		case errors.Is(err, netguard.ErrNotPublic):
			p.Addf("config.%s: %s", name, err)
		case err != nil:
			p.Addf("config.%s %s", name, err)
		}
	}
}

// port is the configuration's "port" property, or its schema default, as text ("" when
// neither is set).
func port(schema *configschema.Schema, config map[string]json.RawMessage) string {
	raw := config["port"]
	if len(raw) == 0 {
		if prop := schema.Properties["port"]; prop != nil {
			raw = prop.Default
		}
	}
	var n int
	if json.Unmarshal(raw, &n) != nil || n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}
