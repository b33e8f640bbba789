// Package all lists the provider kinds of the packages under internal/providers/, for the wiring
// to put in the catalogue: providers.NewCatalogue(all.Kinds()...).
package all

import (
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/apns"
	"github.com/heraldhq/herald/internal/providers/discord"
	"github.com/heraldhq/herald/internal/providers/fcm"
	"github.com/heraldhq/herald/internal/providers/mailgun"
	"github.com/heraldhq/herald/internal/providers/metawhatsapp"
	"github.com/heraldhq/herald/internal/providers/msteams"
	"github.com/heraldhq/herald/internal/providers/postmark"
	"github.com/heraldhq/herald/internal/providers/sendgrid"
	"github.com/heraldhq/herald/internal/providers/ses"
	"github.com/heraldhq/herald/internal/providers/slack"
	"github.com/heraldhq/herald/internal/providers/twiliosms"
	"github.com/heraldhq/herald/internal/providers/twiliowhatsapp"
	"github.com/heraldhq/herald/internal/providers/vonage"
	"github.com/heraldhq/herald/internal/providers/webpush"
)

// Kinds returns the HTTP API provider kinds (SMTP and the signed webhook live with the
// pipeline).
//
// Each has the ordinary configuration key timeoutSeconds (1..60, default 30): the bound of
// one call to its API, per instance (see withTimeout).
func Kinds() []providers.Kind {
	kinds := []providers.Kind{
		sendgrid.Kind(), mailgun.Kind(), postmark.Kind(), ses.Kind(),
		twiliosms.Kind(), vonage.Kind(),
		twiliowhatsapp.Kind(), metawhatsapp.Kind(),
		webpush.Kind(),
		fcm.Kind(), apns.Kind(),
		slack.Kind(), discord.Kind(), msteams.Kind(),
	}
	for i, k := range kinds {
		kinds[i] = withTimeout(k)
	}
	return kinds
}
