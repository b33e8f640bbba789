// Package netguard keeps Herald's outbound connections (provider calls, signed webhooks,
// SMTP, workflow fetch steps) from reaching internal services: a tenant configures the
// destinations, so without a guard one could aim Herald at the metadata service, the
// database's admin UI or Temporal, and read their answers back in error messages.
//
// A Guard refuses loopback, private, link-local, unspecified and other non-public
// addresses twice: when a destination is saved (Check, CheckURL: literal addresses and what
// a name resolves to) and on every dial (DialContext: a net.Dialer Control function sees
// the address actually connected to, after DNS, so a name re-pointed inside later — DNS
// rebinding — is refused too, before any byte is sent). Hosts on the operator's allow-list
// (HERALD_PRIVATE_HOSTS) are exempt, by name, optionally for one port only.
package netguard

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"
)

// PrivateHostsSetting is the configuration naming the hosts provider connections may reach
// although they are not public.
const PrivateHostsSetting = "HERALD_PRIVATE_HOSTS"

// ErrNotPublic is wrapped by every refusal (errors.Is(err, ErrNotPublic)).
var ErrNotPublic = errors.New("address is not public")

// RefusedError is a destination the guard refused: Host as configured, Address the
// non-public address it is or resolves to.
type RefusedError struct {
	Host    string
	Address string
	// Setting names the allow-list that would let it through.
	Setting string
}

func (e *RefusedError) Error() string {
	what := "address " + e.Host + " is not public"
	if e.Address != "" && e.Address != e.Host {
		what = e.Host + " resolves to " + e.Address + ", an address that is not public"
	}
	return what + ": Herald does not connect to loopback, private or link-local addresses unless the operator adds the host to " + e.Setting
}

// Is makes a RefusedError match ErrNotPublic.
func (e *RefusedError) Is(target error) bool { return target == ErrNotPublic }

// Guard decides which addresses outbound connections may reach. The zero value and a nil
// *Guard allow public addresses only and name HERALD_PRIVATE_HOSTS in their refusals.
type Guard struct {
	allowed []entry
	setting string
}

// New returns a guard that also lets through the hosts of allowed (entries as CheckEntry
// accepts; invalid ones are ignored). setting names where the list comes from, for the
// refusal messages; empty means HERALD_PRIVATE_HOSTS.
func New(setting string, allowed []string) *Guard {
	g := &Guard{setting: setting}
	for _, a := range allowed {
		if e, err := parseEntry(a); err == nil && e.host != "" {
			g.allowed = append(g.allowed, e)
		}
	}
	return g
}

func (g *Guard) settingName() string {
	if g == nil || g.setting == "" {
		return PrivateHostsSetting
	}
	return g.setting
}

// entry is one allow-list item: a host name or address, or a *.suffix pattern (suffix
// set, host holding ".suffix"), and optionally one port.
type entry struct {
	host   string
	port   string
	suffix bool
}

// CheckEntry reports whether s is a valid allow-list entry: a host name, an IP address
// (IPv6 with or without brackets), a *.suffix pattern, any of them with :port (IPv6 in
// brackets then), e.g. "mail.internal", "10.0.0.5", "::1", "[::1]:2525", "*.corp.example",
// "smtp.corp.example:587".
func CheckEntry(s string) error {
	e, err := parseEntry(s)
	if err == nil && e.host == "" {
		err = errors.New("empty")
	}
	return err
}

