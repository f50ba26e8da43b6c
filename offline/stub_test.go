package offline

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/defaulttest"
	"github.com/gwsim/gwsim/translate"
)

const (
	ours   = "gwsim.dev/controller"
	theirs = "other.example/controller"
)

var now = metav1.NewTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))

func testOptions() Options {
	return Options{Translate: translate.Options{ControllerNames: []string{ours}, Now: now}}
}

// stubTranslate stands in for translate.Translate in tests of the loop:
// classes of ours are Accepted, their Gateways are Accepted with the number
// of HTTPRoutes in the input as message, and each HTTPRoute parentRef to
// such a Gateway (same namespace, by name) gets an Accepted parent status.
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
		if slices.Contains(opts.ControllerNames, string(c.Spec.ControllerName)) {
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
			if ctrl, ok := gateways[types.NamespacedName{Namespace: r.Namespace, Name: string(p.Name)}]; ok {
				st.Routes[ref] = append(st.Routes[ref], gwv1.RouteParentStatus{ParentRef: p, ControllerName: gwv1.GatewayController(ctrl), Conditions: accepted("")})
			}
		}
	}
	return translate.Output{Status: st}
}

func gatewayClass(name, ctrl string) *gwv1.GatewayClass {
	return &gwv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: gwv1.GatewayClassSpec{ControllerName: gwv1.GatewayController(ctrl)}}
}

func gateway(ns, name, class string) *gwv1.Gateway {
	return defaulttest.Must(&gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: gwv1.GatewaySpec{GatewayClassName: gwv1.ObjectName(class), Listeners: []gwv1.Listener{
			{Name: "http", Port: 80, Protocol: gwv1.HTTPProtocolType},
		}},
	})
}

func httpRoute(ns, name string, gateways ...string) *gwv1.HTTPRoute {
	r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for _, g := range gateways {
		r.Spec.ParentRefs = append(r.Spec.ParentRefs, gwv1.ParentReference{Name: gwv1.ObjectName(g)})
	}
	port := gwv1.PortNumber(80)
	r.Spec.Rules = []gwv1.HTTPRouteRule{{BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{
		BackendObjectReference: gwv1.BackendObjectReference{Name: "web", Port: &port},
	}}}}}
	return defaulttest.Must(r)
}

func service(ns, name string) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
	}
}

func namespace(name string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
}
