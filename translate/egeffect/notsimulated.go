package egeffect

import (
	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"

	"github.com/gwsim/gwsim/translate/ir"
)

// trafficNotSimulated lists the BackendTrafficPolicy fields gwsim does
// not simulate, in the order the type declares them. They shape traffic
// over many requests or connections, so none decides the answer to the
// one request gwsim explains, which is taken as within every limit.
func trafficNotSimulated(ref ir.PolicyRef, s egv1a1.BackendTrafficPolicySpec) []ir.PolicyField {
	var out []ir.PolicyField
	fields := []struct {
		set         bool
		field, what string
	}{
		{s.LoadBalancer != nil, "spec.loadBalancer", "the load balancer (gwsim picks backends by weight, endpoints at random)"},
		{s.ProxyProtocol != nil, "spec.proxyProtocol", "the PROXY protocol towards backends"},
		{s.TCPKeepalive != nil, "spec.tcpKeepalive", "TCP keepalive"},
		{s.HealthCheck != nil, "spec.healthCheck", "health checks"},
		{s.CircuitBreaker != nil, "spec.circuitBreaker", "circuit breakers (a 503 once their limits are reached)"},
		{s.Connection != nil, "spec.connection", "connection limits and buffers"},
		{s.DNS != nil, "spec.dns", "DNS resolution settings"},
		{s.HTTP2 != nil, "spec.http2", "HTTP/2 settings"},
		{s.RateLimit != nil, "spec.rateLimit", "rate limits (a 429 once exhausted; gwsim takes the request as within them)"},
		{s.BandwidthLimit != nil, "spec.bandwidthLimit", "bandwidth limits"},
		{s.AdmissionControl != nil, "spec.admissionControl", "admission control (a 503 when the success rate falls)"},
		{s.UseClientProtocol != nil, "spec.useClientProtocol", "the protocol towards backends"},
		{len(s.Compression) > 0, "spec.compression", "response compression"},
		{len(s.Compressor) > 0, "spec.compressor", "response compression"},
		{len(s.HTTPUpgrade) > 0, "spec.httpUpgrade", "protocol upgrades"},
		{s.RequestBuffer != nil, "spec.requestBuffer", "request buffering"},
		{s.Telemetry != nil, "spec.telemetry", "tracing and metrics"},
		{s.RoutingType != nil, "spec.routingType", "routing to Service IPs or endpoints"},
	}
	for _, f := range fields {
		if f.set {
			out = unsimulated(out, ref, f.field, f.what)
		}
	}
	return out
}

// clientNotSimulated lists the ClientTrafficPolicy fields gwsim does not
// simulate. A client IP read from X-Forwarded-For or a header, and
// client certificate settings, can decide an answer: an authorization
// rule on client CIDRs sees the address they give.
func clientNotSimulated(ref ir.PolicyRef, s egv1a1.ClientTrafficPolicySpec) []ir.PolicyField {
	var out []ir.PolicyField
	if s.ClientIPDetection != nil {
		out = deciding(out, ref, "spec.clientIPDetection", "client address detection (gwsim takes --client-ip as the address authorization rules see)")
	}
	if s.TLS != nil {
		out = deciding(out, ref, "spec.tls", "client TLS settings (versions, ciphers, client certificates)")
	}
	fields := []struct {
		set         bool
		field, what string
	}{
		{s.TCPKeepalive != nil, "spec.tcpKeepalive", "TCP keepalive"},
		{s.EnableProxyProtocol != nil, "spec.enableProxyProtocol", "the PROXY protocol"},
		{s.ProxyProtocol != nil, "spec.proxyProtocol", "the PROXY protocol"},
		{s.Timeout != nil, "spec.timeout", "client timeouts"},
		{s.Connection != nil, "spec.connection", "connection limits"},
		{s.HTTP1 != nil, "spec.http1", "HTTP/1 settings"},
		{s.HTTP2 != nil, "spec.http2", "HTTP/2 settings"},
		{s.HTTP3 != nil, "spec.http3", "HTTP/3"},
		{s.GRPC != nil, "spec.grpc", "gRPC settings"},
		{s.HealthCheck != nil, "spec.healthCheck", "the health check path"},
		{s.Scheme != nil, "spec.scheme", "the scheme header"},
	}
	for _, f := range fields {
		if f.set {
			out = unsimulated(out, ref, f.field, f.what)
		}
	}
	if h := s.Headers; h != nil {
		hf := []struct {
			set         bool
			field, what string
		}{
			{h.EnableEnvoyHeaders != nil, "spec.headers.enableEnvoyHeaders", "Envoy's x-envoy-* headers"},
			{h.XForwardedClientCert != nil, "spec.headers.xForwardedClientCert", "the X-Forwarded-Client-Cert header"},
			{h.PreserveXRequestID != nil || h.RequestID != nil, "spec.headers.requestID", "the X-Request-ID header"},
			{h.Host != nil, "spec.headers.host", "stripping the Host's trailing dot"},
		}
		for _, f := range hf {
			if f.set {
				out = unsimulated(out, ref, f.field, f.what)
			}
		}
	}
	return out
}
