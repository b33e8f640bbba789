// Package all lists the provider kinds of the packages under providers/, for the wiring
// to put in the catalogue: providers.NewCatalogue(all.Kinds()...).
package all

import (
	"github.com/heraldhq/herald/providers"
	"github.com/heraldhq/herald/providers/apns"
	"github.com/heraldhq/herald/providers/discord"
	"github.com/heraldhq/herald/providers/fcm"
	"github.com/heraldhq/herald/providers/mailgun"
	"github.com/heraldhq/herald/providers/metawhatsapp"
	"github.com/heraldhq/herald/providers/msteams"
	"github.com/heraldhq/herald/providers/postmark"
	"github.com/heraldhq/herald/providers/sendgrid"
	"github.com/heraldhq/herald/providers/ses"
	"github.com/heraldhq/herald/providers/slack"
	"github.com/heraldhq/herald/providers/twiliosms"
	"github.com/heraldhq/herald/providers/twiliowhatsapp"
	"github.com/heraldhq/herald/providers/vonage"
	"github.com/heraldhq/herald/providers/webpush"
)

// Kinds returns the HTTP API provider kinds (SMTP and the signed webhook live with the
// pipeline).
func Kinds() []providers.Kind {
	return []providers.Kind{
		sendgrid.Kind(), mailgun.Kind(), postmark.Kind(), ses.Kind(),
		twiliosms.Kind(), vonage.Kind(),
		twiliowhatsapp.Kind(), metawhatsapp.Kind(),
		webpush.Kind(),
		fcm.Kind(), apns.Kind(),
		slack.Kind(), discord.Kind(), msteams.Kind(),
	}
}
