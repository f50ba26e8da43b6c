// Package scheme builds the runtime.Scheme gwsim decodes and stores objects
// with: core/v1, discovery/v1, every Gateway API group/version shipped in
// sigs.k8s.io/gateway-api v1.6.3, and the Multi-Cluster Services API
// (multicluster.x-k8s.io/v1alpha1, sigs.k8s.io/mcs-api), whose ServiceImport
// is a backend kind of Gateway API's Extended support (GEP-1748), and Envoy
// Gateway's own kinds (gateway.envoyproxy.io/v1alpha1, from its pinned
// release's api/v1alpha1 package), which its implementation profile
// simulates in part (docs/implementations.md). A new
// scheme is built per call so that no package holds mutable state.
package scheme

import (
	"fmt"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1alpha2 "sigs.k8s.io/gateway-api/apis/v1alpha2"
	gwv1alpha3 "sigs.k8s.io/gateway-api/apis/v1alpha3"
	gwv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"
	gwxv1alpha1 "sigs.k8s.io/gateway-api/apisx/v1alpha1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"
)

// New returns a scheme holding every API group gwsim reads.
func New() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme,
		discoveryv1.AddToScheme,
		gwv1.Install,
		gwv1beta1.Install,
		gwv1alpha2.Install,
		gwv1alpha3.Install,
		gwxv1alpha1.Install,
		mcsv1alpha1.Install,
		egv1a1.AddToScheme,
	} {
		if err := add(s); err != nil {
			panic(fmt.Sprintf("bug: building scheme: %v", err))
		}
	}
	return s
}
