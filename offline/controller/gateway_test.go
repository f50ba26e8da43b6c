package controller

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
)

func objMeta(ns, name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }

// readWorld is a Gateway with TLS listeners and a ListenerSet, routes of
// two kinds attached directly or through the ListenerSet, and objects that
// belong to nobody this Gateway depends on.
func readWorld() []client.Object {
	certRef := func(ns, name string) gwv1.SecretObjectReference {
		ref := gwv1.SecretObjectReference{Name: gwv1.ObjectName(name)}
		if ns != "" {
			ref.Namespace = ptr(gwv1.Namespace(ns))
		}
		return ref
	}
	gw := gateway("infra", "gw", "cls", gwv1.Listener{
		Name: "https", Port: 443, Protocol: gwv1.HTTPSProtocolType,
		TLS: &gwv1.ListenerTLSConfig{CertificateRefs: []gwv1.SecretObjectReference{certRef("", "tls"), certRef("certs", "shared"), certRef("", "gone")}},
	})
	caRef := func(ns, kind, name string) gwv1.ObjectReference {
		ref := gwv1.ObjectReference{Kind: gwv1.Kind(kind), Name: gwv1.ObjectName(name)}
		if ns != "" {
			ref.Namespace = ptr(gwv1.Namespace(ns))
		}
		return ref
	}
	gw.Spec.TLS = &gwv1.GatewayTLSConfig{Frontend: &gwv1.FrontendTLSConfig{
		Default: gwv1.TLSConfig{Validation: &gwv1.FrontendTLSValidation{CACertificateRefs: []gwv1.ObjectReference{caRef("", "ConfigMap", "client-ca")}}},
		PerPort: []gwv1.TLSPortConfig{{Port: 8443, TLS: gwv1.TLSConfig{Validation: &gwv1.FrontendTLSValidation{
			CACertificateRefs: []gwv1.ObjectReference{caRef("cas", "ConfigMap", "partner-ca"), caRef("", "Service", "not-a-ca"), caRef("", "Secret", "tls")},
		}}}},
	}}
	ls := &gwv1.ListenerSet{ObjectMeta: objMeta("apps", "ls")}
	ls.Spec.ParentRef = gwv1.ParentGatewayReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}
	tcp := &gwv1.TCPRoute{ObjectMeta: objMeta("apps", "tcp")}
	tcp.Spec.ParentRefs = []gwv1.ParentReference{gwRef("infra", "gw")}
	tcp.Spec.Rules = []gwv1.TCPRouteRule{{BackendRefs: []gwv1.BackendRef{{BackendObjectReference: svcRef("", "db")}}}}
	policy := &gwv1.BackendTLSPolicy{ObjectMeta: objMeta("apps", "web-tls")}
	policy.Spec.TargetRefs = []gwv1.LocalPolicyTargetReferenceWithSectionName{{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{Kind: "Service", Name: "web"}}}
	policy.Spec.Validation.CACertificateRefs = []gwv1.LocalObjectReference{{Kind: "ConfigMap", Name: "web-ca"}, {Kind: "Secret", Name: "web-ca-secret"}, {Kind: "ConfigMap", Name: "missing-ca"}}
	slice := func(ns, name, svc string) *discoveryv1.EndpointSlice {
		return &discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{discoveryv1.LabelServiceName: svc}}}
	}
	return []client.Object{
		gatewayClass("cls", ours), gw, ls, tcp, policy,
		namespace("infra"), namespace("apps"), namespace("certs"), namespace("backend"),
		httpRoute("apps", "direct", []gwv1.ParentReference{gwRef("infra", "gw")}, svcRef("", "web"), svcRef("backend", "api"), svcRef("", "nosvc")),
		httpRoute("apps", "via-ls", []gwv1.ParentReference{{Kind: ptr(gwv1.Kind("ListenerSet")), Name: "ls"}}, svcRef("", "web")),
		httpRoute("apps", "elsewhere", []gwv1.ParentReference{gwRef("infra", "other")}, svcRef("", "unrelated")),
		&corev1.Secret{ObjectMeta: objMeta("infra", "tls")}, &corev1.Secret{ObjectMeta: objMeta("certs", "shared")}, &corev1.Secret{ObjectMeta: objMeta("infra", "unused")},
		&corev1.Service{ObjectMeta: objMeta("apps", "web")}, &corev1.Service{ObjectMeta: objMeta("backend", "api")},
		&corev1.Service{ObjectMeta: objMeta("apps", "db")}, &corev1.Service{ObjectMeta: objMeta("apps", "unrelated")},
		slice("apps", "web-1", "web"), slice("apps", "unrelated-1", "unrelated"),
		&corev1.ConfigMap{ObjectMeta: objMeta("apps", "web-ca")}, &corev1.Secret{ObjectMeta: objMeta("apps", "web-ca-secret")},
		&corev1.ConfigMap{ObjectMeta: objMeta("infra", "client-ca")}, &corev1.ConfigMap{ObjectMeta: objMeta("cas", "partner-ca")},
		&corev1.ConfigMap{ObjectMeta: objMeta("apps", "unused-ca")},
		&gwv1.ReferenceGrant{ObjectMeta: objMeta("certs", "g")}, &gwv1.ReferenceGrant{ObjectMeta: objMeta("backend", "g")}, &gwv1.ReferenceGrant{ObjectMeta: objMeta("elsewhere", "g")},
	}
}

