package config

import (
	"net"
	"net/url"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
)

// ConsoleConfig configures the management API's console identity, system emails and file
// storage.
type ConsoleConfig struct {
	// URL is the console's base URL, used in emailed links.
	URL string `env:"HERALD_CONSOLE_URL" format:"url" dflt:"the server's own address: HERALD_PUBLIC_URL, else http://HERALD_HTTP_ADDR" example:"https://console.example.com" desc:"the console's base URL: links in system emails point there; relative redirects resolve against it"`
	// Origins may be redirect targets after sign-in; by default the origin of URL.
	Origins OriginList `env:"HERALD_CONSOLE_ORIGINS" dflt:"origin of HERALD_CONSOLE_URL" example:"https://a.example.com,http://localhost:5173" desc:"comma-separated origins a redirect may point to (anything else is refused with 400)"`
	// AccessTTL and RefreshTTL are the lifetimes of console access tokens and sessions.
	AccessTTL  time.Duration `env:"HERALD_CONSOLE_ACCESS_TTL" envDefault:"15m" min:"1ns" example:"5m" desc:"lifetime of a console access token"`
	RefreshTTL time.Duration `env:"HERALD_CONSOLE_REFRESH_TTL" envDefault:"720h" min:"1ns" example:"7d" desc:"lifetime of a console session (its refresh token rotates on every use)"`
	// SignInMaxFailures and SignInMaxFailuresPerIP lock sign-in for SignInLock after that
	// many failures within the lock period.
	SignInMaxFailures      int           `env:"HERALD_SIGNIN_MAX_FAILURES" envDefault:"5" min:"1" max:"1000" example:"10" desc:"failed sign-ins (or 2FA codes) per account before sign-in locks for HERALD_SIGNIN_LOCK; also wrong codes confirming new recovery codes or turning 2FA off, counted apart"`
	SignInMaxFailuresPerIP int           `env:"HERALD_SIGNIN_MAX_FAILURES_PER_IP" envDefault:"20" min:"1" max:"100000" example:"100" desc:"failed sign-ins per client address before it locks (behind a reverse proxy all clients share the proxy's address)"`
	SignInLock             time.Duration `env:"HERALD_SIGNIN_LOCK" envDefault:"15m" min:"1ns" example:"5m" desc:"counting window and lock duration of sign-in throttling (429 with Retry-After)"`
	// AccountLimit* cap sign-ups, password-reset requests and invitations per client
	// address and per email address, spent evenly over AccountLimitWindow (0: no limit).
	AccountLimitWindow      time.Duration `env:"HERALD_ACCOUNT_LIMIT_WINDOW" envDefault:"1h" min:"1s" example:"24h" desc:"period over which the sign-up, password-reset and invitation budgets below refill (a token bucket); over a budget: 429 with Retry-After"`
	SignUpLimitPerIP        int           `env:"HERALD_SIGNUP_LIMIT_PER_IP" envDefault:"10" min:"0" max:"1000000" example:"100" desc:"sign-ups per client address per HERALD_ACCOUNT_LIMIT_WINDOW (0: no limit; behind a reverse proxy set HERALD_TRUSTED_PROXIES, or every client shares the proxy's budget)"`
	PasswordResetLimitPerIP int           `env:"HERALD_PASSWORD_RESET_LIMIT_PER_IP" envDefault:"10" min:"0" max:"1000000" example:"100" desc:"password-reset requests per client address per HERALD_ACCOUNT_LIMIT_WINDOW (0: no limit)"`
	InvitationLimitPerIP    int           `env:"HERALD_INVITATION_LIMIT_PER_IP" envDefault:"100" min:"0" max:"1000000" example:"500" desc:"invitations sent (and resent) from one client address per HERALD_ACCOUNT_LIMIT_WINDOW, one per invited address (0: no limit)"`
	AccountLimitPerEmail    int           `env:"HERALD_ACCOUNT_LIMIT_PER_EMAIL" envDefault:"5" min:"0" max:"1000000" example:"10" desc:"sign-ups, password-reset requests and invitations for one email address per HERALD_ACCOUNT_LIMIT_WINDOW, each kind counted apart (0: no limit)"`
	// SMTP sends system emails; an empty host logs them instead.
	SMTPHost     string `env:"HERALD_SMTP_HOST" example:"smtp.example.com" desc:"SMTP server for system emails (verification, password reset, invitations); unset: the emails are written to the log"`
	SMTPPort     int    `env:"HERALD_SMTP_PORT" envDefault:"587" min:"1" max:"65535" example:"1025" desc:"its port (Mailpit of docker compose: 1025)"`
	SMTPUsername string `env:"HERALD_SMTP_USERNAME" example:"herald" desc:"SMTP user name (authentication only when it is set)"`
	SMTPPassword string `env:"HERALD_SMTP_PASSWORD" secret:"true" verbatim:"true" example:"smtp-password" desc:"SMTP password"`
	SMTPFrom     string `env:"HERALD_SMTP_FROM" envDefault:"Herald <no-reply@localhost>" example:"Herald <no-reply@example.com>" desc:"sender of system emails"`
	SMTPTLS      string `env:"HERALD_SMTP_TLS" envDefault:"opportunistic" oneof:"opportunistic starttls tls none" example:"tls" desc:"opportunistic (STARTTLS when offered), starttls (required), tls (implicit) or none"`
	// CaptchaSecret turns the sign-up captcha on; CaptchaVerifyURL is the siteverify endpoint.
	CaptchaSecret    string `env:"HERALD_CAPTCHA_SECRET" secret:"true" verbatim:"true" example:"0x-captcha-secret" desc:"turns the sign-up captcha on (hCaptcha, Turnstile or reCAPTCHA secret)"`
	CaptchaVerifyURL string `env:"HERALD_CAPTCHA_VERIFY_URL" envDefault:"https://api.hcaptcha.com/siteverify" format:"url" example:"https://challenges.cloudflare.com/turnstile/v0/siteverify" desc:"the captcha provider's siteverify endpoint"`
	// CodeHost* configure OAuth2 sign-in with a GitHub-compatible code host; off while the
	// client id is empty.
	CodeHostName         string `env:"HERALD_CODEHOST_NAME" envDefault:"github" example:"gitea" desc:"label of linked identities"`
	CodeHostClientID     string `env:"HERALD_CODEHOST_CLIENT_ID" example:"Iv1.0123456789" desc:"OAuth app of a GitHub-compatible code host; turns /v1/ee/auth/codehost on (needs HERALD_CODEHOST_CLIENT_SECRET)"`
	CodeHostClientSecret string `env:"HERALD_CODEHOST_CLIENT_SECRET" secret:"true" verbatim:"true" example:"codehost-secret" desc:"the OAuth app's client secret"`
	CodeHostAuthURL      string `env:"HERALD_CODEHOST_AUTH_URL" envDefault:"https://github.com/login/oauth/authorize" format:"url" example:"https://git.example.com/login/oauth/authorize" desc:"the code host's authorization endpoint"`
	CodeHostTokenURL     string `env:"HERALD_CODEHOST_TOKEN_URL" envDefault:"https://github.com/login/oauth/access_token" format:"url" example:"https://git.example.com/login/oauth/access_token" desc:"the code host's token endpoint"`
	CodeHostAPIURL       string `env:"HERALD_CODEHOST_API_URL" envDefault:"https://api.github.com" format:"url" example:"https://git.example.com/api/v1" desc:"serves GET /user and GET /user/emails"`
	CodeHostRedirectURL  string `env:"HERALD_CODEHOST_REDIRECT_URL" format:"url" example:"https://console.example.com/auth/codehost" desc:"the console page the code host returns to (registered with the OAuth app)"`
	// FilesDir holds uploaded files; FilesMaxBytes caps one upload.
	FilesDir      string   `env:"HERALD_FILES_DIR" dflt:"$HERALD_DATA_DIR/files" example:"/var/lib/herald/files" desc:"where uploaded files are kept"`
	FilesMaxBytes ByteSize `env:"HERALD_FILES_MAX_BYTES" envDefault:"5242880" min:"1" max:"15MiB" example:"10MiB" desc:"largest upload, in bytes or with a unit such as 10MiB (at most 15MiB); larger: 413"`
	// FilesS3* store files in an S3-compatible bucket instead; on when the bucket is set.
	FilesS3Endpoint  string `env:"HERALD_FILES_S3_ENDPOINT" example:"minio:9000" desc:"the bucket's endpoint, host[:port] without scheme (AWS: s3.<region>.amazonaws.com; MinIO: minio:9000)"`
	FilesS3Region    string `env:"HERALD_FILES_S3_REGION" example:"eu-west-1" desc:"the bucket's region"`
	FilesS3Bucket    string `env:"HERALD_FILES_S3_BUCKET" example:"herald-files" desc:"store files in this S3-compatible bucket instead of HERALD_FILES_DIR (needs HERALD_FILES_S3_ENDPOINT)"`
	FilesS3AccessKey string `env:"HERALD_FILES_S3_ACCESS_KEY" example:"AKIAEXAMPLE" desc:"the bucket's access key"`
	FilesS3SecretKey string `env:"HERALD_FILES_S3_SECRET_KEY" secret:"true" verbatim:"true" example:"s3-secret" desc:"the bucket's secret key"`
	FilesS3Prefix    string `env:"HERALD_FILES_S3_PREFIX" example:"herald/" desc:"prefix of every object key"`
	FilesS3Insecure  bool   `env:"HERALD_FILES_S3_INSECURE" envDefault:"false" example:"true" desc:"plain HTTP (a local MinIO)"`
	FilesS3PathStyle bool   `env:"HERALD_FILES_S3_PATH_STYLE" envDefault:"false" example:"true" desc:"bucket in the path instead of the host name (MinIO and most self-hosted stores)"`
	// AuditRetention is how long audit log events are kept; the worker deletes older ones
	// every hour.
	AuditRetention time.Duration `env:"HERALD_AUDIT_RETENTION" envDefault:"365d" min:"1h" example:"90d" expect:"a duration of at least 1h such as 8760h, or a number of days such as 365d" desc:"how long audit log events are kept (a number of days such as 365d or a duration such as 8760h, at least 1h); every worker deletes older ones hourly"`
}