func parseEntry(s string) (entry, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return entry{}, nil
	}
	if strings.Contains(s, "/") || strings.Contains(s, "@") {
		return entry{}, fmt.Errorf("%q is not a host (write a host name or address, without scheme or path)", s)
	}
	var e entry
	switch {
	case strings.HasPrefix(s, "["):
		h, p, err := net.SplitHostPort(s)
		if err != nil {
			h, p = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"), ""
		}
		e.host, e.port = h, p
	case strings.Count(s, ":") == 1:
		h, p, err := net.SplitHostPort(s)
		if err != nil {
			return entry{}, fmt.Errorf("%q: %v", s, err)
		}
		e.host, e.port = h, p
	default:
		e.host = s
	}
	if e.port != "" {
		if n, err := net.LookupPort("tcp", e.port); err != nil || n < 1 || n > 65535 || fmt.Sprint(n) != e.port {
			return entry{}, fmt.Errorf("%q: the port must be a number from 1 to 65535", s)
		}
	}
	if rest, ok := strings.CutPrefix(e.host, "*."); ok {
		if rest == "" {
			return entry{}, fmt.Errorf("%q: a pattern needs a suffix, as in *.corp.example", s)
		}
		e.host, e.suffix = "."+strings.TrimSuffix(rest, "."), true
		return e, nil
	}
	e.host = normalizeHost(e.host)
	if e.host == "" {
		return entry{}, fmt.Errorf("%q is not a host", s)
	}
	return e, nil
}

// normalizeHost lowercases a host, drops IPv6 brackets and a final dot, and writes IP
// addresses in their canonical form, so "[::0:1]" and "::1" are the same host.
func normalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(h), "["), "]"), "."))
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap().String()
	}
	return h
}

func (e entry) matches(host, port string) bool {
	if e.port != "" && e.port != port {
		return false
	}
	if e.suffix {
		return strings.HasSuffix(host, e.host)
	}
	return e.host == host
}

// Allowed reports whether host matches an entry of list (entries as CheckEntry accepts;
// entries restricted to a port never match here, as no port is known).
func Allowed(host string, list []string) bool {
	return AllowedAddr(host, "", list)
}

// AllowedAddr reports whether host, connected to on port, matches an entry of list.
func AllowedAddr(host, port string, list []string) bool {
	return New("", list).Allows(host, port)
}

// Allows reports whether host (on port, when given) is on the guard's allow-list.
func (g *Guard) Allows(host, port string) bool {
	if g == nil {
		return false
	}
	host = normalizeHost(host)
	if host == "" {
		return false
	}
	for _, e := range g.allowed {
		if e.matches(host, port) {
			return true
		}
	}
	return false
}

// special are address ranges that are not public although the net.IP predicates below do
// not say so: "this network", carrier-grade NAT (cloud metadata services live there too),
// IETF protocol assignments, benchmarking, reserved and broadcast, IPv4-compatible IPv6,
// local-use NAT64 and deprecated site-local IPv6.
var special = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("fec0::/10"),
}

// nat64 is the well-known NAT64 prefix: its addresses reach the IPv4 address in their last
// four bytes, which must be public itself.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// IsPublic reports whether ip may be reached from a guarded connection.
func IsPublic(ip net.IP) bool {
	a, ok := netip.AddrFromSlice(ip)
	return ok && isPublic(a)
}

