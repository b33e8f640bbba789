package console

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"image/png"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// TOTP parameters (RFC 6238 defaults, which every authenticator app supports).
const (
	totpPeriod = 30
	totpSkew   = 1 // steps accepted either side of now, for clock drift
	// RecoveryCodeCount is how many recovery codes a user gets.
	RecoveryCodeCount = 10
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// TOTPSetup is a new, not yet enabled TOTP secret: scan the QR code (or type the secret)
// into an authenticator app, then confirm with a code.
type TOTPSetup struct {
	Secret     string `json:"secret"`
	OTPAuthURI string `json:"otpauthUri"`
	// QRCodePNG is the otpauth URI as a QR code.
	QRCodePNG []byte `json:"-"`
}

// SetupTOTP creates a pending TOTP secret for the user (replacing an earlier pending one).
func (s *Service) SetupTOTP(ctx context.Context, userID int64) (TOTPSetup, error) {
	row, err := s.db.GetConsoleUser(ctx, userID)
	if err != nil {
		return TOTPSetup{}, db.MapError(err)
	}
	if row.TotpEnabled {
		return TOTPSetup{}, herald.Errorf(herald.ECONFLICT, "two-factor authentication is already enabled: disable it before setting up a new secret")
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "Herald", AccountName: row.Email, Period: totpPeriod, SecretSize: 20})
	if err != nil {
		return TOTPSetup{}, err
	}
	if err := s.db.SetPendingTOTP(ctx, dbsqlc.SetPendingTOTPParams{ID: userID, Sealed: s.box.Seal([]byte(key.Secret()))}); err != nil {
		return TOTPSetup{}, db.MapError(err)
	}
	img, err := key.Image(256, 256)
	if err != nil {
		return TOTPSetup{}, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return TOTPSetup{}, err
	}
	return TOTPSetup{Secret: key.Secret(), OTPAuthURI: key.URL(), QRCodePNG: buf.Bytes()}, nil
}

// matchStep returns the time step whose code equals code, within the allowed skew.
func matchStep(secret, code string, now time.Time) (int64, bool) {
	code = strings.TrimSpace(code)
	if len(code) != 6 {
		return 0, false
	}
	cur := now.Unix() / totpPeriod
	found, step := false, int64(0)
	for d := int64(-totpSkew); d <= totpSkew; d++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix((cur+d)*totpPeriod, 0), totpOpts)
		if err == nil && secrets.Equal([]byte(want), []byte(code)) {
			found, step = true, cur+d
		}
	}
	return step, found
}

// EnableTOTP confirms the pending secret with a code from the app, turns 2FA on and returns
// the recovery codes (shown this once; only their hashes are kept).
func (s *Service) EnableTOTP(ctx context.Context, userID int64, code string) ([]string, error) {
	row, err := s.db.GetConsoleUser(ctx, userID)
	if err != nil {
		return nil, db.MapError(err)
	}
	if row.TotpEnabled {
		return nil, herald.Errorf(herald.ECONFLICT, "two-factor authentication is already enabled")
	}
	if row.TotpPendingSealed == nil {
		return nil, herald.Invalid("no two-factor setup is in progress: call GET /v1/ee/auth/2fa first")
	}
	secret, err := s.box.Open(row.TotpPendingSealed)
	if err != nil {
		return nil, err
	}
	step, ok := matchStep(string(secret), code, s.now())
	if !ok {
		return nil, herald.Invalid("code is not valid")
	}
	codes, hashes := s.newRecoveryCodes()
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		if err := q.EnableTOTP(ctx, dbsqlc.EnableTOTPParams{ID: userID, LastStep: step}); err != nil {
			return db.MapError(err)
		}
		if err := q.ReplaceRecoveryCodes(ctx, dbsqlc.ReplaceRecoveryCodesParams{ConsoleUserID: userID, CodeHashes: hashes}); err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, row, callerOf(ctx), audit.TwoFactorEnabled, nil)
	})
	return codes, err
}

// useTOTP accepts a code of the user's enabled secret once: a code (or an older one) that
// was accepted before is refused.
func (s *Service) useTOTP(ctx context.Context, row dbsqlc.ConsoleUser, code string) (bool, error) {
	if !row.TotpEnabled || row.TotpSecretSealed == nil {
		return false, nil
	}
	secret, err := s.box.Open(row.TotpSecretSealed)
	if err != nil {
		return false, err
	}
	step, ok := matchStep(string(secret), code, s.now())
	if !ok {
		return false, nil
	}
	n, err := s.db.UseTOTPStep(ctx, dbsqlc.UseTOTPStepParams{ID: row.ID, Step: step})
	if err != nil {
		return false, db.MapError(err)
	}
	return n == 1, nil
}