func TestGatewayReconcilerReadsOnlyWhatTheGatewayDependsOn(t *testing.T) {
	rec := &recorder{Client: newClient(t, readWorld()...)}
	var got translate.Input
	capture := func(in translate.Input, opts translate.Options) translate.Output {
		got = in
		return stubTranslate(in, opts)
	}
	r := &GatewayReconciler{Env: Env{Client: rec, Options: testOptions(), Translate: capture}}
	if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "infra", Name: "gw"}}); err != nil {
		t.Fatal(err)
	}
	wantCalls := []string{
		"Get Gateway infra/gw",
		"Get GatewayClass /cls",
		"List ListenerSet parentGateway=infra/gw",
	}
	for _, k := range RouteKinds() {
		wantCalls = append(wantCalls, "List "+k.Kind+" parentGateway=infra/gw", "List "+k.Kind+" parentListenerSet=apps/ls")
	}
	wantCalls = append(wantCalls,
		"List Namespace",
		"Get Secret certs/shared", "Get Secret infra/gone", "Get Secret infra/tls",
		// No EndpointSlices: status does not depend on endpoints.
		"Get Service apps/db", "List BackendTLSPolicy targetService=apps/db",
		"Get Service apps/nosvc",
		// A missing Service may be assumed (the open world): its policies
		// are read all the same.
		"List BackendTLSPolicy targetService=apps/nosvc",
		"Get Service apps/web", "List BackendTLSPolicy targetService=apps/web",
		"Get Service backend/api", "List BackendTLSPolicy targetService=backend/api",
		"Get ConfigMap apps/missing-ca", "Get ConfigMap apps/web-ca", "Get ConfigMap cas/partner-ca", "Get ConfigMap infra/client-ca",
		"Get Secret apps/web-ca-secret",
		"List ReferenceGrant ns=backend", "List ReferenceGrant ns=cas", "List ReferenceGrant ns=certs",
		// After translating: the policies whose status names this Gateway.
		"List BackendTLSPolicy ancestorGateway=infra/gw",
	)
	if diff := cmp.Diff(wantCalls, rec.calls); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
	wantInput := map[string][]string{
		"GatewayClasses": {"/cls"}, "Gateways": {"infra/gw"}, "ListenerSets": {"apps/ls"},
		"HTTPRoutes": {"apps/direct", "apps/via-ls"}, "TCPRoutes": {"apps/tcp"},
		"Namespaces": {"/apps", "/backend", "/certs", "/infra"},
		"Secrets":    {"apps/web-ca-secret", "certs/shared", "infra/tls"}, "Services": {"apps/db", "apps/web", "backend/api"},
		"ConfigMaps":         {"apps/web-ca", "cas/partner-ca", "infra/client-ca"},
		"BackendTLSPolicies": {"apps/web-tls"}, "ReferenceGrants": {"backend/g", "certs/g"},
	}
	if diff := cmp.Diff(wantInput, inputNames(got)); diff != "" {
		t.Errorf("Translate input (-want +got):\n%s", diff)
	}
}

