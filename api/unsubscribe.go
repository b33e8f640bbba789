package api

import (
	"context"
	"html/template"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Unsubscribe serves the one-click unsubscribe links of emails at the root of the API
// listener, outside the credential middleware: the signed token in the path is the only
// credential, and it can do one thing, turn email off for one user in one category.
//
//	POST /unsubscribe/:token  (RFC 8058; any body, e.g. List-Unsubscribe=One-Click) turns
//	                          it off: 200, idempotent; a bad, expired or stale token: 404,
//	                          nothing changed
//	GET  /unsubscribe/:token  a page with one button posting to the same URL; it changes
//	                          nothing itself (link scanners and previews fetch GETs)
//
// Both are rate-limited per client address.
type Unsubscribe struct {
	Service *unsubscribe.Service
	// Limit takes a token of the client address's budget, or says how long until there is
	// one; nil: no limit.
	Limit func(ctx context.Context, client string) (bool, time.Duration)
}

// Register mounts the routes on r (the app's root).
func (u *Unsubscribe) Register(r fiber.Router) {
	limit := rateLimited(u.Limit, u.tooMany)
	r.Get(unsubscribe.Path+":token", limit, u.page)
	r.Post(unsubscribe.Path+":token", limit, u.apply)
}

// tooMany answers past the client address's budget (429).
func (u *Unsubscribe) tooMany(c *fiber.Ctx, secs int) error {
	if !wantsHTML(c) {
		return herald.Errorf(herald.ERATELIMIT, "too many unsubscribe requests from this address; retry after %d s", secs)
	}
	return u.render(c, fiber.StatusTooManyRequests, pageData{Title: "Too many requests", Message: "Too many requests from your address. Please try again in a moment."})
}

func (u *Unsubscribe) page(c *fiber.Ctx) error {
	t, err := u.Service.Describe(c.UserContext(), c.Params("token"))
	if err != nil {
		return u.failed(c, err)
	}
	return u.render(c, fiber.StatusOK, pageData{Title: "Unsubscribe", App: t.AppName, Category: t.CategoryName, Form: true})
}

func (u *Unsubscribe) apply(c *fiber.Ctx) error {
	ctx := c.UserContext()
	token := c.Params("token")
	if err := u.Service.Unsubscribe(ctx, token); err != nil {
		return u.failed(c, err)
	}
	d := pageData{Title: "Unsubscribed", Done: true}
	if t, err := u.Service.Describe(ctx, token); err == nil {
		d.App, d.Category = t.AppName, t.CategoryName
	}
	return u.render(c, fiber.StatusOK, d)
}

// failed answers a bad token with 404, the same for every reason: a page saying so to
// browsers, the error envelope to other clients (mailbox providers); anything else goes
// through the error handler.
func (u *Unsubscribe) failed(c *fiber.Ctx, err error) error {
	if herald.ErrorCode(err) != herald.ENOTFOUND || !wantsHTML(c) {
		return err
	}
	return u.render(c, fiber.StatusNotFound, pageData{Title: "Link not valid", Message: "This unsubscribe link is not valid or has expired. Use the link of a more recent email."})
}

type pageData struct {
	Title, Message, App, Category, Nonce string
	Form, Done                           bool
}

// render writes the page; its CSP allows only its own nonce-tagged style.
func (u *Unsubscribe) render(c *fiber.Ctx, status int, d pageData) error {
	d.Nonce = secrets.Token(16)
	csp := "default-src 'none'; style-src 'nonce-" + d.Nonce + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
	return renderHostedPage(c, status, csp, unsubscribePage, d)
}

var unsubscribePage = template.Must(template.New("unsubscribe").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}}{{if .App}} · {{.App}}{{end}}</title>
<style nonce="{{.Nonce}}">
body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
button{font:inherit;padding:.5rem 1.25rem;border:2px solid #1a1a1a;border-radius:.375rem;background:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
{{- if .Message}}
<p>{{.Message}}</p>
{{- else if .Done}}
<p role="status">You will no longer receive <strong>{{.Category}}</strong> emails{{if .App}} from {{.App}}{{end}}.</p>
{{- else if .Form}}
<p>Stop receiving <strong>{{.Category}}</strong> emails{{if .App}} from {{.App}}{{end}}?</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>
{{- end}}
</main>
</body>
</html>
`))
