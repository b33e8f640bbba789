package security

import (
	"bytes"
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// logBuffer collects a stack's log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestSecretsAtRestAndInLogs runs the world, an e-mail delivery through an SMTP server that
// requires a password, and failed attempts carrying secrets, on a stack logging at debug
// level into a buffer. Then it reads the raw rows: API secrets, provider credentials, RSA
// and VAPID private keys and TOTP secrets are sealed (they open with the secret key to the
// original); passwords are argon2id hashes; recovery codes, CLI tokens, refresh tokens,
// invitation and verification codes are stored only as hashes. No secret appears in any
// row of any table, in plain, hex or base64 form, nor anywhere in the log; nor do the
// installation's secrets (HERALD_SECRET_KEY, the Stripe keys, the license signing key).
func TestSecretsAtRestAndInLogs(t *testing.T) {
	logs := &logBuffer{}
	w := newWorldWith(t, stacktest.Options{Temporal: true, Log: logs})
	e, a := w.e, w.a
	ctx := context.Background()
	db := e.Stack.DB.Pool
	var plain []string // every secret the test knows, to look for in rows and logs

	// Provider credentials: a real delivery through an SMTP server requiring them, from an
	// app of its own (the world's apps route e-mail to an instance nobody listens at).
	mailer := e.NewApp("mailer")
	mail := smtptest.Start(t)
	mail.Username, mail.Password = "herald", "smtp-"+secrets.Token(12)
	cfg, _ := json.Marshal(map[string]any{"host": mail.Host, "port": mail.Port, "security": "none", "from": "noreply@a.example",
		"username": mail.Username, "password": mail.Password})
	inst, err := e.Stack.Channels.CreateInstance(ctx, mailer.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "authenticated smtp", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	plain = append(plain, mail.Password, mailer.APISecret)
	hook := "hook-" + secrets.Token(12)
	if _, err := e.Stack.Channels.CreateInstance(ctx, a.app, "webhook", channels.InstanceInput{Provider: "webhook", Name: "signed hook",
		Config: []byte(`{"url":"https://hooks.example/x","secret":"` + hook + `"}`)}); err != nil {
		t.Fatal(err)
	}
	plain = append(plain, hook)
	e.Must(e.Do("POST", "/v3/notifications", `{"notification":{"title":"Receipt"},"override":{"channels":["email"]},"sendTo":{"recipients":[{"identifier":"mailed","email":"mailed@a.example"}]}}`,
		stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": mailer.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": mailer.APISecret}), 202, "send an e-mail")
	e.Eventually(60*time.Second, "the e-mail through the authenticated SMTP server", func() bool { return mail.Count("mailed@a.example") == 1 })

	// A delivery whose credentials the server refuses: the provider's error goes to the
	// message log and the worker's log, never the password.
	refused := e.NewApp("refused mailer")
	wrong := "wrong-" + secrets.Token(12)
	cfg, _ = json.Marshal(map[string]any{"host": mail.Host, "port": mail.Port, "security": "none", "from": "noreply@a.example",
		"username": mail.Username, "password": wrong})
	if _, err := e.Stack.Channels.CreateInstance(ctx, refused.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "refused smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	plain = append(plain, wrong, refused.APISecret)
	e.Must(e.Do("POST", "/v3/notifications", `{"notification":{"title":"Receipt"},"override":{"channels":["email"]},"sendTo":{"recipients":[{"identifier":"refused","email":"refused@a.example"}]}}`,
		stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": refused.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": refused.APISecret}), 202, "send with refused credentials")
	e.Eventually(60*time.Second, "the refused attempt in the message log", func() bool {
		var n int
		_ = db.QueryRow(ctx, "SELECT count(*) FROM message_logs WHERE app_id = $1 AND error IS NOT NULL", refused.AppID).Scan(&n)
		return n > 0
	})

	// Keys: RSA (made by the world), VAPID (made on first use).
	rsaKey, err := e.Stack.Apps.RSAPrivateKey(ctx, a.app)
	if err != nil {
		t.Fatal(err)
	}
	vapid, err := e.Stack.Apps.VAPIDKeys(ctx, a.app)
	if err != nil {
		t.Fatal(err)
	}
	// The private exponent, and the PEM header no stored public key has.
	plain = append(plain, hex.EncodeToString(rsaKey.D.Bytes())[:64], "PRIVATE KEY", vapid.PrivateKey)

	// Console secrets: a password, TOTP secret and recovery codes, CLI token, refresh
	// token, invitation code.
	kim := w.console.User("kim@a.example", password)
	setup := e.Must(e.Do("GET", "/v1/ee/auth/2fa", nil, stacktest.Bearer(kim.AccessToken)), 200, "2fa setup").Map(t)
	totpSecret := setup["secret"].(string)
	code, _ := totp.GenerateCode(totpSecret, time.Now())
	enabled := e.Must(e.Do("PATCH", "/v1/ee/auth/2fa/enable", map[string]string{"code": code}, stacktest.Bearer(kim.AccessToken)), 200, "enable 2fa").Map(t)
	for _, c := range enabled["recoveryCodes"].([]any) {
		plain = append(plain, c.(string))
	}
	// E-mailed codes: the verification code of kim's sign-up, a password reset code.
	plain = append(plain, w.console.Mail.Last(t, "kim@a.example").Find(t, `verificationCode=([A-Za-z0-9_-]+)`))
	e.Must(e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": "kim@a.example"}, nil), 201, "password reset request")
	plain = append(plain, w.console.Mail.Last(t, "kim@a.example").Find(t, `resetCode=([A-Za-z0-9_-]+)`))
	plain = append(plain, password, totpSecret, a.creds.APISecret, w.b.creds.APISecret, a.cliToken, a.login.RefreshToken, kim.RefreshToken, a.invitationCode)

	// Failed attempts carrying secrets, which a careless log line would repeat.
	e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "kim@a.example", "password": "wrong-" + password}, nil)
	e.Do("GET", "/v3/notifications", nil, stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": a.creds.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": a.creds.APISecret + "x"})
	e.Do("GET", "/v1/auth/me", nil, stacktest.Bearer(a.cliToken+"x"))

	// Sealed columns open, with the stack's key, to the secrets.
	box := e.Stack.Box
	var apiSealed, rsaSealed, vapidSealed, providerSealed, totpSealed []byte
	if err := db.QueryRow(ctx, "SELECT api_secret_sealed, rsa_private_key_sealed, vapid_private_key_sealed FROM apps WHERE id = $1", a.app).Scan(&apiSealed, &rsaSealed, &vapidSealed); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, "SELECT secrets_sealed FROM provider_instances WHERE id = $1", inst.ID).Scan(&providerSealed); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, "SELECT totp_secret_sealed FROM console_users WHERE lower(email) = 'kim@a.example'").Scan(&totpSealed); err != nil {
		t.Fatal(err)
	}
	opens := func(what string, sealed []byte, want func(string) bool) {
		t.Helper()
		got, err := box.Open(sealed)
		if err != nil || !want(string(got)) {
			t.Errorf("%s: the sealed column does not open to the secret (%v)", what, err)
		}
	}
	opens("API secret", apiSealed, func(s string) bool { return s == a.creds.APISecret })
	opens("RSA private key", rsaSealed, func(s string) bool { return privateKeyEqual(s, rsaKey) })
	opens("VAPID private key", vapidSealed, func(s string) bool { return s == vapid.PrivateKey })
	opens("SMTP password", providerSealed, func(s string) bool { return strings.Contains(s, mail.Password) })
	opens("TOTP secret", totpSealed, func(s string) bool { return strings.Contains(s, totpSecret) })

	// Passwords are argon2id hashes.
	var hash string
	if err := db.QueryRow(ctx, "SELECT password_hash FROM console_users WHERE lower(email) = 'kim@a.example'").Scan(&hash); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$") {
		t.Errorf("password stored as %.12q…, want an argon2id hash", hash)
	}

	// CLI tokens are kept as their SHA-256; recovery codes as keyed 32-byte hashes.
	var tokenHash []byte
	if err := db.QueryRow(ctx, "SELECT token_hash FROM cli_tokens WHERE id = $1", a.cliTokenID).Scan(&tokenHash); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tokenHash, secrets.Hash(a.cliToken)) {
		t.Error("the CLI token is not stored as its SHA-256")
	}
	var codes, hashed int
	if err := db.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE length(code_hash) = 32) FROM console_recovery_codes c
		JOIN console_users u ON u.id = c.console_user_id WHERE lower(u.email) = 'kim@a.example'`).Scan(&codes, &hashed); err != nil {
		t.Fatal(err)
	}
	if codes != 10 || hashed != 10 {
		t.Errorf("%d recovery codes stored, %d of them as 32-byte hashes; want 10 and 10", codes, hashed)
	}

	// No secret in any row of any table, in any usual encoding.
	dump := dumpDatabase(t, w)
	found := 0
	for _, s := range plain {
		for _, form := range encodings(s) {
			if strings.Contains(dump, form) {
				found++
				t.Errorf("a secret (%.6s…) is stored readable in the database", s)
				break
			}
		}
	}
	// Nor in the log.
	text := logs.String()
	for _, s := range plain {
		for _, form := range encodings(s) {
			if strings.Contains(text, form) {
				t.Errorf("a secret (%.6s…) appears in the log", s)
				break
			}
		}
	}
	// Nor the installation's own secrets (the world bills through Stripe and signs licenses).
	ops := e.Cfg.Ops
	for name, s := range map[string]string{"HERALD_SECRET_KEY": e.Cfg.SecretKey, "HERALD_STRIPE_SECRET_KEY": ops.StripeSecretKey,
		"HERALD_STRIPE_WEBHOOK_SECRET": ops.StripeWebhookSecret, "HERALD_LICENSE_SIGNING_KEY": ops.LicenseSigningKey} {
		for _, form := range encodings(s) {
			if strings.Contains(text, form) || strings.Contains(dump, form) {
				t.Errorf("%s appears in the log or the database", name)
				break
			}
		}
	}
	t.Logf("%d secrets and 4 installation secrets checked against %d bytes of rows and %d bytes of debug log (%d lines): none readable; 5 sealed columns open to their secrets; passwords argon2id",
		len(plain), len(dump), len(text), strings.Count(text, "\n"))
}

// encodings are the forms a secret could be stored or logged in.
func encodings(s string) []string {
	return []string{s, hex.EncodeToString([]byte(s)), base64.StdEncoding.EncodeToString([]byte(s)), base64.RawURLEncoding.EncodeToString([]byte(s))}
}

// dumpDatabase is every row of every table as JSON text (bytea as hex).
func dumpDatabase(t *testing.T, w *world) string {
	t.Helper()
	var b strings.Builder
	for table, rows := range newSnapshotter(t, w.e).take(t) {
		for _, r := range rows {
			fmt.Fprintf(&b, "%s %s\n", table, r)
		}
	}
	return b.String()
}

func privateKeyEqual(pemText string, k *rsa.PrivateKey) bool {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return false
	}
	got, err := x509.ParsePKCS1PrivateKey(block.Bytes)
	if err != nil {
		parsed, err2 := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err2 != nil {
			return false
		}
		rk, ok := parsed.(*rsa.PrivateKey)
		return ok && rk.Equal(k)
	}
	return got.Equal(k)
}
