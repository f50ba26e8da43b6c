package translate

import (
	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
)

// Envoy Gateway's controller reads, besides the backends of routes, the
// backends an EnvoyProxy's telemetry sends to (access log OpenTelemetry
// and ALS sinks, metric OpenTelemetry sinks, the tracing provider), for
// the EnvoyProxy a managed GatewayClass and each of its Gateways take as
// parameters (internal/provider/kubernetes/controller.go
// processEnvoyProxy). A Backend read that way gets its status like one a
// route names.

// EnvoyProxyBackends returns the Envoy Gateway Backends the telemetry of
// ep names, in the order it names them; a reference without a namespace
// names one in ep's.
func EnvoyProxyBackends(ep *egv1a1.EnvoyProxy) []types.NamespacedName {
	return envoyProxyRefs(ep, profile.BackendKind.Group, profile.BackendKind.Kind)
}

// EnvoyProxyServices returns the Services the telemetry of ep names, which
// Envoy Gateway checks before it accepts a Gateway running with ep
// (egTelemetryProblem).
func EnvoyProxyServices(ep *egv1a1.EnvoyProxy) []types.NamespacedName {
	return envoyProxyRefs(ep, "", "Service")
}

// envoyProxyRefs returns the objects of group/kind the telemetry of ep
// names (a backendRef without a kind names a Service).
func envoyProxyRefs(ep *egv1a1.EnvoyProxy, group, kind string) []types.NamespacedName {
	t := ep.Spec.Telemetry
	if t == nil {
		return nil
	}
	var refs []egv1a1.BackendRef
	if t.AccessLog != nil {
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
	}
	if t.Metrics != nil {
		for _, sink := range t.Metrics.Sinks {
			if sink.OpenTelemetry != nil {
				refs = append(refs, sink.OpenTelemetry.BackendRefs...)
			}
		}
	}
	if t.Tracing != nil {
		refs = append(refs, t.Tracing.Provider.BackendRefs...)
	}
	var out []types.NamespacedName
	for _, r := range refs {
		rkind := string(deref(r.Kind))
		if rkind == "" {
			rkind = "Service"
		}
		if string(deref(r.Group)) != group || rkind != kind {
			continue
		}
		ns := ep.Namespace
		if r.Namespace != nil && *r.Namespace != "" {
			ns = string(*r.Namespace)
		}
		out = append(out, keyOf(ns, string(r.Name)))
	}
	return out
}

// egProxyBackends returns the Backends named by the telemetry of the
// EnvoyProxies that gwsim's GatewayClasses whose profile simulates
// Backends, and their Gateways, take as parameters. A Gateway's own
// EnvoyProxy is not read when its class merges Gateways: Envoy Gateway's
// controller refuses a Gateway parametersRef then
// (processGatewayParamsRef).
func (w *world) egProxyBackends() []types.NamespacedName {
	if len(w.egProxies) == 0 {
		return nil
	}
	var out []types.NamespacedName
	for _, c := range w.in.GatewayClasses {
		if ep := w.egClassProxy(c); ep != nil {
			out = append(out, EnvoyProxyBackends(ep)...)
		}
	}
	for _, g := range w.in.Gateways {
		c, ok := w.ourClass(g)
		if !ok || !egReadsProxyBackends(ProfileOf(w.opts, c)) {
			continue
		}
		if ep := w.egClassProxy(c); ep != nil && ep.Spec.MergeGateways != nil && *ep.Spec.MergeGateways {
			continue
		}
		p, ok := gatewayParameters(g)
		if !ok || p.group != profile.EnvoyProxyKind.Group || p.kind != profile.EnvoyProxyKind.Kind {
			continue
		}
		if ep, ok := w.egProxies[keyOf(p.ns, p.name)]; ok {
			out = append(out, EnvoyProxyBackends(ep)...)
		}
	}
	return out
}

// egClassProxy returns the EnvoyProxy of the input that class c's
// parametersRef names, when c is gwsim's and its profile reads EnvoyProxy
// and simulates Backends.
func (w *world) egClassProxy(c *gwv1.GatewayClass) *egv1a1.EnvoyProxy {
	if !w.isOurs(c) || !egReadsProxyBackends(ProfileOf(w.opts, c)) {
		return nil
	}
	p, ok := classParameters(c)
	if !ok || p.group != profile.EnvoyProxyKind.Group || p.kind != profile.EnvoyProxyKind.Kind {
		return nil
	}
	return w.egProxies[keyOf(p.ns, p.name)]
}

// egReadsProxyBackends reports whether a profile reads EnvoyProxy
// parameters and simulates the Backends they name.
func egReadsProxyBackends(p profile.Profile) bool {
	return p.Simulates(profile.EnvoyProxyKind) && p.Simulates(profile.BackendKind)
}
