package bench_test

import (
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
)

// addTo appends o to the field of in that holds its kind; other kinds are
// left out, as translate does not read them.
func addTo(in *translate.Input, o client.Object) {
	switch o := o.(type) {
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
	case *discoveryv1.EndpointSlice:
		in.EndpointSlices = append(in.EndpointSlices, o)
	case *corev1.Secret:
		in.Secrets = append(in.Secrets, o)
	case *corev1.ConfigMap:
		in.ConfigMaps = append(in.ConfigMaps, o)
	case *corev1.Namespace:
		in.Namespaces = append(in.Namespaces, o)
	}
}
