package scheme

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestNewHoldsEveryGroupVersion(t *testing.T) {
	s := New()
	for _, gvk := range []schema.GroupVersionKind{
		{Version: "v1", Kind: "Service"},
		{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"},
		{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "ListenerSet"},
		{Group: "gateway.networking.k8s.io", Version: "v1beta1", Kind: "ReferenceGrant"},
		{Group: "gateway.networking.k8s.io", Version: "v1alpha2", Kind: "TCPRoute"},
		{Group: "gateway.networking.k8s.io", Version: "v1alpha3", Kind: "BackendTLSPolicy"},
		{Group: "gateway.networking.x-k8s.io", Version: "v1alpha1", Kind: "XBackendTrafficPolicy"},
		{Group: "multicluster.x-k8s.io", Version: "v1alpha1", Kind: "ServiceImport"},
	} {
		if !s.Recognizes(gvk) {
			t.Errorf("scheme does not recognize %s", gvk)
		}
	}
}