// inputNames lists the keys of the objects in each non-empty slice of in.
func inputNames(in translate.Input) map[string][]string {
	out := map[string][]string{}
	add := func(field string, o client.Object) {
		out[field] = append(out[field], client.ObjectKeyFromObject(o).String())
		slices.Sort(out[field])
	}
	for _, o := range in.GatewayClasses {
		add("GatewayClasses", o)
	}
	for _, o := range in.Gateways {
		add("Gateways", o)
	}
	for _, o := range in.ListenerSets {
		add("ListenerSets", o)
	}
	for _, o := range in.HTTPRoutes {
		add("HTTPRoutes", o)
	}
	for _, o := range in.GRPCRoutes {
		add("GRPCRoutes", o)
	}
	for _, o := range in.TLSRoutes {
		add("TLSRoutes", o)
	}
	for _, o := range in.TCPRoutes {
		add("TCPRoutes", o)
	}
	for _, o := range in.UDPRoutes {
		add("UDPRoutes", o)
	}
	for _, o := range in.Namespaces {
		add("Namespaces", o)
	}
	for _, o := range in.Secrets {
		add("Secrets", o)
	}
	for _, o := range in.ConfigMaps {
		add("ConfigMaps", o)
	}
	for _, o := range in.Services {
		add("Services", o)
	}
	for _, o := range in.EndpointSlices {
		add("EndpointSlices", o)
	}
	for _, o := range in.BackendTLSPolicies {
		add("BackendTLSPolicies", o)
	}
	for _, o := range in.ReferenceGrants {
		add("ReferenceGrants", o)
	}
	return out
}

func TestGatewayReconcilerLeavesOtherControllersGatewaysAlone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		class client.Object
	}{
		{"class of another controller", gatewayClass("cls", theirs)},
		{"missing class", &gwv1.GatewayClass{ObjectMeta: objMeta("", "unrelated")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			route := httpRoute("infra", "r", []gwv1.ParentReference{gwRef("", "gw")})
			rec := &recorder{Client: newClient(t, tc.class, gateway("infra", "gw", "cls"), route)}
			r := &GatewayReconciler{Env: Env{Client: rec, Options: testOptions(), Translate: stubTranslate}}
			if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "infra", Name: "gw"}}); err != nil {
				t.Fatal(err)
			}
			want := []string{"Get Gateway infra/gw", "Get GatewayClass /cls"}
			if diff := cmp.Diff(want, rec.calls); diff != "" {
				t.Errorf("reads (-want +got):\n%s", diff)
			}
			for _, o := range []client.Object{&gwv1.Gateway{ObjectMeta: objMeta("infra", "gw")}, route.DeepCopy()} {
				if err := rec.Client.Get(context.Background(), client.ObjectKeyFromObject(o), o); err != nil {
					t.Fatal(err)
				}
				if o.GetResourceVersion() != "999" {
					t.Errorf("%T was written (resourceVersion %s)", o, o.GetResourceVersion())
				}
			}
		})
	}
}

func TestGatewayReconcilerMergesRouteParents(t *testing.T) {
	gw, gw2 := gwRef("infra", "gw"), gwRef("infra", "gw2")
	route := httpRoute("apps", "r", []gwv1.ParentReference{gw2, gw})
	route.Status.Parents = []gwv1.RouteParentStatus{
		parentStatus(gw, ours, "Old", before),
		parentStatus(gw, theirs, "Theirs", before),
		parentStatus(gw2, ours, "Gw2", before),
	}
	c := newClient(t, gatewayClass("cls", ours), gateway("infra", "gw", "cls"), gateway("infra", "gw2", "cls"), route)
	r := &GatewayReconciler{Env: Env{Client: c, Options: testOptions(), Translate: stubTranslate}}
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "infra", Name: "gw"}}
	if _, err := r.Reconcile(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := &gwv1.HTTPRoute{}
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(route), got); err != nil {
		t.Fatal(err)
	}
	want := []gwv1.RouteParentStatus{
		parentStatus(gw2, ours, "Gw2", before),
		parentStatus(gw, ours, "Accepted", before),
		parentStatus(gw, theirs, "Theirs", before),
	}
	if diff := cmp.Diff(want, got.Status.Parents); diff != "" {
		t.Errorf("route parents (-want +got):\n%s", diff)
	}
	gwObj := &gwv1.Gateway{}
	if err := c.Get(context.Background(), req.NamespacedName, gwObj); err != nil {
		t.Fatal(err)
	}
	if len(gwObj.Status.Conditions) != 1 || gwObj.Status.Conditions[0].Message != "1 routes" {
		t.Errorf("gateway status = %+v, want Accepted with message %q", gwObj.Status, "1 routes")
	}

	// A second reconcile computes the same status and writes nothing.
	rvs := []string{got.ResourceVersion, gwObj.ResourceVersion}
	if _, err := r.Reconcile(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(route), got); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(context.Background(), req.NamespacedName, gwObj); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rvs, []string{got.ResourceVersion, gwObj.ResourceVersion}); diff != "" {
		t.Errorf("second reconcile wrote (resourceVersions -before +after):\n%s", diff)
	}
}

