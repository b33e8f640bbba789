package v1

import (
	"math"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/console/clients"
)

// uncommitted pages through the app's changes since its last commit (page, limit).
func (h *Configuration) uncommitted(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	page, limit := pageQuery(c, "page", &p)
	if err := p.Err(); err != nil {
		return err
	}
	out, err := h.Commits.Uncommitted(c.UserContext(), s.AppID, page, limit)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// createCommit snapshots the app's configuration with a message (CommitChangeDTO
// {message}).
func (h *Configuration) createCommit(c *fiber.Ctx, s appScope) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	msg := b.str("message", false)
	if err := b.err(); err != nil {
		return err
	}
	out, err := h.Commits.Create(c.UserContext(), s.AppID, actor(c).UserID, msg)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(out)
}

// listCommits pages through the app's commits (page, limit; publishTo keeps those
// published to that app).
func (h *Configuration) listCommits(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	page, limit := pageQuery(c, "page", &p)
	publishTo := web.QueryInt(c, "publishTo", 0, 1, math.MaxInt, &p)
	if err := p.Err(); err != nil {
		return err
	}
	out, err := h.Commits.List(c.UserContext(), s.AppID, int64(publishTo), page, limit)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// publish applies a commit of this app to an app of the same client (PublishCommitDTO
// {commitId, publishTo}); admins only. Publishing an older commit rolls back.
func (h *Configuration) publish(c *fiber.Ctx, s appScope) error {
	commitID, target, err := h.publishBody(c, s)
	if err != nil {
		return err
	}
	out, err := h.Commits.Publish(c.UserContext(), s.AppID, commitID, target, actor(c).UserID)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// previewPublish answers what publishing a commit would change in the target app
// ({changes}), changing nothing: the same body and roles as publish.
func (h *Configuration) previewPublish(c *fiber.Ctx, s appScope) error {
	commitID, target, err := h.publishBody(c, s)
	if err != nil {
		return err
	}
	changes, err := h.Commits.Preview(c.UserContext(), s.AppID, commitID, target)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"commitId": commitID, "publishTo": target, "changes": changes})
}

// publishBody reads PublishCommitDTO: the commit and the target, an app of the same
// client where the caller is an admin too (other clients' apps are not found).
func (h *Configuration) publishBody(c *fiber.Ctx, s appScope) (commitID, target int64, err error) {
	b, err := readBody(c)
	if err != nil {
		return 0, 0, err
	}
	cid, tid := b.integer("commitId"), b.integer("publishTo")
	if cid == nil && !b.has("commitId") {
		b.p.Addf("commitId should not be empty")
	}
	if tid == nil && !b.has("publishTo") {
		b.p.Addf("publishTo should not be empty")
	}
	if cid != nil && *cid < 1 {
		b.p.Addf("commitId must be a positive integer")
	}
	if tid != nil && *tid < 1 {
		b.p.Addf("publishTo must be a positive integer")
	}
	if err := b.err(); err != nil {
		return 0, 0, err
	}
	to, err := h.appAccess(c, int64(*tid), clients.Admin)
	if err != nil {
		return 0, 0, err
	}
	if to.ClientID != s.ClientID {
		return 0, 0, herald.NotFound("app")
	}
	return int64(*cid), to.AppID, nil
}
