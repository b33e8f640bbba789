package doctor

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldhq/herald/internal/platform/config"
)

// configFindings checks the settings alone: no connection is made.
func (d *Doctor) configFindings() []Finding {
	var out []Finding
	if d.ConfigErr != nil {
		out = append(out, fail("config", d.ConfigErr.Error(), "Correct the variables named above; `herald config` lists every setting with its current value."))
	} else {
		out = append(out, ok("config", "every HERALD_* setting is valid"))
	}
	out = append(out, d.secretKey(), d.smtp(), d.publicURL())
	return append(out, d.origins()...)
}

func (d *Doctor) secretKey() Finding {
	const fix = "Set HERALD_SECRET_KEY to the output of `openssl rand -base64 32`, the same on every process, and keep it (it decrypts stored secrets)."
	if d.SecretKeyErr != nil {
		return fail("secret-key", d.SecretKeyErr.Error(), fix)
	}
	if err := config.CheckSecretKey(d.Cfg.SecretKey); err != nil {
		return fail("secret-key", err.Error(), fix)
	}
	if w := weakKey(d.Cfg.SecretKey); w != nil {
		return *w
	}
	return ok("secret-key", fmt.Sprintf("set, %d characters, not a published value", len(d.Cfg.SecretKey)))
}

func (d *Doctor) smtp() Finding {
	cc := d.Cfg.Console
	if cc.SMTPHost == "" {
		return warn("smtp", "HERALD_SMTP_HOST is unset: verification, password-reset and invitation emails are only written to the log",
			"Set HERALD_SMTP_HOST, HERALD_SMTP_PORT, HERALD_SMTP_USERNAME, HERALD_SMTP_PASSWORD and HERALD_SMTP_FROM to your mail server.")
	}
	addr := net.JoinHostPort(cc.SMTPHost, strconv.Itoa(cc.SMTPPort))
	if strings.Contains(strings.ToLower(cc.SMTPFrom), "@localhost") {
		return warn("smtp", fmt.Sprintf("system mail goes through %s from %q, an address no mailbox answers and most servers refuse", addr, cc.SMTPFrom),
			"Set HERALD_SMTP_FROM to an address of your domain, such as `Herald <no-reply@example.com>`.")
	}
	if cc.SMTPTLS == "none" && !isLoopback(cc.SMTPHost) {
		return warn("smtp", fmt.Sprintf("system mail goes to %s without TLS: sign-in links and the SMTP password cross the network in clear", addr),
			"Set HERALD_SMTP_TLS to starttls or tls.")
	}
	return ok("smtp", fmt.Sprintf("system mail through %s from %s", addr, cc.SMTPFrom))
}

// exposed reports whether the API listens on more than loopback: a production setting.
func (d *Doctor) exposed() bool {
	host, _, err := net.SplitHostPort(d.Cfg.HTTPAddr)
	return err != nil || !isLoopback(host)
}

func (d *Doctor) publicURL() Finding {
	pub := d.Cfg.PublicURL
	if pub == "" {
		if d.exposed() {
			return warn("public-url", fmt.Sprintf("HERALD_PUBLIC_URL is unset while the API listens on %s: realtime token answers carry each request's own Host header, which any client sets, and the unsubscribe links of emails point at http://%s, which mailbox providers cannot reach", d.Cfg.HTTPAddr, d.Cfg.HTTPAddr),
				"Set HERALD_PUBLIC_URL to the https URL clients reach Herald at.")
		}
		return ok("public-url", "unset; the API listens on loopback only (local use)")
	}
	u, err := url.Parse(pub)
	if err != nil || u.Host == "" {
		return fail("public-url", fmt.Sprintf("HERALD_PUBLIC_URL %q is not an absolute URL", pub), "Set HERALD_PUBLIC_URL to a URL such as https://herald.example.com.")
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return warn("public-url", fmt.Sprintf("HERALD_PUBLIC_URL %s is plain http: credentials and inboxes cross the network in clear", pub),
			"Serve Herald behind TLS and set HERALD_PUBLIC_URL to its https URL.")
	}
	return ok("public-url", pub)
}

// origins compares the public URL, the console URL and the console's allowed origins.
func (d *Doctor) origins() []Finding {
	cc := d.Cfg.Console
	if len(cc.Origins) == 0 {
		if d.exposed() {
			return []Finding{fail("origins", "no console origin is allowed: every sign-in redirect is refused",
				"Set HERALD_CONSOLE_URL (or HERALD_CONSOLE_ORIGINS) to where the console is served.")}
		}
		return []Finding{ok("origins", "none set; local use")}
	}
	var out []Finding
	pub, _ := url.Parse(d.Cfg.PublicURL)
	secure := pub != nil && pub.Scheme == "https"
	for _, o := range cc.Origins {
		u, err := url.Parse(o)
		if err != nil {
			continue // config.Load reported it
		}
		if secure && u.Scheme == "http" && !isLoopback(u.Hostname()) {
			out = append(out, fail("origins", fmt.Sprintf("the console origin %s is plain http while HERALD_PUBLIC_URL is https: sign-in redirects may leave for an unencrypted page", o),
				fmt.Sprintf("Use https for %s in HERALD_CONSOLE_ORIGINS (or HERALD_CONSOLE_URL), or remove it.", o)))
		}
	}
	if c := originOf(cc.URL); c != "" && !slices.Contains(cc.Origins, c) {
		out = append(out, warn("origins", fmt.Sprintf("the console URL's origin %s is not in HERALD_CONSOLE_ORIGINS (%s): redirects back to the console after sign-in are refused", c, strings.Join(cc.Origins, ", ")),
			fmt.Sprintf("Add %s to HERALD_CONSOLE_ORIGINS.", c)))
	}
	if p := originOf(d.Cfg.PublicURL); p != "" && originOf(cc.URL) != p && !slices.Contains(cc.Origins, p) {
		out = append(out, warn("origins", fmt.Sprintf("Herald serves the console at HERALD_PUBLIC_URL's origin %s, which is neither HERALD_CONSOLE_URL (%s) nor an allowed origin", p, cc.URL),
			fmt.Sprintf("Set HERALD_CONSOLE_URL to where the console is served, or add %s to HERALD_CONSOLE_ORIGINS.", p)))
	}
	if len(out) == 0 {
		out = append(out, ok("origins", "console "+cc.URL+", allowed origins "+strings.Join(cc.Origins, ", ")))
	}
	return out
}

// originOf is scheme://host of an absolute URL, or "".
func originOf(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// isLoopback reports whether host names this machine only.
func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
