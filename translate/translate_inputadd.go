package translate

import (
	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"
)

// Add appends obj to the field of in that holds its kind and reports
// whether Input holds that kind at all; objects of other kinds are left
// out, as Translate does not read them. It is the one place that maps Go
// types onto Input's fields, for everything that builds an Input from a
// list of objects.
func (in *Input) Add(obj any) bool {
	switch o := obj.(type) {
	case *gwv1.GatewayClass:
		in.GatewayClasses = append(in.GatewayClasses, o)
	case *gwv1.Gateway:
		in.Gateways = append(in.Gateways, o)
	case *gwv1.ListenerSet:
		in.ListenerSets = append(in.ListenerSets, o)
	case *gwv1.HTTPRoute:
		in.HTTPRoutes = append(in.HTTPRoutes, o)
	case *gwv1.GRPCRoute:
		in.GRPCRoutes = append(in.GRPCRoutes, o)
	case *gwv1.TLSRoute:
		in.TLSRoutes = append(in.TLSRoutes, o)
	case *gwv1.TCPRoute:
		in.TCPRoutes = append(in.TCPRoutes, o)
	case *gwv1.UDPRoute:
		in.UDPRoutes = append(in.UDPRoutes, o)
	case *gwv1.BackendTLSPolicy:
		in.BackendTLSPolicies = append(in.BackendTLSPolicies, o)
	case *gwv1.ReferenceGrant:
		in.ReferenceGrants = append(in.ReferenceGrants, o)
	case *corev1.Service:
		in.Services = append(in.Services, o)
	case *mcsv1alpha1.ServiceImport:
		in.ServiceImports = append(in.ServiceImports, o)
	case *discoveryv1.EndpointSlice:
		in.EndpointSlices = append(in.EndpointSlices, o)
	case *corev1.Secret:
		in.Secrets = append(in.Secrets, o)
	case *corev1.ConfigMap:
		in.ConfigMaps = append(in.ConfigMaps, o)
	case *corev1.Namespace:
		in.Namespaces = append(in.Namespaces, o)
	case *egv1a1.Backend:
		in.Backends = append(in.Backends, o)
	case *egv1a1.HTTPRouteFilter:
		in.HTTPRouteFilters = append(in.HTTPRouteFilters, o)
	case *egv1a1.EnvoyProxy:
		in.EnvoyProxies = append(in.EnvoyProxies, o)
	case *egv1a1.BackendTrafficPolicy:
		in.BackendTrafficPolicies = append(in.BackendTrafficPolicies, o)
	case *egv1a1.ClientTrafficPolicy:
		in.ClientTrafficPolicies = append(in.ClientTrafficPolicies, o)
	case *egv1a1.SecurityPolicy:
		in.SecurityPolicies = append(in.SecurityPolicies, o)
	case *egv1a1.EnvoyExtensionPolicy:
		in.EnvoyExtensionPolicies = append(in.EnvoyExtensionPolicies, o)
	case *egv1a1.EnvoyPatchPolicy:
		in.EnvoyPatchPolicies = append(in.EnvoyPatchPolicies, o)
	default:
		return false
	}
	return true
}
