package explain

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/ir"
)

// Input is what an explanation reads: the data plane, the status the
// controller computed, the objects that routes and listeners come from
// (routes that are not attached are in no IR, so their spec is read here)
// and where each object was loaded from.
type Input struct {
	IR     ir.IR
	Status translate.Status
	// GatewayClasses say which controller runs each Gateway, which names
	// what its data plane answers (dataplane.go).
	GatewayClasses []*gwv1.GatewayClass
	Gateways       []*gwv1.Gateway
	ListenerSets   []*gwv1.ListenerSet
	HTTPRoutes     []*gwv1.HTTPRoute
	GRPCRoutes     []*gwv1.GRPCRoute
	// Secrets are read for the certificates listeners serve.
	Secrets []*corev1.Secret
	Sources diag.Sources
	// Policies are the implementation's policies of the input (see
	// PolicyNote); the caller sets them, NewInput does not.
	Policies []translate.PolicyAttachment
	// Findings are the run's findings: those of routes the loader left
	// out (rejected, not served by the channel) are near misses. The
	// caller sets them; NewInput does not.
	Findings []diag.Finding
}

// NewInput picks the objects an explanation needs out of a whole world, as
// the offline controller reads it back.
func NewInput(out translate.Output, objs []client.Object, sources diag.Sources) Input {
	in := Input{IR: out.IR, Status: out.Status, Sources: sources}
	for _, o := range objs {
		switch o := o.(type) {
		case *gwv1.GatewayClass:
			in.GatewayClasses = append(in.GatewayClasses, o)
		case *gwv1.Gateway:
			in.Gateways = append(in.Gateways, o)
		case *gwv1.ListenerSet:
			in.ListenerSets = append(in.ListenerSets, o)
		case *gwv1.HTTPRoute:
			in.HTTPRoutes = append(in.HTTPRoutes, o)
		case *gwv1.GRPCRoute:
			in.GRPCRoutes = append(in.GRPCRoutes, o)
		case *corev1.Secret:
			in.Secrets = append(in.Secrets, o)
		}
	}
	return in
}

// world indexes an Input for the lookups an explanation makes.
type world struct {
	in       Input
	gateways map[types.NamespacedName]*gwv1.Gateway
	sets     map[types.NamespacedName]*gwv1.ListenerSet
	routes   []*route
	byRef    map[diag.ObjectRef]*route
	secrets  map[string]*corev1.Secret
	// controllers are the controllerNames of the GatewayClasses, by name.
	controllers map[string]string
}

func newWorld(in Input) *world {
	w := &world{
		in:          in,
		gateways:    map[types.NamespacedName]*gwv1.Gateway{},
		sets:        map[types.NamespacedName]*gwv1.ListenerSet{},
		byRef:       map[diag.ObjectRef]*route{},
		secrets:     secretsByName(in.Secrets),
		controllers: make(map[string]string, len(in.GatewayClasses)),
	}
	for _, c := range in.GatewayClasses {
		w.controllers[c.Name] = string(c.Spec.ControllerName)
	}
	for _, g := range in.Gateways {
		w.gateways[types.NamespacedName{Namespace: g.Namespace, Name: g.Name}] = g
	}
	for _, s := range in.ListenerSets {
		w.sets[types.NamespacedName{Namespace: s.Namespace, Name: s.Name}] = s
	}
	for _, r := range in.HTTPRoutes {
		w.addRoute(httpRoute(r))
	}
	for _, r := range in.GRPCRoutes {
		w.addRoute(grpcRoute(r))
	}
	sortRoutes(w.routes)
	return w
}

func (w *world) addRoute(r *route) {
	w.routes = append(w.routes, r)
	w.byRef[r.ref] = r
}

// ref names an object with its source.
func (w *world) ref(r diag.ObjectRef) Ref {
	return Ref{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, Source: w.in.Sources.Of(r).String()}
}

// gatewayRef names the Gateway "namespace/name".
func (w *world) gatewayRef(name string) Ref {
	ns, n := splitName(name)
	return w.objectRef("Gateway", ns, n)
}

func (w *world) objectRef(kind, ns, name string) Ref {
	return w.ref(diag.ObjectRef{Kind: kind, Namespace: ns, Name: name})
}

// originRef names the route an IR route came from.
func originRef(o ir.Origin) diag.ObjectRef {
	return diag.ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}

// irGateway returns the IR of the Gateway "namespace/name".
func (w *world) irGateway(name string) *ir.Gateway {
	for i := range w.in.IR.Gateways {
		if w.in.IR.Gateways[i].Name == name {
			return &w.in.IR.Gateways[i]
		}
	}
	return nil
}
