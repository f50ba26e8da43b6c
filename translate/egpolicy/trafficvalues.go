package egpolicy

import (
	"fmt"
	"math"
	"math/big"
	"net"
	"regexp"
	"time"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/api/resource"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The values of a BackendTrafficPolicy that Envoy Gateway's translator
// cannot turn into Envoy configuration (its buildTrafficFeatures, in
// internal/gatewayapi/backendtrafficpolicy.go and clustersettings.go):
// sizes and counts out of Envoy's range, durations it cannot parse,
// rate-limit rules Envoy's filters cannot express, retry back-offs Envoy
// rejects. Many of these the API server refuses already; a policy that
// reaches the translator unvalidated (no admission, an older CRD) still
// meets them there. Each returns EG's wording, prefixed by the feature
// as EG prefixes it, without the final period (finish adds it).

// maxConsistentHashTableSize is Envoy's largest Maglev table.
const maxConsistentHashTableSize = 5000011

// trafficProblems are the value errors of a BackendTrafficPolicy's spec.
func trafficProblems(s *egv1a1.BackendTrafficPolicySpec) []string {
	var errs []string
	add := func(feature string, msgs ...string) {
		for _, m := range msgs {
			errs = append(errs, feature+": "+m)
		}
	}
	if s.RateLimit != nil {
		if m := rateLimitProblem(s.RateLimit); m != "" {
			add("RateLimit", m)
		}
	}
	if s.BandwidthLimit != nil {
		if m := bandwidthProblem(s.BandwidthLimit); m != "" {
			add("BandwidthLimit", m)
		}
	}
	if lb := s.LoadBalancer; lb != nil && lb.Type == egv1a1.ConsistentHashLoadBalancerType && lb.ConsistentHash != nil {
		if ts := lb.ConsistentHash.TableSize; ts != nil && (*ts > maxConsistentHashTableSize || !big.NewInt(int64(*ts)).ProbablyPrime(0)) {
			add("LoadBalancer", fmt.Sprintf("ConsistentHash: invalid TableSize value %d", *ts))
		}
	}
	if m := circuitBreakerProblem(s.CircuitBreaker); m != "" {
		add("CircuitBreaker", m)
	}
	if ka := s.TCPKeepalive; ka != nil {
		if m := keepaliveProblem(ka.IdleTime, ka.Interval); m != "" {
			add("TCPKeepalive", m)
		}
	}
	if m := retryProblem(s.Retry); m != "" {
		add("Retry", m)
	}
	if to := s.Timeout; to != nil {
		var ms []string
		if to.TCP != nil {
			ms = appendBadDuration(ms, "ConnectTimeout", to.TCP.ConnectTimeout)
		}
		if h := to.HTTP; h != nil {
			ms = appendBadDuration(ms, "ConnectionIdleTimeout", h.ConnectionIdleTimeout)
			ms = appendBadDuration(ms, "MaxConnectionDuration", h.MaxConnectionDuration)
			ms = appendBadDuration(ms, "RequestTimeout", h.RequestTimeout)
			ms = appendBadDuration(ms, "MaxStreamDuration", h.MaxStreamDuration)
			ms = appendBadDuration(ms, "StreamIdleTimeout", h.StreamIdleTimeout)
		}
		add("Timeout", joinErrs(ms)...)
	}
	if c := s.Connection; c != nil && c.BufferLimit != nil {
		if v, ok := c.BufferLimit.AsInt64(); !ok {
			add("BackendConnection", "invalid BufferLimit value "+c.BufferLimit.String())
		} else if v < 0 || v > math.MaxUint32 {
			add("BackendConnection", fmt.Sprintf("BufferLimit value %s is out of range", c.BufferLimit.String()))
		}
	}
	add("HTTP2", joinErrs(http2Problems(s.HTTP2))...)
	if rb := s.RequestBuffer; rb != nil {
		if v, ok := rb.Limit.AsInt64(); !ok {
			add("RequestBuffer", "limit must be convertible to an int64")
		} else if v < 0 || v > math.MaxUint32 {
			add("RequestBuffer", fmt.Sprintf("limit value %s is out of range, must be between 0 and %d", rb.Limit.String(), uint32(math.MaxUint32)))
		} else if len(s.HTTPUpgrade) > 0 {
			add("RequestBuffer", "requestBuffer cannot be used together with httpUpgrade")
		}
	}
	return errs
}

// joinErrs returns the errors EG joins under one prefix as one message
// (errors.Join puts a newline between them).
func joinErrs(ms []string) []string {
	if len(ms) == 0 {
		return nil
	}
	out := ms[0]
	for _, m := range ms[1:] {
		out += "\n" + m
	}
	return []string{out}
}

func appendBadDuration(ms []string, field string, d *gwv1.Duration) []string {
	if d == nil {
		return ms
	}
	if _, err := time.ParseDuration(string(*d)); err != nil {
		return append(ms, fmt.Sprintf("invalid %s value %s", field, *d))
	}
	return ms
}

func keepaliveProblem(idle, interval *gwv1.Duration) string {
	if idle != nil {
		if _, err := time.ParseDuration(string(*idle)); err != nil {
			return fmt.Sprintf("invalid IdleTime value %s", *idle)
		}
	}
	if interval != nil {
		if _, err := time.ParseDuration(string(*interval)); err != nil {
			return fmt.Sprintf("invalid Interval value %s", *interval)
		}
	}
	return ""
}

// http2Problems are the HTTP/2 settings Envoy rejects: window sizes
// outside [65535, 2^31-1] and keepalive durations that do not parse.
func http2Problems(h *egv1a1.HTTP2Settings) []string {
	if h == nil {
		return nil
	}
	const lo, hi = 65535, 2147483647
	var ms []string
	window := func(field string, q *resource.Quantity) {
		if q == nil {
			return
		}
		v, ok := q.AsInt64()
		switch {
		case !ok:
			ms = append(ms, fmt.Sprintf("invalid %s value %s", field, q.String()))
		case v < lo || v > hi:
			ms = append(ms, fmt.Sprintf("%s value %s is out of range, must be between %d and %d", field, q.String(), lo, hi))
		}
	}
	window("InitialStreamWindowSize", h.InitialStreamWindowSize)
	window("InitialConnectionWindowSize", h.InitialConnectionWindowSize)
	if ka := h.ConnectionKeepalive; ka != nil {
		for _, f := range []struct {
			name string
			d    *gwv1.Duration
		}{{"Interval", ka.Interval}, {"Timeout", ka.Timeout}, {"IdleInterval", ka.IdleInterval}} {
			if f.d == nil {
				continue
			}
			if _, err := time.ParseDuration(string(*f.d)); err != nil {
				ms = append(ms, fmt.Sprintf("invalid ConnectionKeepalive.%s: %v", f.name, err))
			}
		}
	}
	return ms
}

func circuitBreakerProblem(cb *egv1a1.CircuitBreaker) string {
	if cb == nil {
		return ""
	}
	for _, f := range []struct {
		name string
		v    *int64
	}{{"MaxConnections", cb.MaxConnections}, {"MaxParallelRequests", cb.MaxParallelRequests}, {"MaxPendingRequests", cb.MaxPendingRequests},
		{"MaxParallelRetries", cb.MaxParallelRetries}, {"MaxRequestsPerConnection", cb.MaxRequestsPerConnection}} {
		if f.v != nil && (*f.v < 0 || *f.v > math.MaxUint32) {
			return fmt.Sprintf("invalid %s value %d", f.name, *f.v)
		}
	}
	return ""
}

// retryProblem: Envoy's retry back-off needs a base interval above zero
// and a max interval at least as long.
func retryProblem(r *egv1a1.Retry) string {
	if r == nil || r.PerRetry == nil {
		return ""
	}
	if t := r.PerRetry.Timeout; t != nil {
		if _, err := time.ParseDuration(string(*t)); err != nil {
			return err.Error()
		}
	}
	b := r.PerRetry.BackOff
	if b == nil {
		return ""
	}
	var base *time.Duration
	if b.BaseInterval != nil {
		if d, err := time.ParseDuration(string(*b.BaseInterval)); err == nil {
			if d == 0 {
				return "baseInterval cannot be set to 0s"
			}
			base = &d
		}
	}
	if b.MaxInterval != nil {
		if d, err := time.ParseDuration(string(*b.MaxInterval)); err == nil {
			if d == 0 {
				return "maxInterval cannot be set to 0s"
			}
			if base != nil && *base > d {
				return "maxInterval cannot be less than baseInterval"
			}
		}
	}
	return ""
}

// bandwidthProblem: Envoy's bandwidth limit filter counts in KiB/s, so a
// limit below 1 KiB/s cannot be expressed.
func bandwidthProblem(b *egv1a1.BandwidthLimitSpec) string {
	check := func(dir string, l egv1a1.BandwidthLimitValue) string {
		v, ok := l.Value.AsInt64()
		if !ok {
			return dir + " limit value must be convertible to an int64"
		}
		if v < 0 {
			return dir + " limit value must be positive"
		}
		per := int64(1)
		switch l.Unit {
		case egv1a1.BandwidthLimitUnitMinute:
			per = 60
		case egv1a1.BandwidthLimitUnitHour:
			per = 3600
		}
		if v/(per*1024) == 0 {
			return fmt.Sprintf("%s: bandwidth limit of %d bytes per %s is below the minimum of 1 KiB/s", dir, v, l.Unit)
		}
		return ""
	}
	if b.Request != nil {
		if m := check("request", b.Request.Limit); m != "" {
			return m
		}
	}
	if b.Response != nil {
		return check("response", b.Response.Limit)
	}
	return ""
}

// rateLimitProblem is the first rule EG cannot translate. Envoy's local
// rate limit has one default bucket per route (the one rule without
// clientSelectors) and needs every rule's unit to be a multiple of it.
func rateLimitProblem(rl *egv1a1.RateLimitSpec) string {
	local, global := rl.Local, rl.Global
	if rl.Type != nil {
		switch *rl.Type {
		case egv1a1.GlobalRateLimitType:
			if global == nil {
				return "global configuration empty for rateLimit"
			}
			local = nil
		case egv1a1.LocalRateLimitType:
			if local == nil {
				return "local configuration empty for rateLimit"
			}
			global = nil
		default:
			return fmt.Sprintf("invalid rateLimit type: %s", *rl.Type)
		}
	}
	if local != nil {
		defaultUnit := unitSeconds(egv1a1.RateLimitUnitSecond)
		seen := false
		for _, r := range local.Rules {
			if len(r.ClientSelectors) == 0 {
				if seen {
					return "local rateLimit can not have more than one rule without clientSelectors"
				}
				seen, defaultUnit = true, unitSeconds(r.Limit.Unit)
			}
		}
		for _, r := range local.Rules {
			if u := unitSeconds(r.Limit.Unit); defaultUnit == 0 || u%defaultUnit != 0 {
				return "local rateLimit rule limit unit must be a multiple of the default limit unit"
			}
		}
		for _, r := range local.Rules {
			if len(r.ClientSelectors) == 0 {
				continue
			}
			if m := rateLimitRuleProblem(r); m != "" {
				return m
			}
		}
	}
	if global != nil {
		for _, r := range global.Rules {
			if m := rateLimitRuleProblem(r); m != "" {
				return m
			}
		}
	}
	return ""
}

func unitSeconds(u egv1a1.RateLimitUnit) int64 {
	switch u {
	case egv1a1.RateLimitUnitSecond:
		return 1
	case egv1a1.RateLimitUnitMinute:
		return 60
	case egv1a1.RateLimitUnitHour:
		return 3600
	case egv1a1.RateLimitUnitDay:
		return 86400
	case egv1a1.RateLimitUnitWeek:
		return 7 * 86400
	case egv1a1.RateLimitUnitMonth:
		return 30 * 86400
	case egv1a1.RateLimitUnitYear:
		return 365 * 86400
	}
	return 0
}

func badRegex(re string) string {
	if _, err := regexp.Compile(re); err != nil {
		return fmt.Sprintf("regex %q is invalid: %v", re, err)
	}
	return ""
}

func rateLimitRuleProblem(r egv1a1.RateLimitRule) string {
	for _, m := range r.ClientSelectors {
		if len(m.Headers) == 0 && len(m.Methods) == 0 && m.Path == nil && m.SourceCIDR == nil && len(m.QueryParams) == 0 {
			return "unable to translate rateLimit. At least one of the header or method or path or sourceCIDR or queryParameters must be specified"
		}
		for _, h := range m.Headers {
			switch {
			case h.Type == nil && h.Value != nil, h.Type != nil && *h.Type == egv1a1.HeaderMatchExact && h.Value != nil:
			case h.Type != nil && *h.Type == egv1a1.HeaderMatchRegularExpression && h.Value != nil:
				if e := badRegex(*h.Value); e != "" {
					return e
				}
			case h.Type != nil && *h.Type == egv1a1.HeaderMatchDistinct && h.Value == nil:
				if h.Invert != nil && *h.Invert {
					return "unable to translate rateLimit.Invert is not applicable for distinct header match type"
				}
			default:
				return "unable to translate rateLimit. Either the header.Type is not valid or the header is missing a value"
			}
		}
		if p := m.Path; p != nil && p.Type != nil {
			switch *p.Type {
			case gwv1.PathMatchPathPrefix, gwv1.PathMatchExact:
			case gwv1.PathMatchRegularExpression:
				if e := badRegex(p.Value); e != "" {
					return e
				}
			default:
				return "unable to translate rateLimit: invalid path type."
			}
		}
		if c := m.SourceCIDR; c != nil {
			if _, _, err := net.ParseCIDR(c.Value); err != nil {
				return fmt.Sprintf("unable to translate rateLimit: %v", err)
			}
		}
		if e := queryParamProblem(m.QueryParams); e != "" {
			return e
		}
	}
	return ""
}

func queryParamProblem(qs []egv1a1.QueryParamMatch) string {
	for _, q := range qs {
		if q.Name == "" {
			return "name is required when QueryParamMatch is specified"
		}
		t := egv1a1.QueryParamMatchExact
		if q.Type != nil {
			t = *q.Type
		}
		switch t {
		case egv1a1.QueryParamMatchExact:
			if q.Value == nil || *q.Value == "" {
				return "value is required for Exact query parameter match"
			}
		case egv1a1.QueryParamMatchRegularExpression:
			if q.Value == nil || *q.Value == "" {
				return "value is required for RegularExpression query parameter match"
			}
			if e := badRegex(*q.Value); e != "" {
				return e
			}
		case egv1a1.QueryParamMatchDistinct:
			if q.Invert != nil && *q.Invert {
				return "unable to translate rateLimit.Invert is not applicable for distinct query parameter match type"
			}
			if q.Value != nil {
				return "unable to translate rateLimit.Value is not applicable for distinct query parameter match type"
			}
		default:
			return fmt.Sprintf("invalid query parameter match type: %s", t)
		}
	}
	return ""
}
