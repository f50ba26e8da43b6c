package egpolicy

import (
	"fmt"
	"math"
	"strings"
	"time"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The values of a ClientTrafficPolicy that Envoy Gateway's translator
// cannot turn into a listener's configuration (its
// translateClientTrafficPolicyForListener, in
// internal/gatewayapi/clienttrafficpolicy.go). Which apply depends on the
// listener: the connection settings on every HTTP, HTTPS, TLS and TCP
// listener, the HTTP ones on HTTP and HTTPS listeners, the TLS ones where
// the listener terminates TLS. Each is prefixed by the feature as EG
// prefixes it.

// clientCommonProblems are the errors in the settings every listener
// takes.
func clientCommonProblems(s *egv1a1.ClientTrafficPolicySpec) []string {
	var errs []string
	if ka := s.TCPKeepalive; ka != nil {
		if m := keepaliveProblem(ka.IdleTime, ka.Interval); m != "" {
			errs = append(errs, "TCP KeepAlive: "+m)
		}
	}
	if m := clientConnectionProblem(s.Connection); m != "" {
		errs = append(errs, "Connection: "+m)
	}
	if m := clientTimeoutProblem(s.Timeout); m != "" {
		errs = append(errs, "Timeout: "+m)
	}
	return errs
}

func clientConnectionProblem(c *egv1a1.ClientConnection) string {
	if c == nil {
		return ""
	}
	if l := c.ConnectionLimit; l != nil {
		for _, f := range []struct {
			name string
			d    *gwv1.Duration
		}{{"CloseDelay", l.CloseDelay}, {"MaxConnectionDuration", l.MaxConnectionDuration}, {"MaxStreamDuration", l.MaxStreamDuration}} {
			if f.d != nil {
				if _, err := time.ParseDuration(string(*f.d)); err != nil {
					return fmt.Sprintf("invalid %s value %s", f.name, *f.d)
				}
			}
		}
	}
	if b := c.BufferLimit; b != nil {
		v, ok := b.AsInt64()
		if !ok {
			return "invalid BufferLimit value " + b.String()
		}
		if v < 0 || v > math.MaxUint32 {
			return fmt.Sprintf("BufferLimit value %s is out of range, must be between 0 and %d", b.String(), uint32(math.MaxUint32))
		}
	}
	return ""
}

func clientTimeoutProblem(t *egv1a1.ClientTimeout) string {
	if t == nil {
		return ""
	}
	type field struct {
		name string
		d    *gwv1.Duration
	}
	var fs []field
	if t.TCP != nil {
		fs = append(fs, field{"TCP IdleTimeout", t.TCP.IdleTimeout}, field{"TCP TLSHandshakeTimeout", t.TCP.TLSHandshakeTimeout},
			field{"TCP ConnectionInspectionTimeout", t.TCP.ConnectionInspectionTimeout})
	}
	if t.HTTP != nil {
		fs = append(fs, field{"HTTP RequestReceivedTimeout", t.HTTP.RequestReceivedTimeout}, field{"HTTP IdleTimeout", t.HTTP.IdleTimeout},
			field{"HTTP StreamIdleTimeout", t.HTTP.StreamIdleTimeout}, field{"HTTP RequestHeadersReceivedTimeout", t.HTTP.RequestHeadersReceivedTimeout})
	}
	for _, f := range fs {
		if f.d != nil {
			if _, err := time.ParseDuration(string(*f.d)); err != nil {
				return fmt.Sprintf("invalid %s value %s", f.name, *f.d)
			}
		}
	}
	return ""
}

// clientHTTPProblems are the errors in the HTTP settings, for an HTTP or
// HTTPS listener. http10 reports whether the listener can give HTTP/1.0
// requests a default host (clientlistener.go decides it).
func clientHTTPProblems(s *egv1a1.ClientTrafficPolicySpec, http10 string) []string {
	var errs []string
	if h := s.Headers; h != nil {
		var ms []string
		if h.EarlyRequestHeaders != nil {
			ms = append(ms, headerModifierProblems(h.EarlyRequestHeaders, "EarlyRequestHeaders")...)
		}
		if h.LateResponseHeaders != nil {
			ms = append(ms, headerModifierProblems(h.LateResponseHeaders, "LateResponseHeaders")...)
		}
		if len(ms) > 0 {
			errs = append(errs, "Headers: "+strings.Join(ms, "\n"))
		}
	}
	if http10 != "" {
		errs = append(errs, "HTTP1: "+http10)
	}
	if ms := http2Problems(s.HTTP2); len(ms) > 0 {
		errs = append(errs, "HTTP2: "+strings.Join(ms, "\n"))
	}
	return errs
}

// headerModifierProblems: Envoy takes no header without a name or with
// '/' or ':' in it, and EG refuses a modifier left with nothing to do.
func headerModifierProblems(m *egv1a1.HTTPHeaderFilter, what string) []string {
	var errs []string
	valid := 0
	check := func(verb string, name gwv1.HTTPHeaderName) {
		switch {
		case name == "":
			errs = append(errs, fmt.Sprintf("%s cannot %s a header with an empty name", what, verb))
		case strings.ContainsAny(string(name), "/:"):
			errs = append(errs, fmt.Sprintf("%s cannot %s a header with a '/' or ':' character in them. Header: '%q'", what, verb, string(name)))
		default:
			valid++
		}
	}
	for _, h := range m.Add {
		check("add", h.Name)
	}
	for _, h := range m.Set {
		check("set", h.Name)
	}
	for _, h := range m.AddIfAbsent {
		check("addIfAbsent", h.Name)
	}
	for _, h := range m.Remove {
		if h == "" {
			errs = append(errs, fmt.Sprintf("%s cannot remove a header with an empty name", what))
		} else {
			valid++
		}
	}
	for _, h := range m.RemoveOnMatch {
		if h.Value == "" {
			errs = append(errs, fmt.Sprintf("%s cannot remove a header with an empty matcher value", what))
		} else {
			valid++
		}
	}
	if valid == 0 {
		errs = append(errs, fmt.Sprintf("%s did not provide valid configuration to add/set/remove any headers", what))
	}
	return errs
}

// clientTLSProblem is the error in the TLS settings of a listener that
// terminates TLS: a cipher suite Envoy does not know.
func clientTLSProblem(s *egv1a1.ClientTrafficPolicySpec) string {
	if s.TLS == nil {
		return ""
	}
	for _, c := range s.TLS.Ciphers {
		if !cipherSuites[c] {
			return "TLS: unsupported cipher suite: " + c
		}
	}
	return ""
}

// cipherSuites are the suites Envoy's TLS parameters accept, by their
// OpenSSL and their IANA names.
var cipherSuites = func() map[string]bool {
	m := map[string]bool{}
	for _, pair := range [][2]string{
		{"ECDHE-ECDSA-AES128-GCM-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"},
		{"ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"},
		{"ECDHE-ECDSA-AES256-GCM-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"},
		{"ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"},
		{"ECDHE-ECDSA-CHACHA20-POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"},
		{"ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"},
		{"ECDHE-ECDSA-AES128-SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"},
		{"ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"},
		{"AES128-GCM-SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256"},
		{"AES128-SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"},
		{"ECDHE-ECDSA-AES256-SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA"},
		{"ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"},
		{"AES256-GCM-SHA384", "TLS_RSA_WITH_AES_256_GCM_SHA384"},
		{"AES256-SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"},
	} {
		m[pair[0]], m[pair[1]] = true, true
	}
	return m
}()
