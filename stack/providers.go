package stack

import (
	"net/http"
	"time"

	"github.com/heraldhq/herald/providers"
	"github.com/heraldhq/herald/providers/all"
	"github.com/heraldhq/herald/providers/smtp"
	"github.com/heraldhq/herald/providers/webhook"
)

// providerHTTPTimeout bounds one call to a provider's API (providers may set shorter ones).
const providerHTTPTimeout = 30 * time.Second

// Catalogue is the provider kinds this build supports: SMTP, the signed webhook, and the
// HTTP API providers of providers/all.
func Catalogue() *providers.Catalogue {
	return providers.NewCatalogue(append([]providers.Kind{smtp.Kind(), webhook.Kind()}, all.Kinds()...)...)
}

// providerDeps are what the providers share: an HTTP client with a timeout.
func providerDeps() providers.Deps {
	return providers.Deps{HTTP: &http.Client{Timeout: providerHTTPTimeout}}
}
