package controller

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/internal/defaulttest"
)

// extractor finds the index of the table for obj's type and field.
func extractor(t *testing.T, obj client.Object, field string) client.IndexerFunc {
	t.Helper()
	for _, i := range Indexes() {
		if reflect.TypeOf(i.Object) == reflect.TypeOf(obj) && i.Field == field {
			return i.Extract
		}
	}
	t.Fatalf("no index %q for %T", field, obj)
	return nil
}

func TestIndexesExtract(t *testing.T) {
	lsKind := ptr(gwv1.Kind("ListenerSet"))
	foreign := gwv1.ParentReference{Group: ptr(gwv1.Group("example.com")), Kind: ptr(gwv1.Kind("Gateway")), Name: "x"}
	parents := []gwv1.ParentReference{
		gwRef("", "a"),
		{Name: "a", SectionName: ptr(gwv1.SectionName("https"))},
		{Group: ptr(gwv1.Group("")), Kind: ptr(gwv1.Kind("")), Name: "c"},
		gwRef("other", "b"),
		{Kind: lsKind, Name: "ls"},
		{Group: ptr(gwv1.Group(gwv1.GroupName)), Kind: lsKind, Namespace: ptr(gwv1.Namespace("other")), Name: "ls2"},
		foreign,
	}
	mirror := func(name string) gwv1.HTTPRouteFilter {
		return gwv1.HTTPRouteFilter{Type: gwv1.HTTPRouteFilterRequestMirror, RequestMirror: &gwv1.HTTPRequestMirrorFilter{BackendRef: svcRef("", name)}}
	}
	http := httpRoute("default", "r", parents, svcRef("", "web"), svcRef("other", "api"),
		gwv1.BackendObjectReference{Group: ptr(gwv1.Group("example.com")), Kind: ptr(gwv1.Kind("Bucket")), Name: "b"},
		gwv1.BackendObjectReference{Kind: ptr(gwv1.Kind("Service")), Name: "web"})
	http.Spec.Rules[0].Filters = []gwv1.HTTPRouteFilter{mirror("rule-mirror")}
	http.Spec.Rules[0].BackendRefs[0].Filters = []gwv1.HTTPRouteFilter{mirror("ref-mirror")}

	grpc := &gwv1.GRPCRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "g"}}
	grpc.Spec.ParentRefs = []gwv1.ParentReference{gwRef("", "a")}
	grpc.Spec.Rules = []gwv1.GRPCRouteRule{{
		Filters:     []gwv1.GRPCRouteFilter{{Type: gwv1.GRPCRouteFilterRequestMirror, RequestMirror: &gwv1.HTTPRequestMirrorFilter{BackendRef: svcRef("", "m")}}},
		BackendRefs: []gwv1.GRPCBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: svcRef("", "grpc")}}},
	}}
	tcp := &gwv1.TCPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "t"}}
	tcp.Spec.ParentRefs = []gwv1.ParentReference{gwRef("", "a")}
	tcp.Spec.Rules = []gwv1.TCPRouteRule{{BackendRefs: []gwv1.BackendRef{{BackendObjectReference: svcRef("", "db")}}}}
	tls := &gwv1.TLSRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "t"}}
	tls.Spec.ParentRefs = []gwv1.ParentReference{{Kind: lsKind, Name: "ls"}}
	tls.Spec.Rules = []gwv1.TLSRouteRule{{BackendRefs: []gwv1.BackendRef{{BackendObjectReference: svcRef("x", "tls")}}}}
	udp := &gwv1.UDPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "u"}}
	udp.Spec.ParentRefs = []gwv1.ParentReference{gwRef("dns", "gw")}
	udp.Spec.Rules = []gwv1.UDPRouteRule{{BackendRefs: []gwv1.BackendRef{{BackendObjectReference: svcRef("", "dns")}}}}

	ls := &gwv1.ListenerSet{ObjectMeta: metav1.ObjectMeta{Namespace: "apps", Name: "ls"}}
	ls.Spec.ParentRef = gwv1.ParentGatewayReference{Name: "gw"}
	lsOther := ls.DeepCopy()
	lsOther.Spec.ParentRef.Namespace = ptr(gwv1.Namespace("infra"))
	lsForeign := ls.DeepCopy()
	lsForeign.Spec.ParentRef.Group = ptr(gwv1.Group("example.com"))

	defaulttest.All(t, http, grpc, tcp, tls, udp, ls, lsOther, lsForeign)
	policy := &gwv1.BackendTLSPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "p"}}
	policy.Spec.TargetRefs = []gwv1.LocalPolicyTargetReferenceWithSectionName{
		{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{Kind: "Service", Name: "web"}},
		{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{Kind: "Service", Name: "web"}, SectionName: ptr(gwv1.SectionName("https"))},
		{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{Group: "example.com", Kind: "Service", Name: "x"}},
	}

	for _, tc := range []struct {
		name  string
		obj   client.Object
		field string
		want  []string
	}{
		// An explicit empty group is the core group: the CRD defaults only
		// an unset one.
		{"HTTPRoute by Gateway: defaults, dedup, no ListenerSets, foreign or core groups", http, FieldParentGateway, []string{"default/a", "other/b"}},
		{"HTTPRoute by ListenerSet", http, FieldParentListenerSet, []string{"default/ls", "other/ls2"}},
		{"HTTPRoute by Service: mirrors included, other kinds left out", http, FieldBackendService, []string{"default/ref-mirror", "default/rule-mirror", "default/web", "other/api"}},
		{"GRPCRoute by Gateway", grpc, FieldParentGateway, []string{"default/a"}},
		{"GRPCRoute by Service", grpc, FieldBackendService, []string{"default/grpc", "default/m"}},
		{"TCPRoute by Service", tcp, FieldBackendService, []string{"default/db"}},
		{"TLSRoute by Gateway: none", tls, FieldParentGateway, nil},
		{"TLSRoute by ListenerSet", tls, FieldParentListenerSet, []string{"default/ls"}},
		{"TLSRoute by Service", tls, FieldBackendService, []string{"x/tls"}},
		{"UDPRoute by Gateway", udp, FieldParentGateway, []string{"dns/gw"}},
		{"UDPRoute by Service", udp, FieldBackendService, []string{"default/dns"}},
		{"ListenerSet by Gateway, own namespace", ls, FieldParentGateway, []string{"apps/gw"}},
		{"ListenerSet by Gateway, other namespace", lsOther, FieldParentGateway, []string{"infra/gw"}},
		{"ListenerSet with foreign parent", lsForeign, FieldParentGateway, nil},
		{"Gateway by class", gateway("default", "gw", "cls"), FieldGatewayClass, []string{"cls"}},
		{"BackendTLSPolicy by Service", policy, FieldTargetService, []string{"default/web"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := extractor(t, tc.obj, tc.field)(tc.obj)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("extract (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIndexesCoverEveryRouteKind(t *testing.T) {
	for _, k := range RouteKinds() {
		for _, f := range []string{FieldParentGateway, FieldParentListenerSet, FieldBackendService} {
			extractor(t, k.New(), f)
		}
	}
}
