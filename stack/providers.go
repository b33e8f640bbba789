package stack

import (
	"time"

	"github.com/heraldhq/herald/config"
	"github.com/heraldhq/herald/netguard"
	"github.com/heraldhq/herald/providers"
	"github.com/heraldhq/herald/providers/all"
	"github.com/heraldhq/herald/providers/smtp"
	"github.com/heraldhq/herald/providers/webhook"
)

// providerHTTPTimeout bounds one call to a provider's API (providers may set shorter ones).
const providerHTTPTimeout = 30 * time.Second

// Catalogue is the provider kinds this build supports: the HTTP providers of
// providers/all, SMTP and signed webhooks.
func Catalogue() *providers.Catalogue {
	return providers.NewCatalogue(append(all.Kinds(), smtp.Kind(), webhook.Kind())...)
}

// providerDeps are what the providers share: an HTTP client with a timeout that refuses
// internal addresses, since tenants choose webhook URLs (HERALD_PRIVATE_HOSTS lifts it).
func providerDeps(cfg config.Config) providers.Deps {
	return providers.Deps{HTTP: netguard.Client(providerHTTPTimeout, cfg.PrivateHosts)}
}
