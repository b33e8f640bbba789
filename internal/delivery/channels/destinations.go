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
	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers/configschema"
)

// hostName is a DNS host name (underscores tolerated, as some internal names have them).
var hostName = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_-]{1,63})*\.?$`)

// checkDestinations refuses, at save, the destinations of a configuration (the properties
// its schema marks "x-destination": webhook URLs, API base URLs, the SMTP host) that point
// at a loopback, private or link-local address, or at a name resolving to one, unless the
// operator allow-listed the host (HERALD_PRIVATE_HOSTS). Each connection is checked again
// when it is made, since DNS can change.
func (s *Service) checkDestinations(ctx context.Context, schema *configschema.Schema, config map[string]json.RawMessage, p *herald.Problems) {
	*p = append(*p, s.destinationProblems(schema, config, func(host, port string) error {
		return s.deps.Guard.Check(ctx, host, port)
	})...)
}

// destinationProblems checks each destination of config with check (the guard's Check,
// or CheckLiteral where DNS must not be waited on).
func (s *Service) destinationProblems(schema *configschema.Schema, config map[string]json.RawMessage, check func(host, port string) error) []string {
	if schema == nil {
		return nil
	}
	dest := schema.Destinations()
	names := make([]string, 0, len(dest))
	for name := range dest {
		names = append(names, name)
	}
	slices.Sort(names)
	var out []string
	for _, name := range names {
		var v string
		if json.Unmarshal(config[name], &v) != nil || strings.TrimSpace(v) == "" {
			continue
		}
		var err error
		switch dest[name] {
		case "url":
			var host, port string
			if host, port, err = netguard.SplitURL(v); err == nil {
				err = check(host, port)
			}
		case "host":
			h := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "["), "]")
			if _, perr := netip.ParseAddr(h); perr != nil && !hostName.MatchString(h) {
				out = append(out, "config."+name+" must be a host name or an IP address (no scheme, no port: set config.port)")
				continue
			}
			err = check(h, port(schema, config))
		}
		switch {
		case errors.Is(err, netguard.ErrNotPublic):
			out = append(out, "config."+name+": "+err.Error())
		case err != nil:
			out = append(out, "config."+name+" "+err.Error())
		}
	}
	return out
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
