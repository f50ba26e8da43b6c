package translate

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
)

// TestProfileStatusChoices: the envoy-gateway profile writes no
// SupportedVersion on its class and a Gateway's ResolvedRefs only about a
// backend client certificate; the generic profile writes both always.
func TestProfileStatusChoices(t *testing.T) {
	for _, tc := range []struct {
		impl           profile.Name
		clientCert     bool
		supported      bool
		gatewayRefs    bool
		gatewayRefsWhy string
	}{
		{impl: profile.Generic, supported: true, gatewayRefs: true, gatewayRefsWhy: string(gwv1.GatewayReasonResolvedRefs)},
		{impl: profile.EnvoyGateway},
		{impl: profile.EnvoyGateway, clientCert: true, gatewayRefs: true, gatewayRefsWhy: string(gwv1.GatewayReasonInvalidClientCertificateRef)},
	} {
		gw := testGateway(httpListener("http", 80, ""))
		if tc.clientCert {
			gw.Spec.TLS = &gwv1.GatewayTLSConfig{Backend: &gwv1.GatewayBackendTLS{
				ClientCertificateRef: &gwv1.SecretObjectReference{Name: "missing"}}}
		}
		out := translateT(t, Input{GatewayClasses: []*gwv1.GatewayClass{testClass()}, Gateways: []*gwv1.Gateway{gw}},
			Options{Implementation: tc.impl})
		cs := out.Status.GatewayClasses[keyOf("", "gc")]
		if got := meta.FindStatusCondition(cs.Conditions, string(gwv1.GatewayClassConditionStatusSupportedVersion)) != nil; got != tc.supported {
			t.Errorf("%s: SupportedVersion written = %v, want %v", tc.impl, got, tc.supported)
		}
		refs := meta.FindStatusCondition(out.Status.Gateways[keyOf("infra", "gw")].Conditions, string(gwv1.GatewayConditionResolvedRefs))
		if (refs != nil) != tc.gatewayRefs || refs != nil && refs.Reason != tc.gatewayRefsWhy {
			t.Errorf("%s, client certificate %v: Gateway ResolvedRefs = %+v, want written %v with %s", tc.impl, tc.clientCert, refs, tc.gatewayRefs, tc.gatewayRefsWhy)
		}
	}
}
