package v1

import (
	"encoding/base64"
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/console"
)

// setupTwoFactor starts 2FA setup: a new secret as otpauth URI and QR code. With
// "Accept: image/png" the answer is the QR code itself.
func (h *Console) setupTwoFactor(c *fiber.Ctx) error {
	s, err := h.Console.SetupTOTP(c.UserContext(), actor(c).UserID)
	if err != nil {
		return err
	}
	if c.Accepts(fiber.MIMEApplicationJSON, "image/png") == "image/png" {
		c.Set(fiber.HeaderContentType, "image/png")
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Send(s.QRCodePNG)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"secret": s.Secret, "otpauthUri": s.OTPAuthURI,
		"qrCode": "data:image/png;base64," + base64.StdEncoding.EncodeToString(s.QRCodePNG)})
}

// readCode reads TotpDto {code}.
func readCode(c *fiber.Ctx, field string) (string, error) {
	b, err := readBody(c)
	if err != nil {
		return "", err
	}
	code := b.str(field, true)
	return strings.TrimSpace(code), b.err()
}

// enableTwoFactor confirms the pending secret with a code and returns the recovery codes.
func (h *Console) enableTwoFactor(c *fiber.Ctx) error {
	code, err := readCode(c, "code")
	if err != nil {
		return err
	}
	codes, err := h.Console.EnableTOTP(c.UserContext(), actor(c).UserID, code)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"enabled": true, "recoveryCodes": codes})
}

// disableTwoFactor turns 2FA off with a valid code.
func (h *Console) disableTwoFactor(c *fiber.Ctx) error {
	code, err := readCode(c, "code")
	if err != nil {
		return err
	}
	if err := h.Console.DisableTOTP(c.UserContext(), actor(c).UserID, code); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"enabled": false})
}

// TwoFactorCodeHeader carries the code that confirms a new set of recovery codes, as an
// alternative to the code query parameter.
const TwoFactorCodeHeader = "X-Two-Factor-Code"

// recoveryCodes answers how many unused recovery codes are left; with a confirming code
// (query parameter code, or the X-Two-Factor-Code header: a current TOTP code or an unused
// recovery code) it issues a new set instead, and the old ones stop working. Stored codes
// are hashed and cannot be shown again.
func (h *Console) recoveryCodes(c *fiber.Ctx) error {
	code := strings.TrimSpace(c.Query("code"))
	if code == "" {
		code = strings.TrimSpace(c.Get(TwoFactorCodeHeader))
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	if code == "" {
		n, err := h.Console.RecoveryCodesLeft(c.UserContext(), actor(c).UserID)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"remaining": n, "total": console.RecoveryCodeCount})
	}
	codes, err := h.Console.RegenerateRecoveryCodes(c.UserContext(), actor(c).UserID, strings.Clone(code))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"recoveryCodes": codes, "remaining": len(codes), "total": console.RecoveryCodeCount})
}

// challenge reads the sign-in challenge token sent as the bearer token.
func challenge(c *fiber.Ctx) (string, error) {
	tok := web.Bearer(c)
	if tok == "" {
		return "", herald.Errorf(herald.EUNAUTHORIZED, "send the challengeToken of the sign-in answer as Authorization: Bearer <token>")
	}
	return tok, nil
}

// completeTwoFactor finishes a sign-in with a TOTP code.
func (h *Console) completeTwoFactor(c *fiber.Ctx) error {
	tok, err := challenge(c)
	if err != nil {
		return err
	}
	code, err := readCode(c, "code")
	if err != nil {
		return err
	}
	res, err := h.Console.CompleteTOTP(c.UserContext(), tok, code, caller(c))
	if err != nil {
		return err
	}
	return h.signedIn(c, res)
}

// completeRecovery finishes a sign-in with a recovery code (LoginWithRecoveryDto).
func (h *Console) completeRecovery(c *fiber.Ctx) error {
	tok, err := challenge(c)
	if err != nil {
		return err
	}
	code, err := readCode(c, "recoveryCode")
	if err != nil {
		return err
	}
	res, err := h.Console.CompleteRecovery(c.UserContext(), tok, code, caller(c))
	if err != nil {
		return err
	}
	return h.signedIn(c, res)
}

// codeHostOptions answers which code hosts the sign-in page offers ({codeHosts: []} when
// code-host sign-in is not configured), so a browser can show its buttons without an error.
func (h *Console) codeHostOptions(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"codeHosts": h.Console.CodeHostOptions()})
}

// startCodeHost returns the code host's authorization URL and the state to hand back, and
// binds the state to this browser with a nonce cookie.
func (h *Console) startCodeHost(c *fiber.Ctx) error {
	var p herald.Problems
	redirect := h.Console.CheckRedirect(c.Query("redirect"), &p)
	if err := p.Err(); err != nil {
		return err
	}
	s, err := h.Console.StartCodeHost(redirect)
	if err != nil {
		return err
	}
	h.setNonceCookie(c, s.Nonce, console.CodeHostStateTTL)
	return c.JSON(s)
}

// codeHostSignIn completes code-host sign-in with the authorization code and state; the
// state must have been issued to this browser (its nonce cookie).
func (h *Console) codeHostSignIn(c *fiber.Ctx) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	code, state := b.str("code", true), b.str("state", true)
	if err := b.err(); err != nil {
		return err
	}
	nonce := strings.Clone(c.Cookies(CodeHostNonceCookie))
	res, err := h.Console.SignInWithCodeHost(c.UserContext(), code, state, nonce, caller(c))
	if err != nil {
		return err
	}
	h.setNonceCookie(c, "", 0)
	return h.signedIn(c, res)
}
