package web

import (
	"net/netip"
	"testing"
)

func TestClientIPWalksForwardedForFromTheRight(t *testing.T) {
	proxies := ParseProxies([]string{"10.0.0.0/8", "192.0.2.1", "::1", "not-an-address"})
	lb, edge := netip.MustParseAddr("10.0.0.5"), netip.MustParseAddr("192.0.2.1")
	stranger := netip.MustParseAddr("198.51.100.9")
	cases := []struct {
		name      string
		peer      netip.Addr
		forwarded []string
		trusted   Proxies
		want      string
	}{
		{"no trusted proxies: the peer, header ignored", lb, []string{"203.0.113.7"}, nil, "10.0.0.5"},
		{"untrusted peer: its forged header ignored", stranger, []string{"203.0.113.7"}, proxies, "198.51.100.9"},
		{"one proxy", lb, []string{"203.0.113.7"}, proxies, "203.0.113.7"},
		{"forged leftmost hop does not count", lb, []string{"6.6.6.6, 203.0.113.7"}, proxies, "203.0.113.7"},
		{"many forged hops", lb, []string{"1.1.1.1, 2.2.2.2,3.3.3.3 , 203.0.113.7"}, proxies, "203.0.113.7"},
		{"two trusted proxies skipped", lb, []string{"6.6.6.6, 203.0.113.7, 192.0.2.1"}, proxies, "203.0.113.7"},
		{"header split over several lines", lb, []string{"6.6.6.6", "203.0.113.7, 10.1.2.3"}, proxies, "203.0.113.7"},
		{"hop with a port", lb, []string{"203.0.113.7:4711"}, proxies, "203.0.113.7"},
		{"IPv6 hop with a port", lb, []string{"[2001:db8::7]:443"}, proxies, "2001:db8::7"},
		{"IPv4-mapped IPv6", netip.MustParseAddr("::ffff:10.0.0.5"), []string{"::ffff:203.0.113.7"}, proxies, "203.0.113.7"},
		{"garbage hop ends the walk at the proxy that forwarded it", lb, []string{"203.0.113.7, garbage, 192.0.2.1"}, proxies, "192.0.2.1"},
		{"garbage rightmost hop: the peer", lb, []string{"203.0.113.7, <script>"}, proxies, "10.0.0.5"},
		{"no header: the peer", edge, nil, proxies, "192.0.2.1"},
		{"only trusted hops: the leftmost of them", lb, []string{"10.9.9.9, 192.0.2.1"}, proxies, "10.9.9.9"},
	}
	for _, c := range cases {
		if got := ClientIP(c.peer, c.forwarded, c.trusted); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if len(proxies) != 3 {
		t.Errorf("parsed proxies %v", proxies)
	}
}
