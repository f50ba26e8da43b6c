package store

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/offline/scheme"
)

// The indexes the tests register, named like gwsim's.
const (
	parentGatewayField = "gwsim.dev/parentGateway"
	hostnameField      = "gwsim.dev/hostname"
	controllerField    = "gwsim.dev/controllerName"
	// statusControllerField is an index over status, which status writes
	// must keep up to date.
	statusControllerField = "gwsim.dev/statusController"
)

// parentGateways indexes an HTTPRoute by "namespace/name" of each parent.
func parentGateways(o client.Object) []string {
	r := o.(*gwv1.HTTPRoute)
	var out []string
	for _, p := range r.Spec.ParentRefs {
		ns := r.Namespace
		if p.Namespace != nil {
			ns = string(*p.Namespace)
		}
		out = append(out, ns+"/"+string(p.Name))
	}
	return out
}

func hostnames(o client.Object) []string {
	var out []string
	for _, h := range o.(*gwv1.HTTPRoute).Spec.Hostnames {
		out = append(out, string(h))
	}
	return out
}

func controllerName(o client.Object) []string {
	return []string{string(o.(*gwv1.GatewayClass).Spec.ControllerName)}
}

// statusControllers indexes an HTTPRoute by the controllers of its parent
// statuses.
func statusControllers(o client.Object) []string {
	var out []string
	for _, p := range o.(*gwv1.HTTPRoute).Status.Parents {
		out = append(out, string(p.ControllerName))
	}
	return out
}

// testIndex is one index both stores register; the store registers those
// with specOnly with WithSpecIndex.
type testIndex struct {
	obj      client.Object
	field    string
	fn       client.IndexerFunc
	specOnly bool
}

func testIndexes() []testIndex {
	return []testIndex{
		{&gwv1.HTTPRoute{}, parentGatewayField, parentGateways, true},
		{&gwv1.HTTPRoute{}, hostnameField, hostnames, true},
		{&gwv1.HTTPRoute{}, statusControllerField, statusControllers, false},
		{&gwv1.GatewayClass{}, controllerField, controllerName, false},
	}
}

// objectMeta seeds generation 1, which both stores then keep: the fake
// client never sets one and this store sets 1 when none is given.
func objectMeta(ns, name string, labels map[string]string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels, Generation: 1}
}

func route(ns, name string, labels map[string]string, parents []string, hosts ...gwv1.Hostname) *gwv1.HTTPRoute {
	r := &gwv1.HTTPRoute{ObjectMeta: objectMeta(ns, name, labels)}
	r.Spec.Hostnames = hosts
	for _, p := range parents {
		ref := gwv1.ParentReference{Name: gwv1.ObjectName(p)}
		if pns, pname, ok := strings.Cut(p, "/"); ok {
			ref.Namespace = new(gwv1.Namespace(pns))
			ref.Name = gwv1.ObjectName(pname)
		}
		r.Spec.ParentRefs = append(r.Spec.ParentRefs, ref)
	}
	return r
}

func gateway(ns, name string) *gwv1.Gateway {
	g := &gwv1.Gateway{ObjectMeta: objectMeta(ns, name, nil)}
	g.Spec.GatewayClassName = "gwsim"
	g.Spec.Listeners = []gwv1.Listener{{Name: "http", Port: 80, Protocol: gwv1.HTTPProtocolType}}
	return g
}

func gatewayClass(name, controller string) *gwv1.GatewayClass {
	gc := &gwv1.GatewayClass{ObjectMeta: objectMeta("", name, nil)}
	gc.Spec.ControllerName = gwv1.GatewayController(controller)
	return gc
}

func service(ns, name string) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: objectMeta(ns, name, nil),
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 8080}}},
	}
}

func configMap(ns, name string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: objectMeta(ns, name, nil), Data: data}
}

// acceptedStatus is a parent status with a whole-second timestamp, which
// survives the fake client's JSON round trips unchanged.
func acceptedStatus(parent string) gwv1.RouteStatus {
	return gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
		ParentRef:      gwv1.ParentReference{Name: gwv1.ObjectName(parent)},
		ControllerName: "gwsim.dev/controller",
		Conditions: []metav1.Condition{{
			Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted",
			ObservedGeneration: 1, LastTransitionTime: metav1.Unix(1700000000, 0),
		}},
	}}}
}

// seedObjects is the starting state of every conformance case. It is built
// anew per call because the fake client modifies the objects it is given.
func seedObjects() []client.Object {
	team := map[string]string{"team": "a"}
	other := map[string]string{"team": "b"}
	routed := route("infra", "r-status", team, []string{"gw"}, "status.example.com")
	routed.Status.RouteStatus = acceptedStatus("gw")
	return []client.Object{
		gatewayClass("gwsim", "gwsim.dev/controller"),
		gatewayClass("other", "example.com/other"),
		gateway("infra", "gw"),
		gateway("infra", "gw2"),
		gateway("apps", "gw"),
		route("infra", "r1", team, []string{"gw"}, "a.example.com"),
		route("infra", "r2", other, []string{"gw", "gw2"}, "b.example.com"),
		route("apps", "r1", team, []string{"infra/gw"}, "a.example.com"),
		route("apps", "r3", other, []string{"gw"}),
		route("apps-b", "r4", nil, []string{"infra/gw2"}, "a.example.com"),
		routed,
		service("infra", "svc"),
		configMap("infra", "cm", map[string]string{"k": "v"}),
	}
}

// gatewayAPIKinds returns one object of every Gateway API kind in the
// scheme, for the fake client's WithStatusSubresource.
func gatewayAPIKinds(s *runtime.Scheme) []client.Object {
	var objs []client.Object
	for _, gvk := range objectKinds(s) {
		if !strings.Contains(gvk.Group, "gateway.networking") {
			continue
		}
		obj, err := s.New(gvk)
		if err != nil {
			panic(err)
		}
		objs = append(objs, obj.(client.Object))
	}
	return objs
}

// newTestScheme is offline/scheme.New, named for readability at call sites.
func newTestScheme() *runtime.Scheme { return scheme.New() }
