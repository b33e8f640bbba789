package config

import (
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
)

// ConsoleConfig configures the management API's console identity, system emails and file
// storage.
type ConsoleConfig struct {
	// URL is the console's base URL, used in emailed links (HERALD_CONSOLE_URL).
	URL string
	// Origins may be redirect targets after sign-in (HERALD_CONSOLE_ORIGINS, comma
	// separated); by default the origin of URL.
	Origins []string
	// AccessTTL and RefreshTTL are the lifetimes of console access tokens and sessions
	// (HERALD_CONSOLE_ACCESS_TTL, HERALD_CONSOLE_REFRESH_TTL).
	AccessTTL, RefreshTTL time.Duration
	// SignInMaxFailures and SignInMaxFailuresPerIP lock sign-in for SignInLock after that
	// many failures within the lock period (HERALD_SIGNIN_MAX_FAILURES,
	// HERALD_SIGNIN_MAX_FAILURES_PER_IP, HERALD_SIGNIN_LOCK).
	SignInMaxFailures, SignInMaxFailuresPerIP int
	SignInLock                                time.Duration
	// SMTP sends system emails (HERALD_SMTP_*); an empty host logs them instead.
	SMTPHost, SMTPUsername, SMTPPassword, SMTPFrom, SMTPTLS string
	SMTPPort                                                int
	// CaptchaSecret turns the sign-up captcha on; CaptchaVerifyURL is the siteverify
	// endpoint (HERALD_CAPTCHA_SECRET, HERALD_CAPTCHA_VERIFY_URL).
	CaptchaSecret, CaptchaVerifyURL string
	// CodeHost* configure OAuth2 sign-in with a GitHub-compatible code host
	// (HERALD_CODEHOST_*); off while the client id is empty.
	CodeHostName, CodeHostClientID, CodeHostClientSecret string
	CodeHostAuthURL, CodeHostTokenURL, CodeHostAPIURL    string
	CodeHostRedirectURL                                  string
	// FilesDir holds uploaded files (HERALD_FILES_DIR); FilesMaxBytes caps one upload
	// (HERALD_FILES_MAX_BYTES).
	FilesDir      string
	FilesMaxBytes int
	// FilesS3* store files in an S3-compatible bucket instead (HERALD_FILES_S3_*); on when
	// the bucket is set.
	FilesS3Endpoint, FilesS3Region, FilesS3Bucket, FilesS3AccessKey, FilesS3SecretKey, FilesS3Prefix string
	FilesS3Insecure, FilesS3PathStyle                                                                bool
	// AuditRetention is how long audit log events are kept (HERALD_AUDIT_RETENTION, a
	// duration such as 8760h or a number of days such as 365d); the worker deletes older
	// ones every hour.
	AuditRetention time.Duration
}

// MaxFileBytes is the largest HERALD_FILES_MAX_BYTES: an upload must fit under the HTTP
// server's transport limit with room for the multipart framing.
const MaxFileBytes = 15 << 20

func consoleDefaults() ConsoleConfig {
	return ConsoleConfig{
		URL:                    "http://127.0.0.1:8080",
		Origins:                []string{"http://127.0.0.1:8080"},
		AccessTTL:              15 * time.Minute,
		RefreshTTL:             30 * 24 * time.Hour,
		SignInMaxFailures:      5,
		SignInMaxFailuresPerIP: 20,
		SignInLock:             15 * time.Minute,
		SMTPPort:               587,
		SMTPFrom:               "Herald <no-reply@localhost>",
		SMTPTLS:                "opportunistic",
		CodeHostAuthURL:        "https://github.com/login/oauth/authorize",
		CodeHostTokenURL:       "https://github.com/login/oauth/access_token",
		CodeHostAPIURL:         "https://api.github.com",
		FilesMaxBytes:          5 << 20,
		AuditRetention:         365 * 24 * time.Hour,
	}
}

