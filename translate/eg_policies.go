package translate

import (
	"slices"
	"strconv"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/egpolicy"
)

// EGPolicyStatusView is the status gwsim wrote that policy attachment
// reads: a Gateway's own status and a route's parent statuses. The
// offline controller reads them from the store; a caller of Translate
// from Output.Status.
type EGPolicyStatusView struct {
	Gateway func(key types.NamespacedName) (gwv1.GatewayStatus, bool)
	Parents func(route client.Object) []gwv1.RouteParentStatus
}

// EGPolicies decides the attachment and status of the Envoy Gateway
// policies of in (translate/egpolicy) for the Gateways whose profile
// simulates them: a Gateway of gwsim's, of such a class, that Envoy
// Gateway's translator takes (not refused as a whole for its parameters
// or an address type), and the routes' parentRefs that got a parent
// status from gwsim.
func EGPolicies(in Input, opts Options, view EGPolicyStatusView) *egpolicy.Result {
	var ps []egpolicy.Policy
	add := func(o client.Object) {
		if p, ok := egpolicy.FromObject(o, diag.Source{}); ok {
			p.Source = in.Sources.Of(p.Ref())
			ps = append(ps, p)
		}
	}
	for _, o := range in.BackendTrafficPolicies {
		add(o)
	}
	for _, o := range in.ClientTrafficPolicies {
		add(o)
	}
	for _, o := range in.SecurityPolicies {
		add(o)
	}
	for _, o := range in.EnvoyExtensionPolicies {
		add(o)
	}
	for _, o := range in.EnvoyPatchPolicies {
		add(o)
	}
	world := egpolicy.BuildWorld(egPolicyObjects(in, opts), egpolicy.Judge{
		TakesGateway: func(g *gwv1.Gateway) bool { return egTakesGateway(in, opts, g, view) },
		Handles: func(route client.Object, ref gwv1.ParentReference) bool {
			return slices.ContainsFunc(view.Parents(route), func(ps gwv1.RouteParentStatus) bool {
				return ownsController(opts, string(ps.ControllerName)) && egSameParentRef(route.GetNamespace(), ps.ParentRef, ref)
			})
		},
		Serves: func(g *gwv1.Gateway, listener gwv1.SectionName) bool {
			st, _ := view.Gateway(types.NamespacedName{Namespace: g.Namespace, Name: g.Name})
			i := slices.IndexFunc(st.Listeners, func(l gwv1.ListenerStatus) bool { return l.Name == listener })
			return i < 0 || meta.IsStatusConditionTrue(st.Listeners[i].Conditions, string(gwv1.ListenerConditionProgrammed))
		},
	})
	controller := profile.EnvoyGatewayController
	if len(opts.ControllerNames) > 0 {
		controller = opts.ControllerNames[0]
	}
	return egpolicy.Attach(world, ps, egpolicy.Options{ControllerName: controller, Now: opts.Now})
}

func egPolicyObjects(in Input, opts Options) egpolicy.Objects {
	o := egpolicy.Objects{Gateways: in.Gateways, ListenerSets: in.ListenerSets, Namespaces: in.Namespaces,
		Grants: in.ReferenceGrants, MergedClasses: map[string]bool{},
		Services: in.Services, Secrets: in.Secrets, ConfigMaps: in.ConfigMaps}
	for _, r := range in.HTTPRoutes {
		o.Routes = append(o.Routes, r)
	}
	for _, r := range in.GRPCRoutes {
		o.Routes = append(o.Routes, r)
	}
	for _, r := range in.TLSRoutes {
		o.Routes = append(o.Routes, r)
	}
	for _, r := range in.TCPRoutes {
		o.Routes = append(o.Routes, r)
	}
	for _, r := range in.UDPRoutes {
		o.Routes = append(o.Routes, r)
	}
	o.DynamicModules = map[types.NamespacedName][]string{}
	for _, g := range in.Gateways {
		if ep := egProxyOf(in, g); ep != nil {
			for _, m := range ep.Spec.DynamicModules {
				key := types.NamespacedName{Namespace: g.Namespace, Name: g.Name}
				o.DynamicModules[key] = append(o.DynamicModules[key], m.Name)
			}
		}
	}
	for _, c := range in.GatewayClasses {
		ref := c.Spec.ParametersRef
		if ref == nil || ref.Namespace == nil || !ProfileOf(opts, c).Simulates(profile.EnvoyProxyKind) ||
			string(ref.Group) != profile.EnvoyProxyKind.Group || string(ref.Kind) != profile.EnvoyProxyKind.Kind {
			continue
		}
		for _, ep := range in.EnvoyProxies {
			if ep.Namespace == string(*ref.Namespace) && ep.Name == ref.Name && ep.Spec.MergeGateways != nil && *ep.Spec.MergeGateways {
				o.MergedClasses[c.Name] = true
			}
		}
	}
	return o
}

