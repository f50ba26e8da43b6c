package load

import (
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwxv1alpha1 "sigs.k8s.io/gateway-api/apisx/v1alpha1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/profile"
)

// loadedKind reports whether gwsim decodes objects of gvk. Every Gateway API
// kind the scheme knows is loaded, including those translate does not handle
// yet (it reports them itself). Of core and discovery, the scheme knows many
// kinds but gwsim reads only the few a route or Gateway can reference;
// loading the Pods and ServiceAccounts of a helm chart would only fill the
// store. ConfigMap stays because BackendTLSPolicy names CA bundles in it.
// Of the Multi-Cluster Services API only ServiceImport is read: a route
// may send traffic to one (GEP-1748); a ServiceExport is the exporting
// cluster's business and stays an ignored kind. Of the vendor groups, the
// kinds some implementation profile simulates are read.
func loadedKind(s *runtime.Scheme, gvk schema.GroupVersionKind) bool {
	if !s.Recognizes(gvk) {
		return false
	}
	switch gvk.Group {
	case gwv1.GroupName, gwxv1alpha1.GroupName:
		return true
	case "":
		switch gvk.Kind {
		case "Service", "Secret", "Namespace", "ConfigMap":
			return true
		}
	case "discovery.k8s.io":
		return gvk.Kind == "EndpointSlice"
	case mcsv1alpha1.GroupName:
		return gvk.Kind == "ServiceImport"
	case profile.EnvoyGatewayGroup:
		return slices.Contains(profile.AllKinds(), gvk.GroupKind())
	}
	return false
}

// ownKind reports whether gvk is one of gwsim's own files: a route table
// test file (gwsim test --cases) may sit among the manifests it tests, so
// it is skipped without being counted among the ignored kinds.
func ownKind(gvk schema.GroupVersionKind) bool {
	return gvk.Group == "gwsim.dev" && gvk.Kind == "RouteTests"
}

// clusterScoped reports whether objects of gk have no namespace. The table
// follows the kubebuilder scope markers of gateway-api v1.6.3 and core/v1;
// every other kind gwsim loads is namespaced.
func clusterScoped(gk schema.GroupKind) bool {
	switch gk {
	case schema.GroupKind{Group: gwv1.GroupName, Kind: "GatewayClass"},
		schema.GroupKind{Group: gwxv1alpha1.GroupName, Kind: "XMesh"},
		schema.GroupKind{Kind: "Namespace"}:
		return true
	}
	return false
}

// groupKindName renders gk the way the ignored-kinds summary lists it:
// group/Kind, with "core" for the unnamed core group.
func groupKindName(gk schema.GroupKind) string {
	if gk.Group == "" {
		return "core/" + gk.Kind
	}
	return gk.Group + "/" + gk.Kind
}
