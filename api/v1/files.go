package v1

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/console/files"
)

// uploadFile stores a multipart upload: field "file", optional fields "folder" (uploads,
// workflows or layouts; uploads by default) and "clientId" (may be omitted by callers with
// one client, and by CLI tokens).
func (h *Console) uploadFile(c *fiber.Ctx) error {
	var p herald.Problems
	fh, err := c.FormFile("file")
	if err != nil {
		p.Addf("file is required (a multipart/form-data field named file)")
	}
	folder := c.FormValue("folder", files.Uploads)
	rawClient := c.FormValue("clientId", c.Query("clientId"))
	var clientID int64
	if rawClient != "" {
		if clientID, err = strconv.ParseInt(rawClient, 10, 64); err != nil || clientID <= 0 {
			p.Addf("clientId must be a positive integer")
		}
	}
	if err := p.Err(); err != nil {
		return err
	}
	if clientID == 0 {
		if clientID, err = h.Clients.DefaultClient(c.UserContext(), actor(c)); err != nil {
			return err
		}
	}
	if _, err := h.Clients.Access(c.UserContext(), actor(c), clientID, clients.Developer); err != nil {
		return err
	}
	rd, err := fh.Open()
	if err != nil {
		return err
	}
	defer rd.Close()
	f, err := h.Files.Put(c.UserContext(), files.Upload{
		ClientID: clientID, CreatedBy: actor(c).UserID, Folder: folder,
		OriginalName: fh.Filename, Size: fh.Size, Content: rd,
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(f)
}

// file finds a file the caller may act on with at least min; other clients' files are not
// found.
func (h *Console) file(c *fiber.Ctx, folder string, min clients.Role) (files.File, error) {
	f, err := h.Files.Lookup(c.UserContext(), folder, c.Params("filename"))
	if err != nil {
		return f, err
	}
	if _, err := h.Clients.Access(c.UserContext(), actor(c), f.ClientID, min); err != nil {
		if herald.ErrorCode(err) == herald.ENOTFOUND {
			return f, herald.NotFound("file")
		}
		return f, err
	}
	return f, nil
}

// serve streams a file with headers that stop a browser from running it as a page.
func (h *Console) serve(c *fiber.Ctx, f files.File) error {
	rc, err := h.Files.Open(c.UserContext(), f)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, f.ContentType)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; sandbox")
	if files.Public(f.Folder) {
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "private, no-cache")
		c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+f.Name+`"`)
	}
	return c.SendStream(rc, int(f.Size))
}

// publicFile serves an image of the uploads folder without credentials: notifications
// and emails link to it, and its name is unguessable.
func (h *Console) publicFile(c *fiber.Ctx) error {
	f, err := h.Files.Lookup(c.UserContext(), files.Uploads, c.Params("filename"))
	if err != nil {
		return err
	}
	return h.serve(c, f)
}

// folderFile serves a file of a members-only folder.
func (h *Console) folderFile(folder string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		f, err := h.file(c, folder, clients.Viewer)
		if err != nil {
			return err
		}
		return h.serve(c, f)
	}
}

func (h *Console) getFile(c *fiber.Ctx) error {
	f, err := h.file(c, "", clients.Viewer)
	if err != nil {
		return err
	}
	return h.serve(c, f)
}

func (h *Console) deleteFile(c *fiber.Ctx) error {
	f, err := h.file(c, "", clients.Developer)
	if err != nil {
		return err
	}
	if err := h.Files.Delete(c.UserContext(), f); err != nil {
		return err
	}
	return c.JSON(true)
}
