package translate

import (
	"encoding/json"
	"slices"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/egeffect"
	"github.com/gwsim/gwsim/translate/egpolicy"
	"github.com/gwsim/gwsim/translate/ir"
)

// Envoy Gateway's policies in the IR (envoy-gateway profile). Once the IR
// is laid out, each HTTP and HTTPS listener of a Gateway whose profile
// simulates the policies gets how it reads requests (Envoy Gateway's
// defaults, or its ClientTrafficPolicy's settings), and each route rule on
// it what the policies that apply there do (translate/egpolicy decides
// which apply, translate/egeffect what they do). Virtual hosts share
// their routes' array across listeners; a rule whose policies differ by
// listener gets its own copy.

// addPolicyEffects puts the policies' effects into out.IR.
func (w *world) addPolicyEffects(out *Output) {
	if !w.anyProfileSimulates(profile.ClientTrafficPolicyKind) {
		return
	}
	res := out.EGPolicies
	names := ruleNames(w.in)
	for gi := range out.IR.Gateways {
		g := &out.IR.Gateways[gi]
		if !w.classSimulates(g.Class, profile.ClientTrafficPolicyKind) {
			continue
		}
		ns, name, _ := strings.Cut(g.Name, "/")
		gw := types.NamespacedName{Namespace: ns, Name: name}
		for li := range g.Listeners {
			port := &g.Listeners[li]
			for i := range port.Listeners {
				gl := &port.Listeners[i]
				if gl.Protocol == string(gwv1.HTTPProtocolType) || gl.Protocol == string(gwv1.HTTPSProtocolType) {
					gl.Client = clientEffect(res, listenerPoint(gw, *gl))
				}
			}
			if res == nil {
				continue
			}
			for vi := range port.VirtualHosts {
				w.addRulePolicies(res, &port.VirtualHosts[vi], gw, port.Listeners, names)
			}
		}
	}
}

// addRulePolicies sets the policies of each route of vh, copying the
// routes' array before the first change.
func (w *world) addRulePolicies(res *egpolicy.Result, vh *ir.VirtualHost, gw types.NamespacedName, listeners []ir.GatewayListener, names map[ir.Origin]string) {
	i := slices.IndexFunc(listeners, func(l ir.GatewayListener) bool { return l.Name == vh.Listener })
	if i < 0 {
		return
	}
	var routes []ir.Route
	for ri, r := range vh.Routes {
		pt := listenerPoint(gw, listeners[i])
		o := r.Origin
		pt.RouteKind, pt.Route = o.Kind, types.NamespacedName{Namespace: o.Namespace, Name: o.Name}
		pt.Rule = names[ir.Origin{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Rule: o.Rule}]
		p := w.routeEffects(res.Effective(pt))
		if p == nil {
			continue
		}
		if routes == nil {
			routes = slices.Clone(vh.Routes)
		}
		routes[ri].Policies = p
	}
	if routes != nil {
		vh.Routes = routes
	}
}

// routeEffects is what the applied policies do to a rule's requests; nil
// when nothing.
func (w *world) routeEffects(applied []egpolicy.Applied) *ir.Policies {
	p := &ir.Policies{}
	for _, a := range applied {
		if a.Invalid != "" {
			if a.Policy.Kind == egpolicy.ClientTraffic && !a.FailsClosed {
				continue // the listener names it (clientEffect)
			}
			egeffect.AddRefused(p, egeffect.Ref(profile.EnvoyGatewayGroup+"/"+string(a.Policy.Kind), a.Policy.Namespace, a.Policy.Name), a.Invalid, a.FailsClosed)
			continue
		}
		switch o := merged(a).(type) {
		case *egv1a1.SecurityPolicy:
			egeffect.AddSecurity(p, o)
		case *egv1a1.BackendTrafficPolicy:
			egeffect.AddBackendTraffic(p, o, w.egResponseBody)
		case *egv1a1.EnvoyExtensionPolicy:
			egeffect.AddNotSimulated(p, egeffect.Ref(egeffect.EnvoyExtensionPolicy, o.Namespace, o.Name),
				"its extensions (Wasm, Lua, external processing, dynamic modules)")
		case *egv1a1.EnvoyPatchPolicy:
			egeffect.AddNotSimulated(p, egeffect.Ref(egeffect.EnvoyPatchPolicy, o.Namespace, o.Name),
				"its patches to Envoy's configuration")
		}
	}
	if egeffect.Empty(p) {
		return nil
	}
	return p
}

