package stack

import (
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/all"
	"github.com/heraldhq/herald/internal/providers/smtp"
	"github.com/heraldhq/herald/internal/providers/webhook"
)

// providerHTTPTimeout bounds one call to a provider's API; each HTTP provider instance
// replaces it with its own timeoutSeconds (internal/providers/all, default 30 s).
const providerHTTPTimeout = 30 * time.Second

// Catalogue is the provider kinds this build supports: the HTTP providers of
// internal/providers/all, SMTP and signed webhooks.
func Catalogue() *providers.Catalogue {
	return providers.NewCatalogue(append(all.Kinds(), smtp.Kind(), webhook.Kind())...)
}

// providerDeps are what the providers share: the outbound guard, since tenants choose
// provider destinations (webhook URLs, API base URLs, SMTP hosts), and an HTTP client with
// a timeout that dials through it. HERALD_PRIVATE_HOSTS lists the internal hosts they may
// reach all the same.
func providerDeps(cfg config.Config) providers.Deps {
	guard := netguard.New(netguard.PrivateHostsSetting, cfg.PrivateHosts)
	return providers.Deps{Guard: guard, HTTP: guard.Client(providerHTTPTimeout)}
}
