package v3

import (
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

var localeRE = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// inAppTranslations returns the inbox UI strings for the caller's locale: ?locale= when
// given, else the user's profile.locale.
func (h *Handlers) inAppTranslations(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	locale := strings.Clone(c.Query("locale"))
	if locale == "" {
		profile, err := h.Users.Profile(c.UserContext(), p.App.ID, p.UserID)
		if err != nil {
			return err
		}
		locale, _ = js.String(js.Fields(profile)["locale"])
	} else if !localeRE.MatchString(locale) {
		return herald.Invalid("locale must be a language tag such as en or pt-BR")
	}
	out, err := h.Templates.InApp(c.UserContext(), p.App.ID, locale)
	if err != nil {
		return err
	}
	return c.JSON(out)
}
