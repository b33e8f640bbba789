package web

import (
	"net"
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// clientIPKey is where ClientAddress leaves the request's client address.
const clientIPKey = "herald.clientIP"

// maxForwardedHops bounds the X-Forwarded-For entries looked at.
const maxForwardedHops = 32

// Proxies are the reverse proxies trusted to say who their client was
// (HERALD_TRUSTED_PROXIES): addresses and CIDR ranges.
type Proxies []netip.Prefix

// ParseProxies reads addresses ("10.0.0.1", "::1") and CIDR ranges ("10.1.0.0/16");
// entries that are neither are ignored (the configuration refuses them at startup).
func ParseProxies(list []string) Proxies {
	var out Proxies
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(s); err == nil {
			a = a.Unmap()
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out
}

func (p Proxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, pr := range p {
		if pr.Contains(a) {
			return true
		}
	}
	return false
}

// ClientIP is the one answer to "which address sent this request", used by every
// per-address limit, the captcha check and the audit log. Without trusted proxies, or when
// the connection does not come from one, it is the connection's peer: a forwarding header
// from anyone else is ignored. When the peer is a trusted proxy, X-Forwarded-For is walked
// from the right (the hop the nearest proxy appended) skipping trusted proxies, and the
// first address that is not one is the client. Everything to its left was written by the
// client itself and may be forged, so it never counts (neither the raw header nor its
// leftmost entry). An entry that is not an address ends the walk at the proxy that
// forwarded it; a chain made only of trusted proxies names its leftmost one.
func ClientIP(peer netip.Addr, forwarded []string, trusted Proxies) string {
	peer = peer.Unmap()
	if len(trusted) == 0 || !trusted.trusts(peer) {
		return peer.String()
	}
	var hops []string
	for _, h := range forwarded {
		hops = append(hops, strings.Split(h, ",")...)
	}
	client := peer
	for i, n := len(hops)-1, 0; i >= 0 && n < maxForwardedHops; i, n = i-1, n+1 {
		a, ok := parseHop(hops[i])
		if !ok {
			break
		}
		client = a
		if !trusted.trusts(a) {
			break
		}
	}
	return client.String()
}

// parseHop reads one X-Forwarded-For entry: an address, possibly with a port
// ("203.0.113.7:4711", "[2001:db8::1]:443").
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		if a, err := netip.ParseAddr(host); err == nil {
			return a.Unmap(), true
		}
	}
	return netip.Addr{}, false
}

// ClientAddress computes the request's client address once (ClientIP) for ClientIPOf.
func ClientAddress(trusted Proxies) fiber.Handler {
	return func(c *fiber.Ctx) error {
		peer, _ := netip.AddrFromSlice(c.Context().RemoteIP())
		var forwarded []string
		if len(trusted) > 0 {
			for _, v := range c.Request().Header.PeekAll(fiber.HeaderXForwardedFor) {
				forwarded = append(forwarded, string(v))
			}
		}
		c.Locals(clientIPKey, ClientIP(peer, forwarded, trusted))
		return c.Next()
	}
}

// ClientIPOf is the client address of the request (see ClientIP); the peer's when the
// ClientAddress middleware did not run.
func ClientIPOf(c *fiber.Ctx) string {
	if ip, ok := c.Locals(clientIPKey).(string); ok {
		return ip
	}
	return strings.Clone(c.IP())
}
