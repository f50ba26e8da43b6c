package translate

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// TestParametersRef checks the InvalidParameters rule on a GatewayClass
// and on a Gateway's infrastructure: a ConfigMap, or an object of a kind
// Translate does not read, resolves when the input holds it; a resolving
// reference gets an info finding instead.
func TestParametersRef(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "params"}}
	others := []OtherObject{{Group: "gateway.envoyproxy.io", Kind: "EnvoyProxy", Namespace: "infra", Name: "proxy"}}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "params"}}
	tests := []struct {
		name                string
		group, kind, ref    string
		classNS             *gwv1.Namespace // the class reference's namespace
		accepted, programed string          // Accepted reason, and the Gateway's Programmed reason
		infos               int
	}{
		{"ConfigMap that exists", "", "ConfigMap", "params", ptr(gwv1.Namespace("infra")), "Accepted", "Programmed", 1},
		{"ConfigMap that does not exist", "", "ConfigMap", "nope", ptr(gwv1.Namespace("infra")), "InvalidParameters", "Invalid", 0},
		{"implementation-specific kind that is not in the input", "vendor.example.com", "ProxyConfig", "params", ptr(gwv1.Namespace("infra")), "InvalidParameters", "Invalid", 0},
		{"implementation-specific kind in the input", "gateway.envoyproxy.io", "EnvoyProxy", "proxy", ptr(gwv1.Namespace("infra")), "Accepted", "Programmed", 1},
		{"implementation-specific kind, other name", "gateway.envoyproxy.io", "EnvoyProxy", "params", ptr(gwv1.Namespace("infra")), "InvalidParameters", "Invalid", 0},
		{"implementation-specific kind, other group", "example.com", "EnvoyProxy", "proxy", ptr(gwv1.Namespace("infra")), "InvalidParameters", "Invalid", 0},
		{"ConfigMap of another group", "example.com", "ConfigMap", "params", ptr(gwv1.Namespace("infra")), "InvalidParameters", "Invalid", 0},
		{"kind Translate reads, present", "", "Service", "params", ptr(gwv1.Namespace("infra")), "InvalidParameters", "Invalid", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			class := testClass()
			class.Spec.ParametersRef = &gwv1.ParametersReference{Group: gwv1.Group(tt.group), Kind: gwv1.Kind(tt.kind), Name: tt.ref, Namespace: tt.classNS}
			gw := testGateway(httpListener("http", 80, ""))
			gw.Spec.Infrastructure = &gwv1.GatewayInfrastructure{ParametersRef: &gwv1.LocalParametersReference{
				Group: gwv1.Group(tt.group), Kind: gwv1.Kind(tt.kind), Name: tt.ref}}
			out := translateT(t, Input{GatewayClasses: []*gwv1.GatewayClass{class}, Gateways: []*gwv1.Gateway{gw},
				ConfigMaps: []*corev1.ConfigMap{cm}, Services: []*corev1.Service{svc}, OtherObjects: others}, Options{})
			cs := out.Status.GatewayClasses[keyOf("", "gc")]
			if c := meta.FindStatusCondition(cs.Conditions, "Accepted"); c.Reason != tt.accepted {
				t.Errorf("GatewayClass Accepted reason = %s, want %s", c.Reason, tt.accepted)
			}
			if c := meta.FindStatusCondition(cs.Conditions, "SupportedVersion"); c == nil || c.Status != metav1.ConditionTrue {
				t.Errorf("GatewayClass SupportedVersion = %+v, want True", c)
			}
			gs := out.Status.Gateways[keyOf("infra", "gw")]
			if c := meta.FindStatusCondition(gs.Conditions, "Accepted"); c.Reason != tt.accepted {
				t.Errorf("Gateway Accepted reason = %s, want %s", c.Reason, tt.accepted)
			}
			if c := meta.FindStatusCondition(gs.Conditions, "Programmed"); c.Reason != tt.programed {
				t.Errorf("Gateway Programmed reason = %s, want %s", c.Reason, tt.programed)
			}
			infos := 0
			for _, f := range out.Findings {
				if f.Reason == diag.ReasonNotSupportedYet && f.Severity == diag.Info {
					infos++
				}
			}
			if infos != 2*tt.infos {
				t.Errorf("%d parameters info findings, want %d (one per object): %v", infos, 2*tt.infos, out.Findings)
			}
		})
	}
}

// TestClassParametersNeedNamespace: a ConfigMap is namespaced, so a class
// reference without a namespace does not resolve, even to a ConfigMap of
// that name.
func TestClassParametersNeedNamespace(t *testing.T) {
	class := testClass()
	class.Spec.ParametersRef = &gwv1.ParametersReference{Kind: "ConfigMap", Name: "params"}
	out := translateT(t, Input{GatewayClasses: []*gwv1.GatewayClass{class},
		ConfigMaps: []*corev1.ConfigMap{{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "params"}}}}, Options{})
	c := meta.FindStatusCondition(out.Status.GatewayClasses[keyOf("", "gc")].Conditions, "Accepted")
	if c.Status != metav1.ConditionFalse || c.Reason != string(gwv1.GatewayClassReasonInvalidParameters) {
		t.Errorf("Accepted = %s/%s, want False/InvalidParameters", c.Status, c.Reason)
	}
}

// TestClassParametersClusterScoped: a class reference without a namespace
// names a cluster-scoped object, so it resolves only to an object of that
// kind recorded without a namespace.
func TestClassParametersClusterScoped(t *testing.T) {
	tests := []struct {
		name     string
		objectNS string
		want     gwv1.GatewayClassConditionReason
	}{
		{"cluster-scoped object", "", gwv1.GatewayClassReasonAccepted},
		{"namespaced object", "default", gwv1.GatewayClassReasonInvalidParameters},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			class := testClass()
			class.Spec.ParametersRef = &gwv1.ParametersReference{Group: "example.com", Kind: "ClassConfig", Name: "params"}
			out := translateT(t, Input{GatewayClasses: []*gwv1.GatewayClass{class},
				OtherObjects: []OtherObject{{Group: "example.com", Kind: "ClassConfig", Namespace: tt.objectNS, Name: "params"}}}, Options{})
			c := meta.FindStatusCondition(out.Status.GatewayClasses[keyOf("", "gc")].Conditions, "Accepted")
			if c.Reason != string(tt.want) {
				t.Errorf("Accepted reason = %s, want %s (%s)", c.Reason, tt.want, c.Message)
			}
		})
	}
}