// clientEffect is how a listener reads requests: its ClientTrafficPolicy's
// settings, else Envoy Gateway's defaults.
func clientEffect(res *egpolicy.Result, pt egpolicy.Point) *ir.ClientSettings {
	if res != nil {
		for _, a := range res.Effective(pt) {
			ctp, ok := a.Policy.Object.(*egv1a1.ClientTrafficPolicy)
			if !ok {
				continue
			}
			if a.Invalid != "" {
				// Refused here, it configures nothing (where EG fails
				// closed, the rules answer 500: routeEffects).
				c := egeffect.Defaults()
				c.Refused = &ir.RefusedPolicy{Policy: egeffect.Ref(egeffect.ClientTrafficPolicy, ctp.Namespace, ctp.Name), Message: a.Invalid, FailsClosed: a.FailsClosed}
				return c
			}
			return egeffect.Client(ctp)
		}
	}
	return egeffect.Defaults()
}

// merged is the policy a route applies: its own, or, when it sets
// spec.mergeType, its parent's merged with it as Envoy Gateway merges them
// (internal/utils.Merge: a strategic merge patch, or a JSON merge patch,
// of the route's policy onto the parent's). A merge that fails keeps the
// route's own.
func merged(a egpolicy.Applied) client.Object {
	if a.MergedWith == nil || a.Policy.MergeType == nil {
		return a.Policy.Object
	}
	parent, child := a.MergedWith.Policy.Object, a.Policy.Object
	pj, err1 := json.Marshal(parent)
	cj, err2 := json.Marshal(child)
	if err1 != nil || err2 != nil {
		return child
	}
	out := child.DeepCopyObject().(client.Object)
	var mj []byte
	var err error
	if *a.Policy.MergeType == egv1a1.JSONMerge {
		mj, err = jsonpatch.MergePatch(pj, cj)
	} else {
		mj, err = strategicpatch.StrategicMergePatch(pj, cj, out)
	}
	if err != nil || json.Unmarshal(mj, out) != nil {
		return child
	}
	return out
}

// listenerPoint is where egpolicy looks up a listener's policies.
func listenerPoint(gw types.NamespacedName, l ir.GatewayListener) egpolicy.Point {
	pt := egpolicy.Point{Gateway: gw, Listener: l.Name}
	if l.ListenerSet != "" {
		ns, name, _ := strings.Cut(l.ListenerSet, "/")
		pt.ListenerSet = &types.NamespacedName{Namespace: ns, Name: name}
		pt.Listener = l.Name[len(l.ListenerSet)+1:]
	}
	return pt
}

// classSimulates reports whether the profile of GatewayClass name
// simulates gk.
func (w *world) classSimulates(name string, gk schema.GroupKind) bool {
	for _, c := range w.in.GatewayClasses {
		if c.Name == name {
			return ProfileOf(w.opts, c).Simulates(gk)
		}
	}
	return false
}

// ruleNames maps each named rule of the HTTP and gRPC routes to its name.
func ruleNames(in Input) map[ir.Origin]string {
	out := map[ir.Origin]string{}
	for _, r := range in.HTTPRoutes {
		for i, rule := range r.Spec.Rules {
			if rule.Name != nil {
				out[ir.Origin{Kind: "HTTPRoute", Namespace: r.Namespace, Name: r.Name, Rule: i}] = string(*rule.Name)
			}
		}
	}
	for _, r := range in.GRPCRoutes {
		for i, rule := range r.Spec.Rules {
			if rule.Name != nil {
				out[ir.Origin{Kind: "GRPCRoute", Namespace: r.Namespace, Name: r.Name, Rule: i}] = string(*rule.Name)
			}
		}
	}
	return out
}

// statusView reads the Gateways' and routes' status translate computed.
func statusView(st Status) EGPolicyStatusView {
	return EGPolicyStatusView{
		Gateway: func(key types.NamespacedName) (gwv1.GatewayStatus, bool) {
			s, ok := st.Gateways[key]
			return s, ok
		},
		Parents: func(route client.Object) []gwv1.RouteParentStatus {
			return st.Routes[diag.ObjectRef{Kind: routeKind(route), Namespace: route.GetNamespace(), Name: route.GetName()}]
		},
	}
}

// routeKind is the kind of a Gateway API route object.
func routeKind(o client.Object) string {
	switch o.(type) {
	case *gwv1.HTTPRoute:
		return "HTTPRoute"
	case *gwv1.GRPCRoute:
		return "GRPCRoute"
	case *gwv1.TLSRoute:
		return "TLSRoute"
	case *gwv1.TCPRoute:
		return "TCPRoute"
	case *gwv1.UDPRoute:
		return "UDPRoute"
	}
	return o.GetObjectKind().GroupVersionKind().Kind
}