// secondFactorKey throttles the codes that confirm changes to a signed-in account's 2FA
// (disabling it, new recovery codes), so a stolen session cannot guess them.
func secondFactorKey(userID int64) string { return "2fa:" + strconv.FormatInt(userID, 10) }

// confirmSecondFactor checks a code confirming a change to the account's 2FA: a current
// TOTP code (six digits) or an unused recovery code, which is then used up. Wrong codes
// count against the account's limit; while it is locked every code is refused with 429.
func (s *Service) confirmSecondFactor(ctx context.Context, row dbsqlc.ConsoleUser, code string) (string, error) {
	key := secondFactorKey(row.ID)
	if err := s.checkThrottleMsg(ctx, "too many wrong codes: try again later", key); err != nil {
		return "", err
	}
	code = strings.TrimSpace(code)
	if code == "" {
		return "", herald.Invalid("code should not be empty: send a current code of your authenticator app or an unused recovery code")
	}
	method, ok, recovery := methodTOTP, false, false
	if _, err := strconv.Atoi(code); err == nil && len(code) == 6 {
		var err error
		if ok, err = s.useTOTP(ctx, row, code); err != nil {
			return "", err
		}
	} else {
		method, recovery = methodRecoveryCode, true
		n, err := s.db.UseRecoveryCode(ctx, dbsqlc.UseRecoveryCodeParams{ConsoleUserID: row.ID, CodeHash: s.recoveryHash(code)})
		if err != nil {
			return "", db.MapError(err)
		}
		ok = n == 1
	}
	if !ok {
		s.recordFailure(ctx, key, s.cfg.Throttle.AccountMax)
		return "", herald.Invalid("code is not valid")
	}
	if err := s.db.ClearThrottle(ctx, key); err != nil {
		return "", db.MapError(err)
	}
	if recovery {
		if err := s.record(ctx, nil, row, callerOf(ctx), audit.RecoveryCodeUsed, map[string]any{"for": "confirmation"}); err != nil {
			return "", err
		}
	}
	return method, nil
}

// DisableTOTP turns 2FA off after a valid code (a current TOTP code or a recovery code),
// drops the recovery codes and tells the account by email.
func (s *Service) DisableTOTP(ctx context.Context, userID int64, code string) error {
	row, err := s.db.GetConsoleUser(ctx, userID)
	if err != nil {
		return db.MapError(err)
	}
	if !row.TotpEnabled {
		return herald.Errorf(herald.ECONFLICT, "two-factor authentication is not enabled")
	}
	method, err := s.confirmSecondFactor(ctx, row, code)
	if err != nil {
		return err
	}
	from := callerOf(ctx)
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		if err := q.DisableTOTP(ctx, userID); err != nil {
			return db.MapError(err)
		}
		if err := q.DeleteRecoveryCodes(ctx, userID); err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, row, from, audit.TwoFactorDisabled, map[string]any{"confirmedWith": method})
	})
	if err != nil {
		return err
	}
	s.notify(ctx, row, "Two-factor authentication was turned off for your Herald account",
		"Two-factor authentication was just turned off for your Herald account ("+row.Email+"). Signing in now needs only your password.", from)
	return nil
}

// challenged resolves a challenge token to its user and applies the account throttle, so
// six-digit codes cannot be guessed.
func (s *Service) challenged(ctx context.Context, challenge string, from Caller) (dbsqlc.ConsoleUser, *claims, error) {
	c, err := s.parse(challenge, kindChallenge)
	if err != nil {
		return dbsqlc.ConsoleUser{}, nil, unauthorized("invalid or expired sign-in challenge: sign in again")
	}
	row, err := s.db.GetConsoleUser(ctx, c.userID())
	if err != nil {
		return dbsqlc.ConsoleUser{}, nil, db.MapError(err)
	}
	if err := s.checkThrottle(ctx, s.throttleKeys(row.Email, from)...); err != nil {
		return dbsqlc.ConsoleUser{}, nil, err
	}
	return row, c, nil
}

// CompleteTOTP finishes a sign-in with a TOTP code.
func (s *Service) CompleteTOTP(ctx context.Context, challenge, code string, from Caller) (SignInResult, error) {
	row, c, err := s.challenged(ctx, challenge, from)
	if err != nil {
		return SignInResult{}, err
	}
	ok, err := s.useTOTP(ctx, row, code)
	if err != nil {
		return SignInResult{}, err
	}
	if !ok {
		s.failSignIn(ctx, row.Email, from)
		s.recordRefusal(ctx, row, from, "wrong_totp_code")
		return SignInResult{}, unauthorized("the code is not valid (or was already used)")
	}
	return s.finish(ctx, row, c.Redirect, from, methodTOTP)
}

