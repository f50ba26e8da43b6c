package explain

import (
	"fmt"
	"net/http"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// describeMismatch says in words why one match condition failed, with
// the rule behind it when the rule is the surprise (whole segments for a
// prefix, the whole path for a regular expression).
func describeMismatch(m evaluate.Mismatch) Miss {
	miss := Miss{Condition: Condition(m.Condition)}
	switch m.Condition {
	case evaluate.CondPath:
		miss.Message = describePath(m)
	case evaluate.CondMethod:
		miss.Message = fmt.Sprintf("%s required; the request is %s", m.Want, m.Got)
	case evaluate.CondHeader:
		miss.Message = describeValue(m, ": ", " header")
	case evaluate.CondQueryParam:
		miss.Message = describeValue(m, "=", " parameter")
	default:
		panic("bug: unknown match condition " + string(m.Condition))
	}
	return miss
}

func describePath(m evaluate.Mismatch) string {
	switch gwv1.PathMatchType(m.Type) {
	case gwv1.PathMatchExact:
		if strings.TrimSuffix(m.Want, "/") == strings.TrimSuffix(m.Got, "/") {
			return fmt.Sprintf("Exact %s does not match %s (the trailing slash differs)", m.Want, m.Got)
		}
		return fmt.Sprintf("Exact %s does not match %s%s", m.Want, m.Got, didYouMean(m.Got, m.Want))
	case gwv1.PathMatchRegularExpression:
		return fmt.Sprintf("RegularExpression %s does not match %s (it must match the whole path)", m.Want, m.Got)
	}
	prefix := strings.TrimSuffix(m.Want, "/")
	if strings.HasPrefix(m.Got, prefix) {
		return fmt.Sprintf("PathPrefix %s does not match %s: a prefix matches whole path segments (%s or %s/...)", m.Want, m.Got, prefix, prefix)
	}
	return fmt.Sprintf("PathPrefix %s does not match %s%s", m.Want, m.Got, didYouMean(firstSegments(m.Got, m.Want), m.Want))
}

// firstSegments is as many leading segments of path as prefix has, the
// part of a request path that a mistyped prefix would be.
func firstSegments(path, prefix string) string {
	n := strings.Count(strings.TrimSuffix(prefix, "/"), "/")
	parts := strings.SplitAfterN(path, "/", n+2)
	if len(parts) <= n+1 {
		return path
	}
	return strings.TrimSuffix(strings.Join(parts[:n+1], ""), "/")
}

// describeValue explains a header or query parameter that is missing or
// has another value: "X-Version: 2 required; the request has X-Version: 1".
// Names are shown as the route writes them.
func describeValue(m evaluate.Mismatch, sep, noun string) string {
	want := m.Name + sep + m.Want
	if m.Type == string(gwv1.HeaderMatchRegularExpression) {
		want = fmt.Sprintf("%s matching %s", m.Name, m.Want)
	}
	if m.Missing {
		return fmt.Sprintf("%s required; the request has no %s%s", want, m.Name, noun)
	}
	return fmt.Sprintf("%s required; the request has %s%s%s", want, m.Name, sep, m.Got)
}

// answer says what the client gets, in one sentence.
func (w *world) answer(s *scene, t Trace) string {
	res := s.res
	if isConnection(s.req.Scheme) && res.Outcome != evaluate.NoGateway {
		if res.Outcome == evaluate.Forwarded {
			return res.Reason
		}
		return "connection rejected: " + res.Reason
	}
	switch res.Outcome {
	case evaluate.Routed:
		return fmt.Sprintf("forwarded to %s; the backend answers", res.Backend.Cluster)
	case evaluate.Redirected:
		return fmt.Sprintf("%d redirect to %s", res.Status, res.Location)
	case evaluate.DirectResponse:
		return directAnswer(res)
	case evaluate.CORSPreflight:
		return fmt.Sprintf("%d: the gateway answers the CORS preflight itself", res.Status)
	case evaluate.FaultAborted, evaluate.CredentialsRequired, evaluate.AuthorizationDenied,
		evaluate.BadRequest, evaluate.PathRedirected, evaluate.ResponseOverridden, evaluate.PolicyInvalid:
		if res.Location != "" {
			return fmt.Sprintf("%d from the gateway, Location: %s: %s", res.Status, res.Location, res.Reason)
		}
		return fmt.Sprintf("%d from the gateway: %s", res.Status, res.Reason)
	case evaluate.AuthDenied:
		return fmt.Sprintf("403: the ExternalAuth service cannot be resolved (%s), so the filter denies every request", res.ExternalAuth.Invalid)
	case evaluate.RouteNotFound:
		if res.VirtualHost == "" {
			return fmt.Sprintf("%s: no virtual host of listener %s covers %s", w.routeNotFound(s.gw), res.Listener, s.req.Host)
		}
		return fmt.Sprintf("%s: no route of virtual host %s matches", w.routeNotFound(s.gw), res.VirtualHost)
	case evaluate.NoListener:
		if t.Status == 0 {
			return fmt.Sprintf("TLS handshake fails: no listener on port %d covers SNI %s, so there is no certificate to offer", s.req.Port, s.host)
		}
		return fmt.Sprintf("%s: no listener on port %d covers %s", w.routeNotFound(s.gw), s.req.Port, s.host)
	case evaluate.Misdirected:
		return fmt.Sprintf("421 Misdirected Request: %s", strings.TrimSuffix(res.Reason, ": 421 Misdirected Request"))
	case evaluate.NoHealthyUpstream:
		return fmt.Sprintf("503 from the gateway: %s", res.Reason)
	case evaluate.ConnectionFailed:
		return fmt.Sprintf("connection fails, no HTTP answer: %s", res.Reason)
	case evaluate.Forwarded:
		return res.Reason
	case evaluate.NoGateway:
		if s.noAddress {
			return fmt.Sprintf("connection fails: no Gateway has address %s", s.req.Address)
		}
		if s.req.Gateway != "" {
			return fmt.Sprintf("connection refused: Gateway %s does not listen on port %d", s.req.Gateway, s.req.Port)
		}
		return fmt.Sprintf("connection refused: no Gateway listens on port %d", s.req.Port)
	}
	return fmt.Sprintf("%d (%s)", res.Status, res.Outcome)
}

// directAnswer explains a response the gateway gives itself: the rule's
// DirectResponse, or the 500 for the share of an invalid backend.
func directAnswer(res evaluate.Result) string {
	if d := res.Route.Action.DirectResponse; d != nil {
		out := fmt.Sprintf("%d from the gateway", d.Status)
		if d.Reason != "" {
			out += ": " + d.Reason
		}
		if d.ContentType != "" {
			out += fmt.Sprintf(", Content-Type %q", d.ContentType)
		}
		if d.Body != "" {
			out += fmt.Sprintf(", body %q", d.Body)
		}
		return out
	}
	if res.Backend != nil && res.Backend.Invalid != "" {
		return fmt.Sprintf("%d from the gateway: the backend chosen for this request is invalid (%s)", res.Status, res.Backend.Invalid)
	}
	return fmt.Sprintf("%d from the gateway: %s", res.Status, http.StatusText(res.Status))
}
