package v1

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
)

func (h *Configuration) listTemplates(c *fiber.Ctx, s appScope) error {
	list, err := h.Templates.List(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// templateInput reads CreateTemplateDTO {identifier, name, description}; the service
// checks the values.
func templateInput(c *fiber.Ctx) (templates.TemplateInput, error) {
	b, err := readBody(c)
	if err != nil {
		return templates.TemplateInput{}, err
	}
	in := templates.TemplateInput{Identifier: b.str("identifier", false), Description: b.optStr("description")}
	if n := b.optStr("name"); n != nil {
		in.Name = *n
	}
	return in, b.err()
}

func (h *Configuration) createTemplate(c *fiber.Ctx, s appScope) error {
	in, err := templateInput(c)
	if err != nil {
		return err
	}
	t, err := h.Templates.Create(c.UserContext(), s.AppID, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

func (h *Configuration) getTemplate(c *fiber.Ctx, s appScope, id int64) error {
	t, err := h.Templates.Get(c.UserContext(), s.AppID, id)
	if err != nil {
		return err
	}
	return c.JSON(t)
}

// updateTemplate renames a template or changes its description (CreateTemplateDTO; the
// identifier cannot change).
func (h *Configuration) updateTemplate(c *fiber.Ctx, s appScope, id int64) error {
	in, err := templateInput(c)
	if err != nil {
		return err
	}
	t, err := h.Templates.Update(c.UserContext(), s.AppID, id, in)
	if err != nil {
		return err
	}
	return c.JSON(t)
}

func (h *Configuration) deleteTemplate(c *fiber.Ctx, s appScope, id int64) error {
	if err := h.Templates.Delete(c.UserContext(), s.AppID, id); err != nil {
		return err
	}
	return c.JSON(true)
}

// orderContents sets the order of the template's channels (ContentOrderDto {channels}).
func (h *Configuration) orderContents(c *fiber.Ctx, s appScope, id int64) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	chans := b.strings("channels")
	if chans == nil && len(b.p) == 0 {
		b.p.Addf("channels should not be empty")
	}
	if err := b.err(); err != nil {
		return err
	}
	out, err := h.Templates.OrderContents(c.UserContext(), s.AppID, id, chans)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// contentChannel reads :channel of a template content route.
func contentChannel(c *fiber.Ctx) (string, error) {
	ch := param(c, "channel")
	if !herald.IsChannel(ch) {
		return "", herald.Invalid("channel must be one of " + strings.Join(herald.Channels, ", "))
	}
	return ch, nil
}

func (h *Configuration) getContent(c *fiber.Ctx, s appScope, id int64) error {
	ch, err := contentChannel(c)
	if err != nil {
		return err
	}
	out, err := h.Templates.GetContent(c.UserContext(), s.AppID, id, ch)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// putContent sets a channel's content (UpdateTemplateContentDTO {content, layoutIdentifier}).
func (h *Configuration) putContent(c *fiber.Ctx, s appScope, id int64) error {
	ch, err := contentChannel(c)
	if err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	in := templates.ContentInput{Fields: b.object("content")}
	if l := b.optStr("layoutIdentifier"); l != nil {
		in.LayoutIdentifier = *l
	}
	if in.Fields == nil && len(b.p) == 0 {
		b.p.Addf("content should not be empty")
	}
	if err := b.err(); err != nil {
		return err
	}
	out, err := h.Templates.SetContent(c.UserContext(), s.AppID, id, ch, in)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// patchContent changes some fields of a channel's content (PatchTemplateContentDTO
// {content: {field: value or null}, layoutIdentifier}).
func (h *Configuration) patchContent(c *fiber.Ctx, s appScope, id int64) error {
	ch, err := contentChannel(c)
	if err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	patch := templates.ContentPatch{Fields: b.object("content"), LayoutIdentifier: b.optStr("layoutIdentifier")}
	if err := b.err(); err != nil {
		return err
	}
	out, err := h.Templates.PatchContent(c.UserContext(), s.AppID, id, ch, patch)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Configuration) deleteContent(c *fiber.Ctx, s appScope, id int64) error {
	ch, err := contentChannel(c)
	if err != nil {
		return err
	}
	if err := h.Templates.DeleteContent(c.UserContext(), s.AppID, id, ch); err != nil {
		return err
	}
	return c.JSON(true)
}

// putBatchingContent sets the content used for digests (UpdateTemplateContentDTO
// {content}; content null removes it).
func (h *Configuration) putBatchingContent(c *fiber.Ctx, s appScope, id int64) error {
	ch, err := contentChannel(c)
	if err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	fields := b.object("content")
	if _, ok := b.f["content"]; !ok && len(b.p) == 0 {
		b.p.Addf("content should not be empty (null removes the batching content)")
	}
	if err := b.err(); err != nil {
		return err
	}
	out, err := h.Templates.SetBatchingContent(c.UserContext(), s.AppID, id, ch, fields)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// emailFile returns one part of the email content by file name (subject.txt,
// content.html, content.txt, layout.html, layout.txt).
func (h *Configuration) emailFile(c *fiber.Ctx, s appScope, id int64) error {
	f, err := h.Templates.EmailFile(c.UserContext(), s.AppID, id, param(c, "fileName"))
	if err != nil {
		return err
	}
	return c.JSON(f)
}

// duplicateTemplate copies a template (DuplicateTemplateDto {identifier, name, description}).
func (h *Configuration) duplicateTemplate(c *fiber.Ctx, s appScope, id int64) error {
	in, err := templateInput(c)
	if err != nil {
		return err
	}
	t, err := h.Templates.Duplicate(c.UserContext(), s.AppID, id, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

// createContentState declares a state in-app notifications of the template can be set to
// (CreateTemplateContentStateDto {state, label}).
func (h *Configuration) createContentState(c *fiber.Ctx, s appScope, id int64) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	in := templates.StateInput{State: b.str("state", false)}
	if l := b.optStr("label"); l != nil {
		in.Label = *l
	}
	if err := b.err(); err != nil {
		return err
	}
	st, err := h.Templates.CreateContentState(c.UserContext(), s.AppID, id, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(st)
}

// previewTemplate renders the template with sample data (TemplatePreviewDto {channels,
// data, user: {identifier, profile}, batch, contents}); contents replaces stored channel
// contents with unsaved ones.
func (h *Configuration) previewTemplate(c *fiber.Ctx, s appScope, id int64) error {
	in, err := h.previewInput(c, s)
	if err != nil {
		return err
	}
	out, err := h.Templates.Preview(c.UserContext(), s.AppID, id, in)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// previewContent renders content that belongs to no template (a workflow step's inline
// content, as the designer edits it) with sample data: the body of previewTemplate, whose
// contents are the content.
func (h *Configuration) previewContent(c *fiber.Ctx, s appScope) error {
	in, err := h.previewInput(c, s)
	if err != nil {
		return err
	}
	out, err := h.Templates.PreviewInline(c.UserContext(), s.AppID, in)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// previewInput reads a preview's body (TemplatePreviewDto) and the app's name.
func (h *Configuration) previewInput(c *fiber.Ctx, s appScope) (templates.PreviewInput, error) {
	b, err := readBody(c)
	if err != nil {
		return templates.PreviewInput{}, err
	}
	in := templates.PreviewInput{Channels: b.strings("channels"), Data: b.raw("data"), Batch: b.raw("batch")}
	if user := b.object("user"); user != nil {
		ub := &body{f: jsonshape.Fields(user)}
		in.UserIdentifier = ub.str("identifier", false)
		in.Profile = ub.raw("profile")
		for _, m := range ub.p {
			b.p.Addf("user.%s", m)
		}
	}
	if contents := b.object("contents"); contents != nil {
		in.Contents = jsonshape.Fields(contents)
	}
	if err := b.err(); err != nil {
		return templates.PreviewInput{}, err
	}
	app, err := h.Apps.GetInClient(c.UserContext(), s.ClientID, s.AppID)
	if err != nil {
		return templates.PreviewInput{}, err
	}
	in.AppName = app.Name
	return in, nil
}
