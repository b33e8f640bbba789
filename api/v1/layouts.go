package v1

import (
	"math"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/console/commits"
	"github.com/heraldhq/herald/internal/delivery/templates"
)

// Page sizes of the configuration lists.
const (
	defaultPageLimit = 20
	maxPageLimit     = 100
)

// pageQuery reads page (1-based) and limit.
func pageQuery(c *fiber.Ctx, pageName string, p *herald.Problems) (int, int) {
	page := web.QueryInt(c, pageName, 1, 1, math.MaxInt32/maxPageLimit, p)
	limit := web.QueryInt(c, "limit", defaultPageLimit, 1, maxPageLimit, p)
	return page, limit
}

// layoutInput reads CreateLayoutDTO {identifier, name, html, text, default}.
func layoutInput(c *fiber.Ctx) (templates.LayoutInput, error) {
	b, err := readBody(c)
	if err != nil {
		return templates.LayoutInput{}, err
	}
	in := templates.LayoutInput{Identifier: b.str("identifier", false), HTML: b.str("html", false), Text: b.str("text", false), Default: b.boolean("default")}
	if n := b.optStr("name"); n != nil {
		in.Name = *n
	}
	return in, b.err()
}

func (h *Configuration) createLayout(c *fiber.Ctx, s appScope) error {
	in, err := layoutInput(c)
	if err != nil {
		return err
	}
	l, err := h.Templates.CreateLayout(c.UserContext(), s.AppID, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(layoutView{Layout: l})
}

func (h *Configuration) updateLayout(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	id := pathID(c, "layoutId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	in, err := layoutInput(c)
	if err != nil {
		return err
	}
	l, err := h.Templates.UpdateLayout(c.UserContext(), s.AppID, id, in)
	if err != nil {
		return err
	}
	return c.JSON(layoutView{Layout: l})
}

func (h *Configuration) deleteLayout(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	id := pathID(c, "layoutId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := h.Templates.DeleteLayout(c.UserContext(), s.AppID, id); err != nil {
		return err
	}
	return c.JSON(true)
}

// layoutView is a layout with whether it is published: unchanged since the app's last
// commit (or the last commit published to it).
type layoutView struct {
	templates.Layout
	Published bool `json:"published"`
}

// listLayouts lists the app's layouts; ?published=true keeps the committed ones,
// ?published=false the ones with uncommitted changes.
func (h *Configuration) listLayouts(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	published := queryBool(c, "published", &p)
	if err := p.Err(); err != nil {
		return err
	}
	list, err := h.Templates.ListLayouts(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	changed, err := h.Commits.Changed(c.UserContext(), s.AppID, commits.TypeLayout)
	if err != nil {
		return err
	}
	out := []layoutView{}
	for _, l := range list {
		v := layoutView{Layout: l, Published: !changed[l.Identifier]}
		if published == nil || *published == v.Published {
			out = append(out, v)
		}
	}
	return c.JSON(out)
}

func (h *Configuration) defaultLayout(c *fiber.Ctx, s appScope) error {
	l, err := h.Templates.DefaultLayout(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	changed, err := h.Commits.Changed(c.UserContext(), s.AppID, commits.TypeLayout)
	if err != nil {
		return err
	}
	return c.JSON(layoutView{Layout: l, Published: !changed[l.Identifier]})
}

// clientEmailLayouts lists Herald's starter layouts and the layouts of the client's apps.
func (h *Configuration) clientEmailLayouts(c *fiber.Ctx) error {
	var p herald.Problems
	clientID := pathID(c, "clientId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	if _, err := h.Clients.Access(c.UserContext(), actor(c), clientID, clients.Viewer); err != nil {
		return err
	}
	list, err := h.Templates.ClientLayouts(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// createTranslation creates or replaces a locale's strings (CreateTranslationDTO {locale,
// entries, default}).
func (h *Configuration) createTranslation(c *fiber.Ctx, s appScope) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	locale := b.str("locale", true)
	in := templates.TranslationInput{Entries: b.raw("entries")}
	if d := b.boolean("default"); d != nil {
		in.Default = *d
	}
	if err := b.err(); err != nil {
		return err
	}
	t, err := h.Templates.PutTranslation(c.UserContext(), s.AppID, locale, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

// pagination describes a page of a list answer ({pagination, data}).
type pagination struct {
	TotalCount int `json:"totalCount"`
	Page       int `json:"page"`
	Limit      int `json:"limit"`
}

// translationPage is a page of an app's translations.
type translationPage struct {
	Pagination pagination              `json:"pagination"`
	Data       []templates.Translation `json:"data"`
}

func (h *Configuration) listTranslations(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	page, limit := pageQuery(c, "page", &p)
	if err := p.Err(); err != nil {
		return err
	}
	list, total, err := h.Templates.ListTranslations(c.UserContext(), s.AppID, page, limit)
	if err != nil {
		return err
	}
	return c.JSON(translationPage{Pagination: pagination{TotalCount: total, Page: page, Limit: limit}, Data: list})
}

func (h *Configuration) defaultTranslation(c *fiber.Ctx, s appScope) error {
	t, err := h.Templates.DefaultTranslation(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(t)
}
