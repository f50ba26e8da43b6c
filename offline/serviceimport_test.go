package offline

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/diag"
)

// TestServiceImportThroughController runs the reconcilers on a route to a
// ServiceImport, in the closed world: the Gateway's reconciler must read
// the ServiceImport through the client (else the route is BackendNotFound)
// and the BackendTLSPolicy targeting it through its index (else the
// policy gets no ancestor entry), and what each store ends with is what
// Translate computes over the whole world read back, ServiceImport and
// EndpointSlice included.
func TestServiceImportThroughController(t *testing.T) {
	port := gwv1.PortNumber(8080)
	group, kind := gwv1.Group(mcsv1alpha1.GroupName), gwv1.Kind("ServiceImport")
	route := httpRoute("ns", "r", "gw")
	route.Spec.Rules[0].BackendRefs[0].BackendObjectReference = gwv1.BackendObjectReference{Group: &group, Kind: &kind, Name: "store", Port: &port}
	si := &mcsv1alpha1.ServiceImport{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "store"},
		Spec:       mcsv1alpha1.ServiceImportSpec{Type: mcsv1alpha1.ClusterSetIP, Ports: []mcsv1alpha1.ServicePort{{Name: "http", Port: 8080}}},
	}
	slicePort, name := int32(8081), "http"
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: "ns", Name: "store-east", Labels: map[string]string{mcsv1alpha1.LabelServiceName: "store"}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       []discoveryv1.EndpointPort{{Name: &name, Port: &slicePort}},
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.1.0.5"}}},
	}
	policy := &gwv1.BackendTLSPolicy{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "tls"},
		Spec: gwv1.BackendTLSPolicySpec{
			TargetRefs: []gwv1.LocalPolicyTargetReferenceWithSectionName{{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{Group: group, Kind: kind, Name: "store"}}},
			Validation: gwv1.BackendTLSPolicyValidation{WellKnownCACertificates: ptrTo(gwv1.WellKnownCACertificatesSystem), Hostname: "store.ns.svc.clusterset.local"},
		},
	}
	objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls"), route, si, slice, policy, namespace("ns")}
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			opts := testOptions()
			opts.Store = factory
			res, err := Run(context.Background(), objs, diag.Sources{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range res.Objects {
				switch o := o.(type) {
				case *gwv1.HTTPRoute:
					if len(o.Status.Parents) != 1 || !meta.IsStatusConditionTrue(o.Status.Parents[0].Conditions, string(gwv1.RouteConditionResolvedRefs)) {
						t.Errorf("route parents = %+v, want ResolvedRefs=True", o.Status.Parents)
					}
				case *gwv1.BackendTLSPolicy:
					want := res.Output.Status.BackendTLSPolicies[types.NamespacedName{Namespace: "ns", Name: "tls"}]
					if len(want) != 1 {
						t.Fatalf("whole-world Translate gives the policy %d ancestors, want 1", len(want))
					}
					if diff := cmp.Diff(want, o.Status.Ancestors); diff != "" {
						t.Errorf("stored policy ancestors differ from whole-world Translate (-translate +stored):\n%s", diff)
					}
				}
			}
			clusters := res.Output.IR.Gateways[0].Clusters
			if len(clusters) != 1 || len(clusters[0].Endpoints) != 1 || clusters[0].TLS == nil {
				t.Errorf("clusters = %+v, want the ServiceImport's with its endpoint and TLS", clusters)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }
