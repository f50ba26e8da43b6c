package conformance

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/gateway-api/pkg/consts"
)

// crdChannel is the release channel the harness's CRDs claim: experimental,
// since gwsim reads the experimental kinds (ListenerSet, TCPRoute, UDPRoute)
// and fields too.
const crdChannel = "experimental"

// gatewayAPICRDs returns stand-ins for the Gateway API CRDs of bundle
// v1.6.3 (config/crd/experimental in sigs.k8s.io/gateway-api). The suite
// reads only their names and the bundle-version and channel annotations, to
// check that the cluster runs the API version the suite was written for;
// their schemas are gwsim's Go types, so none is given here.
func gatewayAPICRDs() []client.Object {
	crds := []struct{ kind, plural string }{
		{"BackendTLSPolicy", "backendtlspolicies"}, {"GatewayClass", "gatewayclasses"},
		{"Gateway", "gateways"}, {"GRPCRoute", "grpcroutes"}, {"HTTPRoute", "httproutes"},
		{"ListenerSet", "listenersets"}, {"ReferenceGrant", "referencegrants"},
		{"TCPRoute", "tcproutes"}, {"TLSRoute", "tlsroutes"}, {"UDPRoute", "udproutes"},
	}
	var out []client.Object
	for _, crd := range crds {
		kind, plural := crd.kind, crd.plural
		scope := apiextensionsv1.NamespaceScoped
		if kind == "GatewayClass" {
			scope = apiextensionsv1.ClusterScoped
		}
		out = append(out, &apiextensionsv1.CustomResourceDefinition{
			TypeMeta: metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
			ObjectMeta: metav1.ObjectMeta{
				Name: plural + ".gateway.networking.k8s.io",
				Annotations: map[string]string{
					consts.BundleVersionAnnotation: consts.BundleVersion,
					consts.ChannelAnnotation:       crdChannel,
				},
			},
			Spec: apiextensionsv1.CustomResourceDefinitionSpec{
				Group: "gateway.networking.k8s.io",
				Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: kind, ListKind: kind + "List", Plural: plural},
				Scope: scope,
			},
		})
	}
	return out
}