func isPublic(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast() {
		return false
	}
	for _, p := range special {
		if p.Contains(a) {
			return false
		}
	}
	if nat64.Contains(a) {
		b := a.As16()
		return isPublic(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
	}
	return true
}

// lookupTimeout bounds the DNS lookup of a check at save time.
const lookupTimeout = 5 * time.Second

// Check refuses host (as configured: a name or an address, IPv6 with or without
// brackets) unless it is allow-listed or every address it resolves to is public. A name
// that does not resolve now passes: the dial-time check covers it when it does.
func (g *Guard) Check(ctx context.Context, host, port string) error {
	h, done, err := g.checkLiteral(host, port)
	if done {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	addrs, lerr := net.DefaultResolver.LookupNetIP(ctx, "ip", h)
	if lerr != nil {
		return nil
	}
	for _, a := range addrs {
		if !isPublic(a) {
			return &RefusedError{Host: strings.TrimSpace(host), Address: a.Unmap().String(), Setting: g.settingName()}
		}
	}
	return nil
}

// CheckLiteral is Check without DNS, for places that must not wait on it (applying a
// published configuration inside a transaction): address literals and localhost names
// are refused unless allow-listed; other names pass (every dial checks them).
func (g *Guard) CheckLiteral(host, port string) error {
	_, _, err := g.checkLiteral(host, port)
	return err
}

// checkLiteral decides what can be decided without DNS; done is false for a name that
// needs resolving (h is the normalized host).
func (g *Guard) checkLiteral(host, port string) (h string, done bool, err error) {
	h = normalizeHost(host)
	if h == "" || g.Allows(h, port) {
		return h, true, nil
	}
	refuse := func(addr string) error {
		return &RefusedError{Host: strings.TrimSpace(host), Address: addr, Setting: g.settingName()}
	}
	if a, perr := netip.ParseAddr(h); perr == nil {
		if !isPublic(a) {
			return h, true, refuse(a.String())
		}
		return h, true, nil
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		// RFC 6761: always loopback, whatever a resolver says.
		return h, true, refuse("127.0.0.1")
	}
	return h, false, nil
}

// SplitURL returns the host and port (the scheme's default when none is written) of an
// http or https URL.
func SplitURL(raw string) (host, port string, err error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return "", "", errors.New("must be an http or https URL")
	}
	port = u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Hostname(), port, nil
}

// CheckURL checks the host of an http or https URL as Check does.
func (g *Guard) CheckURL(ctx context.Context, raw string) error {
	host, port, err := SplitURL(raw)
	if err != nil {
		return err
	}
	return g.Check(ctx, host, port)
}

// base is the dialer guarded connections start from.
var base = net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}

// DialContext dials TCP like net.Dialer but, unless the host of addr is allow-listed,
// refuses each resolved address that is not public before connecting to it.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, fmt.Errorf("netguard: network %q is not allowed (TCP only)", network)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	d := base
	if !g.Allows(host, port) {
		setting := g.settingName()
		d.Control = func(_, address string, _ syscall.RawConn) error {
			h, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			a, err := netip.ParseAddr(h)
			if err != nil || !isPublic(a) {
				return &RefusedError{Host: host, Address: h, Setting: setting}
			}
			return nil
		}
	}
	return d.DialContext(ctx, network, addr)
}

// Client returns an HTTP client that dials through the guard, with a timeout (0: none). It
// does not use proxies from the environment (a proxy would hide the real destination from
// the guard).
func (g *Guard) Client(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: &http.Transport{
		DialContext:           g.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}}
}

// Describe summarises a failed connection or exchange for an error message that a tenant
// reads: a guard refusal verbatim (it names the allow-list), network failures in fixed
// words, and nothing the peer sent — a service that is not what the tenant claimed must
// not have its banner or answer echoed back. what names the protocol expected ("SMTP",
// "HTTP") and addr the destination.
func Describe(err error, what, addr string) string {
	var refused *RefusedError
	var dnsErr *net.DNSError
	var hostErr x509.HostnameError
	var authErr x509.UnknownAuthorityError
	var certErr x509.CertificateInvalidError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	switch {
	case errors.As(err, &refused):
		return refused.Error()
	case errors.Is(err, context.Canceled):
		return "the connection to " + addr + " was canceled"
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || isTimeout(err):
		return addr + " did not answer in time"
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return "the host of " + addr + " is not found in DNS"
		}
		return "the host of " + addr + " could not be resolved"
	case errors.Is(err, syscall.ECONNREFUSED):
		return addr + " refused the connection"
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE):
		return addr + " closed the connection"
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		return addr + " is unreachable"
	case errors.As(err, &hostErr):
		return "the TLS certificate of " + addr + " is not valid for its host name"
	case errors.As(err, &authErr):
		return "the TLS certificate of " + addr + " is not signed by a trusted authority"
	case errors.As(err, &certErr):
		return "the TLS certificate of " + addr + " is not valid (expired or not yet valid, or not for a server)"
	case errors.As(err, &recErr):
		return addr + " did not speak TLS"
	case errors.As(err, &alert):
		return "the TLS handshake with " + addr + " failed"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return addr + " closed the connection"
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return "cannot connect to " + addr
	}
	return "the server at " + addr + " did not speak " + what
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
