package v1

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/audience/appadmin"
	"github.com/heraldhq/herald/internal/console"
	"github.com/heraldhq/herald/internal/console/clients"
)

// signIn checks email and password (LoginByEmailDto) and answers a session, or a 2FA
// challenge; the checked redirect is echoed back.
func (h *Console) signIn(c *fiber.Ctx) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	email, password := b.str("email", true), b.str("password", true)
	var p herald.Problems
	redirect := h.Console.CheckRedirect(c.Query("redirect"), &p)
	if err := b.err(p); err != nil {
		return err
	}
	res, err := h.Console.SignIn(c.UserContext(), email, password, redirect, caller(c))
	if err != nil {
		return err
	}
	return h.signedIn(c, res)
}

// signUp creates an account (SignUpWithCaptchaDTO) and emails the verification link.
func (h *Console) signUp(c *fiber.Ctx) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	in := console.SignUpInput{
		Email: b.str("email", true), Password: b.str("password", true), Name: b.str("name", false),
		CaptchaToken: b.str("captchaToken", h.Console.CaptchaRequired()),
	}
	var p herald.Problems
	in.Redirect = h.Console.CheckRedirect(c.Query("redirect"), &p)
	in.Check(&p)
	if err := b.err(p); err != nil {
		return err
	}
	res, err := h.Console.SignUp(c.UserContext(), in, caller(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(res)
}

// verify confirms an email address with the emailed code and sets the password chosen in
// the same step (VerifyEmailDTO, optional: without one the password set before
// verification is dropped, see console.Service.Verify).
func (h *Console) verify(c *fiber.Ctx) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	password := b.str("password", false)
	var p herald.Problems
	console.CheckPassword("password", password, &p)
	if err := b.err(p); err != nil {
		return err
	}
	u, err := h.Console.Verify(c.UserContext(), param(c, "verificationCode"), password)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// emailAndRedirect reads ResendVerificationEmailDTO and an optional (checked) redirect.
func (h *Console) emailAndRedirect(c *fiber.Ctx, redirectRequired bool) (email, redirect string, err error) {
	b, err := readBody(c)
	if err != nil {
		return "", "", err
	}
	email = b.str("email", true)
	var p herald.Problems
	console.CheckEmail("email", email, &p)
	if raw := c.Query("redirect"); raw != "" || redirectRequired {
		redirect = h.Console.CheckRedirect(raw, &p)
	}
	return email, redirect, b.err(p)
}

// resendVerification emails a new verification link; the answer does not tell whether
// the account exists.
func (h *Console) resendVerification(c *fiber.Ctx) error {
	email, redirect, err := h.emailAndRedirect(c, false)
	if err != nil {
		return err
	}
	if err := h.Console.ResendVerification(c.UserContext(), email, redirect); err != nil {
		return err
	}
	return c.JSON(true)
}

// requestPasswordReset emails a reset link; 201 true whether or not the account exists.
func (h *Console) requestPasswordReset(c *fiber.Ctx) error {
	email, redirect, err := h.emailAndRedirect(c, true)
	if err != nil {
		return err
	}
	if err := h.Console.RequestPasswordReset(c.UserContext(), email, redirect); err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(true)
}

// resetPassword sets a new password with a reset code (ResetPasswordDTO).
func (h *Console) resetPassword(c *fiber.Ctx) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	code, password := b.str("code", true), b.str("password", true)
	var p herald.Problems
	console.CheckPassword("password", password, &p)
	if err := b.err(p); err != nil {
		return err
	}
	if err := h.Console.ResetPassword(c.UserContext(), code, password); err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(true)
}

// refresh trades a refresh token for a new token pair.
func (h *Console) refresh(c *fiber.Ctx) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	tok := b.str("refreshToken", true)
	if err := b.err(); err != nil {
		return err
	}
	s, err := h.Console.Refresh(c.UserContext(), tok)
	if err != nil {
		return err
	}
	return c.JSON(s)
}

// signOut ends the caller's session.
func (h *Console) signOut(c *fiber.Ctx) error {
	if err := h.Console.SignOut(c.UserContext(), web.ConsoleOf(c).Session); err != nil {
		return err
	}
	if fromConsole(c) {
		clearRefreshCookie(c)
	}
	return c.JSON(true)
}

// validate answers "valid" for a working access or CLI token.
func (h *Console) validate(c *fiber.Ctx) error { return c.JSON("valid") }

// me returns the signed-in console user (the creator, for a CLI token).
func (h *Console) me(c *fiber.Ctx) error {
	u, err := h.Console.Me(c.UserContext(), actor(c).UserID)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

func (h *Console) getOnboarding(c *fiber.Ctx) error { return h.me(c) }

// postOnboarding merges the body (UpdateOnBoardingProgessDTO, an object) into the user's
// onboarding progress.
func (h *Console) postOnboarding(c *fiber.Ctx) error {
	u, err := h.Console.UpdateOnboarding(c.UserContext(), actor(c).UserID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(u)
}

// tokenTTL reads the optional expiresIn query parameter (seconds).
func tokenTTL(c *fiber.Ctx, p *herald.Problems) time.Duration {
	secs := web.QueryInt(c, "expiresIn", int(appadmin.DefaultTokenTTL.Seconds()), 60, int(appadmin.MaxTokenTTL.Seconds()), p)
	return time.Duration(secs) * time.Second
}

// appToken mints a secure-mode user token for the app; the user is the userIdentifier
// query parameter, or the caller's own email (to preview the inbox as oneself).
func (h *Console) appToken(c *fiber.Ctx) error {
	var p herald.Problems
	appID := pathID(c, "id", &p)
	ttl := tokenTTL(c, &p)
	if err := p.Err(); err != nil {
		return err
	}
	return h.mint(c, appID, strings.Clone(c.Query("userIdentifier")), ttl)
}

// userToken mints a secure-mode token for a user of the app named by the appId query.
func (h *Console) userToken(c *fiber.Ctx) error {
	var p herald.Problems
	appID := web.QueryInt(c, "appId", 0, 1, 1<<62, &p)
	if c.Query("appId") == "" {
		p.Addf("appId is required")
	}
	ttl := tokenTTL(c, &p)
	if err := p.Err(); err != nil {
		return err
	}
	return h.mint(c, int64(appID), param(c, "identifier"), ttl)
}

func (h *Console) mint(c *fiber.Ctx, appID int64, identifier string, ttl time.Duration) error {
	s, err := h.appAccess(c, appID, clients.Developer)
	if err != nil {
		return err
	}
	if identifier == "" {
		u, err := h.Console.Me(c.UserContext(), actor(c).UserID)
		if err != nil {
			return err
		}
		identifier = u.Email
	}
	tok, err := h.AppAdmin.MintUserToken(c.UserContext(), s.AppID, identifier, ttl)
	if err != nil {
		return err
	}
	return c.JSON(tok)
}