// loadConsole reads the HERALD_CONSOLE_*, SMTP, captcha, code-host and files variables.
func loadConsole(getenv func(string) string, c *Config, p *herald.Problems) {
	cc := &c.Console
	str := func(name string, dst *string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = v
		}
	}
	num := func(name string, dst *int, min, max int) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < min || n > max {
				p.Addf("%s must be an integer from %d to %d, got %q", name, min, max, v)
				return
			}
			*dst = n
		}
	}
	dur := func(name string, dst *time.Duration) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				p.Addf("%s must be a positive duration such as 15m or 720h, got %q", name, v)
				return
			}
			*dst = d
		}
	}
	// The console is served by Herald itself at /, so its URL defaults to the server's own
	// address: HERALD_PUBLIC_URL, or the listen address.
	cc.URL = defaultConsoleURL(c.PublicURL, c.HTTPAddr)
	str("HERALD_CONSOLE_URL", &cc.URL)
	dur("HERALD_CONSOLE_ACCESS_TTL", &cc.AccessTTL)
	dur("HERALD_CONSOLE_REFRESH_TTL", &cc.RefreshTTL)
	num("HERALD_SIGNIN_MAX_FAILURES", &cc.SignInMaxFailures, 1, 1000)
	num("HERALD_SIGNIN_MAX_FAILURES_PER_IP", &cc.SignInMaxFailuresPerIP, 1, 100000)
	dur("HERALD_SIGNIN_LOCK", &cc.SignInLock)
	str("HERALD_SMTP_HOST", &cc.SMTPHost)
	num("HERALD_SMTP_PORT", &cc.SMTPPort, 1, 65535)
	str("HERALD_SMTP_USERNAME", &cc.SMTPUsername)
	cc.SMTPPassword = getenv("HERALD_SMTP_PASSWORD")
	str("HERALD_SMTP_FROM", &cc.SMTPFrom)
	str("HERALD_SMTP_TLS", &cc.SMTPTLS)
	cc.CaptchaSecret = getenv("HERALD_CAPTCHA_SECRET")
	str("HERALD_CAPTCHA_VERIFY_URL", &cc.CaptchaVerifyURL)
	str("HERALD_CODEHOST_NAME", &cc.CodeHostName)
	str("HERALD_CODEHOST_CLIENT_ID", &cc.CodeHostClientID)
	cc.CodeHostClientSecret = getenv("HERALD_CODEHOST_CLIENT_SECRET")
	str("HERALD_CODEHOST_AUTH_URL", &cc.CodeHostAuthURL)
	str("HERALD_CODEHOST_TOKEN_URL", &cc.CodeHostTokenURL)
	str("HERALD_CODEHOST_API_URL", &cc.CodeHostAPIURL)
	str("HERALD_CODEHOST_REDIRECT_URL", &cc.CodeHostRedirectURL)
	str("HERALD_FILES_DIR", &cc.FilesDir)
	num("HERALD_FILES_MAX_BYTES", &cc.FilesMaxBytes, 1, MaxFileBytes)
	str("HERALD_FILES_S3_ENDPOINT", &cc.FilesS3Endpoint)
	str("HERALD_FILES_S3_REGION", &cc.FilesS3Region)
	str("HERALD_FILES_S3_BUCKET", &cc.FilesS3Bucket)
	str("HERALD_FILES_S3_ACCESS_KEY", &cc.FilesS3AccessKey)
	cc.FilesS3SecretKey = getenv("HERALD_FILES_S3_SECRET_KEY")
	str("HERALD_FILES_S3_PREFIX", &cc.FilesS3Prefix)
	flag := func(name string, dst *bool) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				p.Addf("%s must be true or false, got %q", name, v)
				return
			}
			*dst = b
		}
	}
	if v := strings.TrimSpace(getenv("HERALD_AUDIT_RETENTION")); v != "" {
		if d, ok := parseDays(v); ok && d >= time.Hour {
			cc.AuditRetention = d
		} else {
			p.Addf("HERALD_AUDIT_RETENTION must be a duration of at least 1h such as 8760h, or a number of days such as 365d, got %q", v)
		}
	}
	flag("HERALD_FILES_S3_INSECURE", &cc.FilesS3Insecure)
	flag("HERALD_FILES_S3_PATH_STYLE", &cc.FilesS3PathStyle)
	if cc.FilesS3Bucket != "" && cc.FilesS3Endpoint == "" {
		p.Addf("HERALD_FILES_S3_ENDPOINT must be set with HERALD_FILES_S3_BUCKET (for AWS: s3.<region>.amazonaws.com)")
	}

	switch cc.SMTPTLS {
	case "opportunistic", "starttls", "tls", "none":
	default:
		p.Addf("HERALD_SMTP_TLS must be opportunistic, starttls, tls or none, got %q", cc.SMTPTLS)
	}
	u, err := url.Parse(cc.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.Addf("HERALD_CONSOLE_URL must be an http(s) URL, got %q", cc.URL)
	} else {
		cc.Origins = []string{u.Scheme + "://" + u.Host}
	}
	if v := strings.TrimSpace(getenv("HERALD_CONSOLE_ORIGINS")); v != "" {
		cc.Origins = nil
		for _, o := range strings.Split(v, ",") {
			o = strings.TrimRight(strings.TrimSpace(o), "/")
			ou, err := url.Parse(o)
			if err != nil || (ou.Scheme != "http" && ou.Scheme != "https") || ou.Host == "" || ou.Path != "" {
				p.Addf("HERALD_CONSOLE_ORIGINS must list origins such as https://console.example.com, got %q", o)
				continue
			}
			cc.Origins = append(cc.Origins, o)
		}
	}
	if cc.CodeHostClientID != "" && cc.CodeHostClientSecret == "" {
		p.Addf("HERALD_CODEHOST_CLIENT_SECRET must be set with HERALD_CODEHOST_CLIENT_ID")
	}
}

// parseDays reads a Go duration, or a whole number of days written as "<n>d".
func parseDays(v string) (time.Duration, bool) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days <= 0 || days > 100*365 {
			return 0, false
		}
		return time.Duration(days) * 24 * time.Hour, true
	}
	d, err := time.ParseDuration(v)
	return d, err == nil
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
