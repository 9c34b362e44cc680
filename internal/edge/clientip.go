package edge

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// trustedProxies are the reverse proxies (HMDP_TRUSTED_PROXIES) whose
// X-Forwarded-For the server believes.
type trustedProxies []netip.Prefix

func (tp trustedProxies) trusts(a netip.Addr) bool {
	for _, p := range tp {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddress is the address the per-address rate limits and the anonymous
// visitor counts key on: the TCP peer, or, when the peer is a trusted proxy,
// the first untrusted address of X-Forwarded-For read from the right (each
// trusted hop appends the address it got the request from; anything left of
// the first untrusted one was written by the client and proves nothing). If
// every hop is trusted, the leftmost is the client; an entry that is not an
// address ends the walk at the hop that reported it. An IPv6 client is
// reduced to its /64, which one subscriber usually holds whole: limits per
// single IPv6 address would be no limits. "" when RemoteAddr is unparsable.
func (tp trustedProxies) clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return ""
	}
	client := peer.Unmap()
	if len(tp) > 0 && tp.trusts(client) {
		hops := forwardedFor(r.Header.Values("X-Forwarded-For"))
		for i := len(hops) - 1; i >= 0; i-- {
			a, ok := parseHop(hops[i])
			if !ok {
				break
			}
			client = a
			if !tp.trusts(a) {
				break
			}
		}
	}
	return addressKey(client)
}

// forwardedFor splits the X-Forwarded-For headers (several are one list, in order).
func forwardedFor(values []string) []string {
	var hops []string
	for _, v := range values {
		for _, h := range strings.Split(v, ",") {
			hops = append(hops, strings.TrimSpace(h))
		}
	}
	return hops
}

// parseHop reads one X-Forwarded-For entry: an address, perhaps with a port
// ("1.2.3.4:5678", "[2001:db8::1]:443") or in brackets.
func parseHop(h string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(h); err == nil {
		return ap.Addr().Unmap(), true
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// addressKey is a as the limits see it: IPv4 as is, IPv6 as its /64 prefix.
func addressKey(a netip.Addr) string {
	if a.Is4() {
		return a.String()
	}
	p, _ := a.WithZone("").Prefix(64)
	return p.String()
}

// FromTrustedProxy reports whether a request's TCP peer is one of proxies
// (HMDP_TRUSTED_PROXIES): only then are the headers a proxy sets believed,
// such as the traceparent internal/tracing continues.
func FromTrustedProxy(proxies []netip.Prefix) func(*http.Request) bool {
	tp := trustedProxies(proxies)
	return func(r *http.Request) bool {
		if len(tp) == 0 {
			return false
		}
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		peer, err := netip.ParseAddr(host)
		return err == nil && tp.trusts(peer.Unmap())
	}
}