// TestGatewayReconcilerSkipsSettledSlice checks the confirming-pass skip:
// a reconcile right after one that wrote translates nothing, and a write by
// someone else to an object of the slice makes the next one translate
// again.
func TestGatewayReconcilerSkipsSettledSlice(t *testing.T) {
	route := httpRoute("apps", "r", []gwv1.ParentReference{gwRef("infra", "gw")})
	c := newClient(t, gatewayClass("cls", ours), gateway("infra", "gw", "cls"), route)
	calls := 0
	counting := func(in translate.Input, opts translate.Options) translate.Output {
		calls++
		return stubTranslate(in, opts)
	}
	r := &GatewayReconciler{Env: Env{Client: c, Options: testOptions(), Translate: counting}}
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "infra", Name: "gw"}}
	reconcileOnce := func() {
		t.Helper()
		if _, err := r.Reconcile(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	reconcileOnce()
	reconcileOnce()
	if calls != 1 {
		t.Fatalf("two reconciles of an unchanged slice translated %d times, want 1", calls)
	}
	got := &gwv1.HTTPRoute{}
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(route), got); err != nil {
		t.Fatal(err)
	}
	got.Labels = map[string]string{"changed": "yes"}
	if err := c.Update(context.Background(), got); err != nil {
		t.Fatal(err)
	}
	reconcileOnce()
	if calls != 2 {
		t.Errorf("a reconcile after a route changed translated %d times in all, want 2", calls)
	}
}

// conflictOnce is a client whose first status write of a route loses a
// race: another controller's entry lands first, and the write gets the
// apiserver's Conflict.
type conflictOnce struct {
	client.Client
	raced bool
	other gwv1.RouteParentStatus
}

func (c *conflictOnce) Status() client.SubResourceWriter {
	return conflictStatus{c.Client.Status(), c}
}

type conflictStatus struct {
	client.SubResourceWriter
	c *conflictOnce
}

func (s conflictStatus) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	if _, ok := obj.(*gwv1.HTTPRoute); ok && !s.c.raced {
		s.c.raced = true
		winner := &gwv1.HTTPRoute{}
		if err := s.c.Get(ctx, client.ObjectKeyFromObject(obj), winner); err != nil {
			return err
		}
		winner.Status.Parents = append(winner.Status.Parents, s.c.other)
		if err := s.SubResourceWriter.Update(ctx, winner); err != nil {
			return err
		}
	}
	return s.SubResourceWriter.Update(ctx, obj, opts...)
}

// TestGatewayReconcilerRetriesRouteConflicts checks that a route write
// that loses a race to another writer is merged again into what that
// writer left, keeping its entry.
func TestGatewayReconcilerRetriesRouteConflicts(t *testing.T) {
	gw, gw2 := gwRef("infra", "gw"), gwRef("infra", "gw2")
	route := httpRoute("apps", "r", []gwv1.ParentReference{gw, gw2})
	other := parentStatus(gw2, theirs, "Theirs", before)
	c := &conflictOnce{Client: newClient(t, gatewayClass("cls", ours), gateway("infra", "gw", "cls"), route), other: other}
	r := &GatewayReconciler{Env: Env{Client: c, Options: testOptions(), Translate: stubTranslate}}
	if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "infra", Name: "gw"}}); err != nil {
		t.Fatal(err)
	}
	if !c.raced {
		t.Fatal("the route was never written")
	}
	got := &gwv1.HTTPRoute{}
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(route), got); err != nil {
		t.Fatal(err)
	}
	want := []gwv1.RouteParentStatus{parentStatus(gw, ours, "Accepted", now), other}
	if diff := cmp.Diff(want, got.Status.Parents); diff != "" {
		t.Errorf("route parents after a lost race (-want +got):\n%s", diff)
	}
}