// egTakesGateway reports whether g is a Gateway of gwsim's whose profile
// simulates Envoy Gateway's policies and that is not refused as a whole
// (Accepted False for its parameters or an unsupported address).
func egTakesGateway(in Input, opts Options, g *gwv1.Gateway, view EGPolicyStatusView) bool {
	i := slices.IndexFunc(in.GatewayClasses, func(c *gwv1.GatewayClass) bool { return c.Name == string(g.Spec.GatewayClassName) })
	if i < 0 {
		return false
	}
	c := in.GatewayClasses[i]
	if !ownsController(opts, string(c.Spec.ControllerName)) || !ProfileOf(opts, c).Simulates(profile.BackendTrafficPolicyKind) {
		return false
	}
	st, ok := view.Gateway(types.NamespacedName{Namespace: g.Namespace, Name: g.Name})
	if !ok {
		return false
	}
	for _, cond := range st.Conditions {
		if cond.Type == string(gwv1.GatewayConditionAccepted) && cond.Status == "False" &&
			(cond.Reason == string(gwv1.GatewayReasonInvalidParameters) || cond.Reason == string(gwv1.GatewayReasonUnsupportedAddress)) {
			return false
		}
	}
	return true
}

func ownsController(opts Options, name string) bool {
	return len(opts.ControllerNames) == 0 || slices.Contains(opts.ControllerNames, name)
}

// egSameParentRef reports whether two parentRefs of a route in namespace ns
// name the same parent, with their defaults filled in.
func egSameParentRef(ns string, a, b gwv1.ParentReference) bool {
	norm := func(r gwv1.ParentReference) [6]string {
		out := [6]string{gwv1.GroupName, "Gateway", ns, string(r.Name), "", ""}
		if r.Group != nil {
			out[0] = string(*r.Group)
		}
		if r.Kind != nil {
			out[1] = string(*r.Kind)
		}
		if r.Namespace != nil && *r.Namespace != "" {
			out[2] = string(*r.Namespace)
		}
		if r.SectionName != nil {
			out[4] = string(*r.SectionName)
		}
		if r.Port != nil {
			out[5] = strconv.Itoa(int(*r.Port))
		}
		return out
	}
	return norm(a) == norm(b)
}

// SimulatedPolicies are the policies of the run whose effect gwsim
// simulates, keyed as PolicyAttachment.Ref names them: the Envoy Gateway
// policies whose attachment was decided for the envoy-gateway profile and
// whose kind acts on requests in the evaluator (SecurityPolicy,
// BackendTrafficPolicy, ClientTrafficPolicy; the fields it does not model
// are named on explain's policy steps). EnvoyExtensionPolicy and
// EnvoyPatchPolicy attach, but act through code gwsim does not run.
func (o Output) SimulatedPolicies() map[diag.ObjectRef]bool {
	if o.EGPolicies == nil {
		return nil
	}
	out := map[diag.ObjectRef]bool{}
	for _, p := range o.EGPolicies.Policies {
		switch p.Kind {
		case egpolicy.Security, egpolicy.BackendTraffic, egpolicy.ClientTraffic:
			out[diag.ObjectRef{Kind: KindName(profile.EnvoyGatewayGroup, string(p.Kind)), Namespace: p.Namespace, Name: p.Name}] = true
		}
	}
	return out
}

// egProxyOf is the EnvoyProxy a Gateway runs with, read from in as
// egGatewayProxy reads it: the Gateway's own infrastructure parameters
// unless its class's EnvoyProxy merges Gateways, else the class's.
func egProxyOf(in Input, g *gwv1.Gateway) *egv1a1.EnvoyProxy {
	find := func(p parametersRef) *egv1a1.EnvoyProxy {
		if p.group != profile.EnvoyProxyKind.Group || p.kind != profile.EnvoyProxyKind.Kind {
			return nil
		}
		for _, ep := range in.EnvoyProxies {
			if ep.Namespace == p.ns && ep.Name == p.name {
				return ep
			}
		}
		return nil
	}
	var class *egv1a1.EnvoyProxy
	for _, c := range in.GatewayClasses {
		if c.Name == string(g.Spec.GatewayClassName) {
			if p, ok := classParameters(c); ok {
				class = find(p)
			}
		}
	}
	if class == nil || class.Spec.MergeGateways == nil || !*class.Spec.MergeGateways {
		if p, ok := gatewayParameters(g); ok {
			if ep := find(p); ep != nil {
				return ep
			}
		}
	}
	return class
}
