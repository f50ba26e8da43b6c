package egeffect

import (
	"fmt"
	"net/http"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"

	"github.com/gwsim/gwsim/translate/ir"
)

// BodyFunc reads a custom response body (inline, or a ConfigMap's key in
// the policy's namespace); msg says why it cannot be read.
type BodyFunc func(namespace string, b *egv1a1.CustomResponseBody) (body, msg string)

// AddBackendTraffic adds what a BackendTrafficPolicy does to a request:
// its fault injection (an abort answers with its status; percentage
// defaults to 100), its response overrides, and its timeouts and retries
// (shown, not played). The fields that shape traffic over many requests
// (rate limits, circuit breakers, load balancing, health checks ...) are
// listed as not simulated.
func AddBackendTraffic(dst *ir.Policies, p *egv1a1.BackendTrafficPolicy, body BodyFunc) {
	ref := Ref(BackendTrafficPolicy, p.Namespace, p.Name)
	s := p.Spec
	if f := s.FaultInjection; f != nil {
		if a := f.Abort; a != nil {
			abort := &ir.FaultAbort{Policy: ref, Percent: pct(a.Percentage), GRPCStatus: a.GrpcStatus}
			if a.HTTPStatus != nil {
				abort.Status = int(*a.HTTPStatus)
			}
			dst.FaultAbort = abort
		}
		if d := f.Delay; d != nil && d.FixedDelay != nil {
			dst.FaultDelay = &ir.FaultDelay{Policy: ref, Delay: string(*d.FixedDelay), Percent: pct(d.Percentage)}
		}
	}
	for i, o := range s.ResponseOverride {
		if o != nil {
			dst.ResponseOverrides = append(dst.ResponseOverrides, responseOverride(ref, o, body))
			if len(o.Match.ResponseHeaders) > 0 {
				dst.NotSimulated = unsimulated(dst.NotSimulated, ref, fmt.Sprintf("spec.responseOverride[%d].match.responseHeaders", i), "matching an answer by its response headers")
			}
		}
	}
	if t := s.Timeout; t != nil {
		dst.Timeouts = timeouts(ref, t)
	}
	if r := s.Retry; r != nil {
		dst.Retry = retry(ref, r)
	}
	dst.NotSimulated = append(dst.NotSimulated, trafficNotSimulated(ref, s)...)
}

// pct is a percentage that defaults to 100.
func pct(p *float32) float64 {
	if p == nil {
		return 100
	}
	return float64(*p)
}

func responseOverride(ref ir.PolicyRef, o *egv1a1.ResponseOverride, body BodyFunc) ir.ResponseOverride {
	out := ir.ResponseOverride{Policy: ref, Source: string(egv1a1.ResponseOverrideSourceAll), HeaderMatch: len(o.Match.ResponseHeaders) > 0}
	if o.Source != nil {
		out.Source = string(*o.Source)
	}
	for _, m := range o.Match.StatusCodes {
		switch {
		case m.Range != nil && (m.Type == nil || *m.Type == egv1a1.StatusCodeValueTypeRange):
			out.Codes = append(out.Codes, ir.StatusSpan{From: m.Range.Start, To: m.Range.End})
		case m.Value != nil:
			out.Codes = append(out.Codes, ir.StatusSpan{From: *m.Value, To: *m.Value})
		}
	}
	if r := o.Response; r != nil {
		if r.StatusCode != nil {
			out.Status = *r.StatusCode
		}
		if r.ContentType != nil {
			out.ContentType = *r.ContentType
		}
		if r.Body != nil && body != nil {
			out.Body, _ = body(ref.Namespace, r.Body)
		}
	}
	if r := o.Redirect; r != nil {
		out.Status, out.Location = http.StatusFound, redirectLocation(r)
		if r.StatusCode != nil {
			out.Status = *r.StatusCode
		}
	}
	return out
}

// redirectLocation renders a custom redirect's Location, naming the parts
// it keeps from the request.
func redirectLocation(r *egv1a1.CustomRedirect) string {
	scheme, host, path := "<scheme>", "<host>", "<path>"
	if r.Scheme != nil {
		scheme = *r.Scheme
	}
	if r.Hostname != nil {
		host = string(*r.Hostname)
	}
	if r.Port != nil {
		host += fmt.Sprintf(":%d", *r.Port)
	}
	if p := r.Path; p != nil && p.ReplaceFullPath != nil {
		path = *p.ReplaceFullPath
	}
	return scheme + "://" + host + path
}

func timeouts(ref ir.PolicyRef, t *egv1a1.Timeout) *ir.PolicyTimeouts {
	out := &ir.PolicyTimeouts{Policy: ref}
	if h := t.HTTP; h != nil {
		out.Request = durationString(h.RequestTimeout)
		out.ConnectionIdle = durationString(h.ConnectionIdleTimeout)
	}
	if c := t.TCP; c != nil {
		out.Connect = durationString(c.ConnectTimeout)
	}
	return out
}

func retry(ref ir.PolicyRef, r *egv1a1.Retry) *ir.PolicyRetry {
	// Envoy Gateway's default is 2 retries (numRetries' default).
	out := &ir.PolicyRetry{Policy: ref, Retries: 2}
	if r.NumRetries != nil {
		out.Retries = *r.NumRetries
	}
	if on := r.RetryOn; on != nil {
		for _, t := range on.Triggers {
			out.On = append(out.On, string(t))
		}
		for _, c := range on.HTTPStatusCodes {
			out.Codes = append(out.Codes, int(c))
		}
	}
	if p := r.PerRetry; p != nil {
		out.PerRetry = durationString(p.Timeout)
	}
	return out
}

func durationString[D ~string](d *D) string {
	if d == nil {
		return ""
	}
	return string(*d)
}
