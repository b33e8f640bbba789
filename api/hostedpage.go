package api

import (
	"context"
	"html/template"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
)

// What the pages Herald serves to email recipients without a login share: the one-click
// unsubscribe page (unsubscribe.go) and the hosted preference page (prefpage.go). The
// signed token in the path is their only credential, so they are rate-limited per client
// address and keep to themselves (their own CSP, no framing, no referrer, no caching).

// hostedLimit takes a token of the client address's budget, or says how long until there
// is one.
type hostedLimit func(ctx context.Context, client string) (bool, time.Duration)

// rateLimited answers past the client address's budget: Retry-After (whole seconds), and
// refuse's answer (a page or the error envelope). A nil limit lets every call through.
func rateLimited(limit hostedLimit, refuse func(c *fiber.Ctx, secs int) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if limit == nil {
			return c.Next()
		}
		ok, wait := limit(c.UserContext(), web.ClientIPOf(c))
		if ok {
			return c.Next()
		}
		secs := int(math.Ceil(wait.Seconds()))
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(secs))
		return refuse(c, secs)
	}
}

// renderHostedPage writes a page with headers that keep it to itself: the page's CSP
// (its own style only, form posts to itself), no framing, no referrer (the URL holds the
// token), no sniffing, no caching.
func renderHostedPage(c *fiber.Ctx, status int, csp string, t *template.Template, data any) error {
	c.Set(fiber.HeaderContentSecurityPolicy, csp)
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return err
	}
	return c.Status(status).SendString(b.String())
}

// wantsHTML tells a browser (Accept names text/html) from a mailbox provider's or a
// script's call.
func wantsHTML(c *fiber.Ctx) bool {
	return strings.Contains(c.Get(fiber.HeaderAccept), fiber.MIMETextHTML)
}