// MaxFileBytes is the largest HERALD_FILES_MAX_BYTES: an upload must fit under the HTTP
// server's transport limit with room for the multipart framing.
const MaxFileBytes = 15 << 20

// finish derives the defaults (the URL: the server's own address, since Herald serves the
// console at /; the origins: the URL's) and checks the settings that depend on each other.
func (cc *ConsoleConfig) finish(p *herald.Problems, publicURL, httpAddr string) {
	if cc.URL == "" {
		cc.URL = defaultConsoleURL(publicURL, httpAddr)
	}
	if len(cc.Origins) == 0 {
		if u, err := url.Parse(cc.URL); err == nil && u.Host != "" {
			cc.Origins = OriginList{u.Scheme + "://" + u.Host}
		}
	}
	if cc.FilesS3Bucket != "" && cc.FilesS3Endpoint == "" {
		p.Addf("HERALD_FILES_S3_ENDPOINT must be set with HERALD_FILES_S3_BUCKET (for AWS: s3.<region>.amazonaws.com)")
	}
	if cc.CodeHostClientID != "" && cc.CodeHostClientSecret == "" {
		p.Addf("HERALD_CODEHOST_CLIENT_SECRET must be set with HERALD_CODEHOST_CLIENT_ID")
	}
}

// ServerURL is the address the API is reached at from outside: HERALD_PUBLIC_URL, else
// http://HERALD_HTTP_ADDR (a wildcard host becomes localhost).
func (c Config) ServerURL() string {
	return defaultConsoleURL(c.PublicURL, c.HTTPAddr)
}

// defaultConsoleURL is the server's own address: the public URL when set, else
// http://<listen address> (a wildcard host becomes localhost).
func defaultConsoleURL(publicURL, httpAddr string) string {
	if publicURL != "" {
		return strings.TrimRight(publicURL, "/")
	}
	host, port, err := net.SplitHostPort(httpAddr)
	if err != nil {
		return "http://localhost:8080"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
