package controller

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/defaulttest"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/translate"
)

// Test fixtures: gwsim stands in for ours; theirs is another controller.
const (
	ours   = "gwsim.dev/controller"
	theirs = "other.example/controller"
)

var (
	now    = metav1.NewTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	before = metav1.NewTime(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
)

func testOptions() translate.Options {
	return translate.Options{ControllerNames: []string{ours}, Now: now}
}

// newClient builds a fake client with the index table, as offline.FakeStore
// does (which this package cannot import).
func newClient(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	defaulttest.All(t, objs...)
	b := fake.NewClientBuilder().WithScheme(scheme.New()).WithStatusSubresource(
		&gwv1.GatewayClass{}, &gwv1.Gateway{}, &gwv1.ListenerSet{},
		&gwv1.HTTPRoute{}, &gwv1.GRPCRoute{}, &gwv1.TLSRoute{}, &gwv1.TCPRoute{}, &gwv1.UDPRoute{},
	).WithObjects(objs...)
	for _, i := range Indexes() {
		b = b.WithIndex(i.Object, i.Field, i.Extract)
	}
	return b.Build()
}

// recorder is a client that logs every read, so tests can check what a
// reconciler reads.
type recorder struct {
	client.Client
	calls []string
}

func (r *recorder) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	gvk, _ := apiutil.GVKForObject(obj, r.Scheme())
	r.calls = append(r.calls, fmt.Sprintf("Get %s %s", gvk.Kind, key))
	return r.Client.Get(ctx, key, obj, opts...)
}

func (r *recorder) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	gvk, _ := apiutil.GVKForObject(list, r.Scheme())
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	call := "List " + strings.TrimSuffix(gvk.Kind, "List")
	if lo.Namespace != "" {
		call += " ns=" + lo.Namespace
	}
	if lo.FieldSelector != nil {
		call += " " + lo.FieldSelector.String()
	}
	r.calls = append(r.calls, call)
	return r.Client.List(ctx, list, opts...)
}

// stubTranslate stands in for translate.Translate in tests of the
// mechanics: every class of ours is Accepted, every Gateway of such a class
// is Accepted with the number of HTTPRoutes in the input as message, and
// every HTTPRoute parentRef naming a Gateway in the input gets an Accepted
// parent status.
func stubTranslate(in translate.Input, opts translate.Options) translate.Output {
	st := translate.Status{
		GatewayClasses: map[types.NamespacedName]gwv1.GatewayClassStatus{},
		Gateways:       map[types.NamespacedName]gwv1.GatewayStatus{},
		Routes:         map[diag.ObjectRef][]gwv1.RouteParentStatus{},
	}
	accepted := func(msg string) []metav1.Condition {
		return []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", Message: msg, LastTransitionTime: opts.Now}}
	}
	classes := map[string]string{}
	for _, c := range in.GatewayClasses {
		if len(opts.ControllerNames) == 0 || slices.Contains(opts.ControllerNames, string(c.Spec.ControllerName)) {
			classes[c.Name] = string(c.Spec.ControllerName)
			st.GatewayClasses[types.NamespacedName{Name: c.Name}] = gwv1.GatewayClassStatus{Conditions: accepted("")}
		}
	}
	gateways := map[types.NamespacedName]string{}
	for _, g := range in.Gateways {
		if ctrl, ok := classes[string(g.Spec.GatewayClassName)]; ok {
			key := types.NamespacedName{Namespace: g.Namespace, Name: g.Name}
			gateways[key] = ctrl
			st.Gateways[key] = gwv1.GatewayStatus{Conditions: accepted(fmt.Sprintf("%d routes", len(in.HTTPRoutes)))}
		}
	}
	for _, r := range in.HTTPRoutes {
		ref := diag.ObjectRef{Kind: "HTTPRoute", Namespace: r.Namespace, Name: r.Name}
		for _, p := range r.Spec.ParentRefs {
			kind, key, _ := parentTarget(r.Namespace, p)
			if ctrl, ok := gateways[key]; ok && kind == kindGateway {
				st.Routes[ref] = append(st.Routes[ref], gwv1.RouteParentStatus{
					ParentRef: p, ControllerName: gwv1.GatewayController(ctrl), Conditions: accepted(""),
				})
			}
		}
	}
	return translate.Output{Status: st}
}

func gatewayClass(name, ctrl string) *gwv1.GatewayClass {
	return &gwv1.GatewayClass{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       gwv1.GatewayClassSpec{ControllerName: gwv1.GatewayController(ctrl)},
	}
}

func gateway(ns, name, class string, listeners ...gwv1.Listener) *gwv1.Gateway {
	return defaulttest.Must(&gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       gwv1.GatewaySpec{GatewayClassName: gwv1.ObjectName(class), Listeners: listeners},
	})
}

func httpRoute(ns, name string, parents []gwv1.ParentReference, backends ...gwv1.BackendObjectReference) *gwv1.HTTPRoute {
	r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	r.Spec.ParentRefs = parents
	var refs []gwv1.HTTPBackendRef
	for _, b := range backends {
		refs = append(refs, gwv1.HTTPBackendRef{BackendRef: gwv1.BackendRef{BackendObjectReference: b}})
	}
	if refs != nil {
		r.Spec.Rules = []gwv1.HTTPRouteRule{{BackendRefs: refs}}
	}
	return defaulttest.Must(r)
}

// gwRef is a parentRef to a Gateway (see defaultedRef); ns "" leaves the
// namespace unset.
func gwRef(ns, name string) gwv1.ParentReference {
	ref := gwv1.ParentReference{Name: gwv1.ObjectName(name)}
	if ns != "" {
		ref.Namespace = ptr(gwv1.Namespace(ns))
	}
	return defaultedRef(ref)
}

// defaultedRef is ref with the CRD defaults a route's parentRef gets (group
// and kind), as the loader stores it and status echoes it.
func defaultedRef(ref gwv1.ParentReference) gwv1.ParentReference {
	r := &gwv1.HTTPRoute{Spec: gwv1.HTTPRouteSpec{CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{ref}}}}
	return defaulttest.Must(r).Spec.ParentRefs[0]
}

func svcRef(ns, name string) gwv1.BackendObjectReference {
	ref := gwv1.BackendObjectReference{Name: gwv1.ObjectName(name), Port: ptr(gwv1.PortNumber(80))}
	if ns != "" {
		ref.Namespace = ptr(gwv1.Namespace(ns))
	}
	return ref
}

func parentStatus(ref gwv1.ParentReference, ctrl, reason string, at metav1.Time) gwv1.RouteParentStatus {
	return gwv1.RouteParentStatus{
		ParentRef:      ref,
		ControllerName: gwv1.GatewayController(ctrl),
		Conditions:     []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: reason, LastTransitionTime: at}},
	}
}

func namespace(name string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

func ptr[T any](v T) *T { return &v }
