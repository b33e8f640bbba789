package api

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// metricsAuth lets through requests carrying token as a bearer token
// (HERALD_METRICS_TOKEN) and answers 401 to the rest. The comparison is of the SHA-256 of
// both values in constant time, so neither the token nor its length leaks through timing.
func metricsAuth(token string) fiber.Handler {
	want := secrets.Hash(token)
	return func(c *fiber.Ctx) error {
		got, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
		if !ok || !secrets.Equal(secrets.Hash(strings.TrimSpace(got)), want) {
			c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="metrics"`)
			return herald.Errorf(herald.EUNAUTHORIZED, "/metrics needs the metrics token (Authorization: Bearer …)")
		}
		return c.Next()
	}
}
