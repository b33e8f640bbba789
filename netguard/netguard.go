// Package netguard keeps Herald's outbound HTTP (provider calls, signed webhooks, workflow
// fetch steps) from reaching internal services: a tenant configures the URLs, so without a
// guard one could aim Herald at the metadata service, the database's admin UI or Temporal.
// Connections to loopback, private, link-local and unspecified addresses are refused after
// DNS resolution (so a public name pointing inside is refused too), unless the host is
// allow-listed by name.
package netguard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// Allowed reports whether host matches an entry of list: an exact host name or address, or
// a *.suffix pattern.
func Allowed(host string, list []string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, a := range list {
		a = strings.ToLower(strings.TrimSpace(a))
		if a == "" {
			continue
		}
		if a == host || (strings.HasPrefix(a, "*.") && strings.HasSuffix(host, a[1:])) {
			return true
		}
	}
	return false
}

// IsPublic reports whether ip may be reached from a guarded client.
func IsPublic(ip net.IP) bool {
	return ip != nil && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsLinkLocalUnicast() &&
		!ip.IsLinkLocalMulticast() && !ip.IsUnspecified() && !ip.IsMulticast() && !ip.IsInterfaceLocalMulticast()
}

// ErrNotPublic is wrapped by refused connections.
var ErrNotPublic = fmt.Errorf("address is not public")

func refuse(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if !IsPublic(net.ParseIP(host)) {
		return fmt.Errorf("%w: %s (allow-list the host to reach it)", ErrNotPublic, host)
	}
	return nil
}

// DialContext dials like net.Dialer but refuses non-public addresses unless the host of
// addr is in allowed.
func DialContext(allowed []string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	base := net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		d := base
		if !Allowed(host, allowed) {
			d.Control = refuse
		}
		return d.DialContext(ctx, network, addr)
	}
}

// Client returns an HTTP client with the guard and a timeout; it does not use proxies from
// the environment (a proxy would hide the real destination from the guard).
func Client(timeout time.Duration, allowed []string) *http.Client {
	return &http.Client{Timeout: timeout, Transport: &http.Transport{
		DialContext:           DialContext(allowed),
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}}
}
