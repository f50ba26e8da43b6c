package translate

import (
	"fmt"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"github.com/google/cel-go/cel"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
)

// egTelemetryProblem says why Envoy Gateway refuses Gateway g for the
// telemetry of the EnvoyProxy it runs with (the Gateway's own parameters,
// else its class's), "" when it does not: every backendRef of the access
// log sinks, then of the tracing provider, then of the metric sinks must
// name a Service or Backend that exists, a Service with the port it names
// (internal/gatewayapi/listener.go processProxyObservability and
// processBackendRefsForTelemetry). Envoy Gateway then makes the Gateway
// Accepted=False with InvalidParameters, as for parameters that do not
// resolve. A missing Service the open world assumes is there.
func (w *world) egTelemetryProblem(g *gwv1.Gateway, class *gwv1.GatewayClass) string {
	ep := w.egGatewayProxy(g, class)
	if ep == nil || ep.Spec.Telemetry == nil {
		return ""
	}
	t := ep.Spec.Telemetry
	if msg := egAccessLogMatchesProblem(t.AccessLog); msg != "" {
		return fmt.Sprintf("Invalid access log backendRefs in the referenced EnvoyProxy %s/%s: %s", ep.Namespace, ep.Name, msg)
	}
	by := diag.ObjectRef{Kind: KindName(profile.EnvoyProxyKind.Group, profile.EnvoyProxyKind.Kind), Namespace: ep.Namespace, Name: ep.Name}
	var sections []struct {
		what string
		refs []egv1a1.BackendRef
	}
	add := func(what string, refs []egv1a1.BackendRef) {
		sections = append(sections, struct {
			what string
			refs []egv1a1.BackendRef
		}{what, refs})
	}
	if t.AccessLog != nil {
		var refs []egv1a1.BackendRef
		for _, s := range t.AccessLog.Settings {
			for _, sink := range s.Sinks {
				if sink.OpenTelemetry != nil {
					refs = append(refs, sink.OpenTelemetry.BackendRefs...)
				}
				if sink.ALS != nil {
					refs = append(refs, sink.ALS.BackendRefs...)
				}
			}
		}
		add("access log", refs)
	}
	if t.Tracing != nil {
		add("tracing", t.Tracing.Provider.BackendRefs)
	}
	if t.Metrics != nil {
		var refs []egv1a1.BackendRef
		for _, sink := range t.Metrics.Sinks {
			if sink.OpenTelemetry != nil {
				refs = append(refs, sink.OpenTelemetry.BackendRefs...)
			}
		}
		add("metrics", refs)
	}
	for _, s := range sections {
		for _, ref := range s.refs {
			if msg := w.egTelemetryRefProblem(ref, ep.Namespace, by); msg != "" {
				return fmt.Sprintf("Invalid %s backendRefs in the referenced EnvoyProxy %s/%s: %s", s.what, ep.Namespace, ep.Name, msg)
			}
		}
	}
	return ""
}

// egAccessLogMatchesProblem says which access log match is not a CEL
// expression Envoy Gateway can parse (listener.go processAccessLog,
// validCELExpression: it parses the expression, without checking it
// against declarations), "" when all parse.
func egAccessLogMatchesProblem(al *egv1a1.ProxyAccessLog) string {
	if al == nil {
		return ""
	}
	var env *cel.Env
	for _, s := range al.Settings {
		for _, expr := range s.Matches {
			if env == nil {
				var err error
				if env, err = cel.NewEnv(); err != nil {
					return ""
				}
			}
			if _, issues := env.Parse(expr); issues != nil && issues.Err() != nil {
				return fmt.Sprintf("invalid CEL expression: %s", expr)
			}
		}
	}
	return ""
}

// egTelemetryRefProblem checks one telemetry backendRef as Envoy Gateway
// does: a Service (the default kind) that exists and has the port, or a
// Backend that exists; no other kind.
func (w *world) egTelemetryRefProblem(ref egv1a1.BackendRef, defaultNS string, by diag.ObjectRef) string {
	ns := defaultNS
	if ref.Namespace != nil && *ref.Namespace != "" {
		ns = string(*ref.Namespace)
	}
	name := string(ref.Name)
	if name == "" {
		// The CRD requires a name; one read without admission
		// (--validate=false) names nothing to check.
		return ""
	}
	group, kind := string(deref(ref.Group)), string(deref(ref.Kind))
	if kind == "" {
		kind = "Service"
	}
	switch {
	case group == "" && kind == "Service":
		svc, ok := w.services[keyOf(ns, name)]
		if !ok {
			if w.assume("", "Service", ns, name, "a Service the EnvoyProxy's telemetry sends to", by, "spec.telemetry") {
				return ""
			}
			return fmt.Sprintf("service %s/%s not found", ns, name)
		}
		if ref.Port == nil {
			return fmt.Sprintf("a port is required for Service %s/%s", ns, name)
		}
		for _, p := range svc.Spec.Ports {
			if p.Port == int32(*ref.Port) {
				return ""
			}
		}
		return fmt.Sprintf("TCP port %d not found on Service %s/%s", *ref.Port, ns, name)
	case group == profile.BackendKind.Group && kind == profile.BackendKind.Kind:
		if _, ok := w.egBackends[keyOf(ns, name)]; !ok {
			return fmt.Sprintf("backend %s/%s not found", ns, name)
		}
		return ""
	}
	return fmt.Sprintf("unsupported kind for backendRefs: %s", kind)
}

// egGatewayProxy is the EnvoyProxy Gateway g runs with under a profile
// that reads EnvoyProxy: its own infrastructure parameters when its class
// does not merge Gateways, else its class's; nil when there is none.
func (w *world) egGatewayProxy(g *gwv1.Gateway, class *gwv1.GatewayClass) *egv1a1.EnvoyProxy {
	classProxy := w.egClassProxy(class)
	if classProxy == nil || classProxy.Spec.MergeGateways == nil || !*classProxy.Spec.MergeGateways {
		if p, ok := gatewayParameters(g); ok && p.group == profile.EnvoyProxyKind.Group && p.kind == profile.EnvoyProxyKind.Kind {
			if ep, ok := w.egProxies[keyOf(p.ns, p.name)]; ok && egReadsProxyBackends(ProfileOf(w.opts, class)) {
				return ep
			}
		}
	}
	return classProxy
}