// CompleteRecovery finishes a sign-in with a recovery code, which then stops working.
func (s *Service) CompleteRecovery(ctx context.Context, challenge, code string, from Caller) (SignInResult, error) {
	row, c, err := s.challenged(ctx, challenge, from)
	if err != nil {
		return SignInResult{}, err
	}
	n, err := s.db.UseRecoveryCode(ctx, dbsqlc.UseRecoveryCodeParams{ConsoleUserID: row.ID, CodeHash: s.recoveryHash(code)})
	if err != nil {
		return SignInResult{}, db.MapError(err)
	}
	if n != 1 {
		s.failSignIn(ctx, row.Email, from)
		s.recordRefusal(ctx, row, from, "wrong_recovery_code")
		return SignInResult{}, unauthorized("the recovery code is not valid (or was already used)")
	}
	left, err := s.db.CountRecoveryCodes(ctx, row.ID)
	if err != nil {
		return SignInResult{}, db.MapError(err)
	}
	if err := s.record(ctx, nil, row, from, audit.RecoveryCodeUsed, map[string]any{"for": "sign-in", "remaining": left}); err != nil {
		return SignInResult{}, err
	}
	return s.finish(ctx, row, c.Redirect, from, methodRecoveryCode)
}

func (s *Service) finish(ctx context.Context, row dbsqlc.ConsoleUser, redirect string, from Caller, method string) (SignInResult, error) {
	if err := s.db.ClearThrottle(ctx, accountKey(row.Email)); err != nil {
		return SignInResult{}, db.MapError(err)
	}
	sess, err := s.startSession(ctx, row, from)
	if err != nil {
		return SignInResult{}, err
	}
	if err := s.record(ctx, nil, row, from, audit.SignIn, map[string]any{"method": method}); err != nil {
		return SignInResult{}, err
	}
	return SignInResult{Session: sess, Redirect: redirect}, nil
}

// RecoveryCodesLeft answers how many unused recovery codes the user has (reading changes
// nothing, so it needs no code).
func (s *Service) RecoveryCodesLeft(ctx context.Context, userID int64) (int, error) {
	row, err := s.db.GetConsoleUser(ctx, userID)
	if err != nil {
		return 0, db.MapError(err)
	}
	if !row.TotpEnabled {
		return 0, herald.Errorf(herald.ECONFLICT, "two-factor authentication is not enabled")
	}
	n, err := s.db.CountRecoveryCodes(ctx, userID)
	return int(n), db.MapError(err)
}

// RegenerateRecoveryCodes replaces the user's recovery codes with a new set, shown once.
// It needs a current TOTP code or an unused recovery code: a stolen session (and password)
// alone must not be able to take over the second factor. The account is told by email.
func (s *Service) RegenerateRecoveryCodes(ctx context.Context, userID int64, code string) ([]string, error) {
	row, err := s.db.GetConsoleUser(ctx, userID)
	if err != nil {
		return nil, db.MapError(err)
	}
	if !row.TotpEnabled {
		return nil, herald.Errorf(herald.ECONFLICT, "two-factor authentication is not enabled")
	}
	method, err := s.confirmSecondFactor(ctx, row, code)
	if err != nil {
		return nil, err
	}
	from := callerOf(ctx)
	codes, hashes := s.newRecoveryCodes()
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		if err := q.ReplaceRecoveryCodes(ctx, dbsqlc.ReplaceRecoveryCodesParams{ConsoleUserID: userID, CodeHashes: hashes}); err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, row, from, audit.RecoveryCodesRegenerated, map[string]any{"confirmedWith": method})
	})
	if err != nil {
		return nil, err
	}
	s.notify(ctx, row, "New recovery codes for your Herald account",
		fmt.Sprintf("A new set of %d two-factor recovery codes was just issued for your Herald account (%s). The earlier codes no longer work.", RecoveryCodeCount, row.Email), from)
	return codes, nil
}

// recoveryAlphabet avoids look-alike characters.
const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

func (s *Service) newRecoveryCodes() (codes []string, hashes [][]byte) {
	for range RecoveryCodeCount {
		var b strings.Builder
		for i := range 12 {
			if i == 6 {
				b.WriteByte('-')
			}
			n, err := rand.Int(rand.Reader, big.NewInt(int64(len(recoveryAlphabet))))
			if err != nil {
				panic("console: no randomness: " + err.Error())
			}
			b.WriteByte(recoveryAlphabet[n.Int64()])
		}
		codes = append(codes, b.String())
		hashes = append(hashes, s.recoveryHash(b.String()))
	}
	return codes, hashes
}

// recoveryHash keys the hash with the signing key, so a copy of the database alone does not
// allow guessing codes offline.
func (s *Service) recoveryHash(code string) []byte {
	norm := strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(code)))
	mac := hmac.New(sha256.New, s.cfg.SigningKey)
	mac.Write([]byte("recovery:" + norm))
	return mac.Sum(nil)
}
