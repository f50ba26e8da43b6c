package defaulting

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1alpha2 "sigs.k8s.io/gateway-api/apis/v1alpha2"

	"github.com/gwsim/gwsim/offline/validate"
)

// TestDefaultHTTPRoute checks the defaults translate relies on, on an
// object without TypeMeta (the kind comes from the scheme), and that
// status is left alone.
func TestDefaultHTTPRoute(t *testing.T) {
	route := &gwv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"},
		Spec: gwv1.HTTPRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{{Name: "gw"}}},
			Rules: []gwv1.HTTPRouteRule{{
				Matches:     []gwv1.HTTPRouteMatch{{Headers: []gwv1.HTTPHeaderMatch{{Name: "x", Value: "y"}}}},
				BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: "svc"}}}},
				Filters:     []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestRedirect, RequestRedirect: &gwv1.HTTPRequestRedirectFilter{}}},
			}},
		},
	}
	if err := New(validate.Standard).Default(route); err != nil {
		t.Fatal(err)
	}
	ref := route.Spec.ParentRefs[0]
	if ref.Group == nil || *ref.Group != gwv1.GroupName || ref.Kind == nil || *ref.Kind != "Gateway" {
		t.Errorf("parentRef = %+v, want group %s and kind Gateway", ref, gwv1.GroupName)
	}
	rule := route.Spec.Rules[0]
	m := rule.Matches[0]
	if m.Path == nil || *m.Path.Type != gwv1.PathMatchPathPrefix || *m.Path.Value != "/" || *m.Headers[0].Type != gwv1.HeaderMatchExact {
		t.Errorf("match = %+v, want a PathPrefix / and an Exact header match", m)
	}
	b := rule.BackendRefs[0]
	if *b.Group != "" || *b.Kind != "Service" || *b.Weight != 1 {
		t.Errorf("backendRef = %+v, want core Service of weight 1", b)
	}
	if got := rule.Filters[0].RequestRedirect.StatusCode; got == nil || *got != 302 {
		t.Errorf("redirect statusCode = %v, want 302", got)
	}
	if len(route.Status.Parents) != 0 {
		t.Errorf("status = %+v, want it left empty", route.Status)
	}
}

// TestDefaultNoRules checks the rules default of an HTTPRoute without
// rules, and that defaulting twice changes nothing.
func TestDefaultNoRules(t *testing.T) {
	d := New(validate.Experimental)
	route := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"}}
	if err := d.Default(route); err != nil {
		t.Fatal(err)
	}
	prefix, slash := gwv1.PathMatchPathPrefix, "/"
	want := []gwv1.HTTPRouteRule{{Matches: []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Type: &prefix, Value: &slash}}}}}
	if diff := cmp.Diff(want, route.Spec.Rules); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	again := route.DeepCopy()
	if err := d.Default(again); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(route, again); diff != "" {
		t.Errorf("defaulting again changed (-first +second):\n%s", diff)
	}
}

// TestDefaultGatewayKeepsStatus checks listener defaults and that status,
// which has CRD defaults of its own, is neither defaulted nor dropped.
func TestDefaultGatewayKeepsStatus(t *testing.T) {
	gw := &gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gw"},
		Spec:       gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "https", Port: 443, Protocol: gwv1.HTTPSProtocolType, TLS: &gwv1.ListenerTLSConfig{CertificateRefs: []gwv1.SecretObjectReference{{Name: "cert"}}}}}},
		Status:     gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Value: "10.0.0.1"}}},
	}
	if err := New(validate.Standard).Default(gw); err != nil {
		t.Fatal(err)
	}
	l := gw.Spec.Listeners[0]
	if l.AllowedRoutes == nil || *l.AllowedRoutes.Namespaces.From != gwv1.NamespacesFromSame {
		t.Errorf("allowedRoutes = %+v, want namespaces from Same", l.AllowedRoutes)
	}
	if *l.TLS.Mode != gwv1.TLSModeTerminate || *l.TLS.CertificateRefs[0].Kind != "Secret" || *l.TLS.CertificateRefs[0].Group != "" {
		t.Errorf("tls = %+v, want Terminate and a core Secret", l.TLS)
	}
	// The CRD defaults allowedListeners.namespaces only inside an
	// allowedListeners that is there.
	if gw.Spec.AllowedListeners != nil {
		t.Errorf("allowedListeners = %+v, want none", gw.Spec.AllowedListeners)
	}
	want := gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Value: "10.0.0.1"}}}
	if diff := cmp.Diff(want, gw.Status); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
}

// TestDefaultOlderVersion checks that an older version is defaulted by its
// own schema, when the channel serves it.
func TestDefaultOlderVersion(t *testing.T) {
	route := &gwv1alpha2.TCPRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"},
		Spec:       gwv1alpha2.TCPRouteSpec{Rules: []gwv1alpha2.TCPRouteRule{{BackendRefs: []gwv1.BackendRef{{BackendObjectReference: gwv1.BackendObjectReference{Name: "svc"}}}}}},
	}
	if err := New(validate.Experimental).Default(route); err != nil {
		t.Fatal(err)
	}
	if w := route.Spec.Rules[0].BackendRefs[0].Weight; w == nil || *w != 1 {
		t.Errorf("weight = %v, want 1", w)
	}
}

// TestDefaultLeavesOthers checks that kinds without a CRD pass unchanged.
func TestDefaultLeavesOthers(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}}
	want := svc.DeepCopy()
	if err := New(validate.Standard).Default(svc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, svc); diff != "" {
		t.Errorf("Service changed (-want +got):\n%s", diff)
	}
}

// TestDefaultUnknownKind checks that a kind outside gwsim's scheme, which
// has no CRD, passes unchanged rather than failing.
func TestDefaultUnknownKind(t *testing.T) {
	cm := &unknownKind{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "x"}}
	if err := New(validate.Standard).Default(cm); err != nil {
		t.Fatal(err)
	}
}

type unknownKind struct {
	metav1.TypeMeta
	metav1.ObjectMeta
}

func (u *unknownKind) DeepCopyObject() runtime.Object { c := *u; return &c }
