package translate

import (
	"fmt"

	discoveryv1 "k8s.io/api/discovery/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
)

// parametersRef is a GatewayClass spec.parametersRef or a Gateway
// spec.infrastructure.parametersRef, reduced to what gwsim checks. ns is
// the namespace the reference points into: the one it names for a class,
// the Gateway's own for a Gateway; "" when a class names none.
type parametersRef struct {
	owner       diag.ObjectRef // the class or Gateway that holds the reference
	field       string
	group, kind string
	name, ns    string
}

// classParameters returns the parametersRef of class c, if it has one.
func classParameters(c *gwv1.GatewayClass) (parametersRef, bool) {
	ref := c.Spec.ParametersRef
	if ref == nil {
		return parametersRef{}, false
	}
	p := parametersRef{owner: diag.ObjectRef{Kind: "GatewayClass", Name: c.Name}, field: "spec.parametersRef", group: string(ref.Group), kind: string(ref.Kind), name: ref.Name}
	if ref.Namespace != nil {
		p.ns = string(*ref.Namespace)
	}
	return p, true
}

// gatewayParameters returns the infrastructure parametersRef of g, if it
// has one; it names an object in g's namespace.
func gatewayParameters(g *gwv1.Gateway) (parametersRef, bool) {
	if g.Spec.Infrastructure == nil || g.Spec.Infrastructure.ParametersRef == nil {
		return parametersRef{}, false
	}
	ref := g.Spec.Infrastructure.ParametersRef
	return parametersRef{
		owner: diag.ObjectRef{Kind: "Gateway", Namespace: g.Namespace, Name: g.Name},
		field: "spec.infrastructure.parametersRef", group: string(ref.Group), kind: string(ref.Kind),
		name: ref.Name, ns: g.Namespace,
	}, true
}

// OtherObject names an object of the input whose kind Translate does not
// read: an implementation's own kind (gateway.envoyproxy.io/EnvoyProxy) or
// a core kind gwsim skips (a Deployment). gwsim knows only that it exists,
// so a reference to it can resolve, but nothing in it is read. Group is ""
// for the core group; Namespace is "" for a cluster-scoped object.
type OtherObject struct {
	Group, Kind, Namespace, Name string
}

// parametersProblem applies the spec's rule for parametersRef (the godoc of
// GatewayClassSpec.ParametersRef and GatewayInfrastructure.ParametersRef):
// a reference to a nonexistent object, to an unsupported kind, or to a
// namespaced object without a namespace makes the class or Gateway
// Accepted=False with InvalidParameters. It returns that message, or ""
// when the reference resolves.
//
// Parameters are implementation-specific, and gwsim cannot know which
// kinds a real controller reads. It stands in for a controller that takes
// any kind as parameters, and resolves a reference when the input holds
// the object: a ConfigMap (the kind the godoc names), or an object of a
// kind gwsim does not read (Input.OtherObjects), or when the open world
// assumes it. A kind that Translate
// reads for another purpose (a Service, a Gateway API kind) holds no
// parameters, so it is unsupported.
func (w *world) parametersProblem(p parametersRef) string {
	switch {
	case p.group == "" && p.kind == "ConfigMap":
		if p.ns == "" {
			return fmt.Sprintf("%s names ConfigMap %s without a namespace; a ConfigMap is namespaced, so set %s.namespace", p.field, p.name, p.field)
		}
		if _, ok := w.configMaps[keyOf(p.ns, p.name)]; !ok && !w.assumeParameters(p) {
			return fmt.Sprintf("%s names %s, which does not exist", p.field, p.describe())
		}
	case inputKind(p.group, p.kind):
		return fmt.Sprintf("%s names %s, a kind that holds no parameters; point it at a ConfigMap or at the implementation's parameters kind "+
			"(the spec rejects a reference to an unsupported kind)", p.field, p.describe())
	case p.group == profile.EnvoyProxyKind.Group && p.kind == profile.EnvoyProxyKind.Kind && w.egProxies[keyOf(p.ns, p.name)] != nil:
	case !w.others[OtherObject{Group: p.group, Kind: p.kind, Namespace: p.ns, Name: p.name}] && !w.assumeParameters(p):
		return fmt.Sprintf("%s names %s, which is not in the input; add it, or fix the reference", p.field, p.describe())
	}
	return ""
}

// assumeParameters reports whether the open world assumes the object p
// names, recording it when it does.
func (w *world) assumeParameters(p parametersRef) bool {
	return w.assume(p.group, p.kind, p.ns, p.name, "implementation-specific parameters", p.owner, p.field)
}

// describe names the object a reference points at: kind, then
// namespace/name, or name alone when the reference names no namespace.
func (p parametersRef) describe() string {
	if p.ns == "" {
		return qualifiedKind(p.group, p.kind) + " " + p.name
	}
	return qualifiedKind(p.group, p.kind) + " " + p.ns + "/" + p.name
}

// inputKind reports whether Translate reads objects of group/kind (an
// Input field other than ConfigMaps holds them).
func inputKind(group, kind string) bool {
	switch group {
	case gwv1.GroupName:
		return true
	case "":
		return kind == "Service" || kind == "Secret" || kind == "Namespace"
	case discoveryv1.GroupName:
		return kind == "EndpointSlice"
	}
	return false
}

// parametersNotInterpreted is the finding for a parametersRef that
// resolves: gwsim accepts the object, but a real controller may behave
// differently because of what the parameters say.
func parametersNotInterpreted(p parametersRef, finding func(diag.Severity, string, string, string) diag.Finding) diag.Finding {
	return finding(diag.Info, p.field, diag.ReasonNotSupportedYet, fmt.Sprintf(
		"%s resolves; gwsim does not interpret implementation-specific parameters, so they change nothing in its output",
		p.describe()))
}

// parametersConditions returns the Accepted and Programmed conditions an
// unresolved infrastructure parametersRef imposes on a Gateway, nil when
// it resolves or there is none.
func (gr *gatewayResult) parametersConditions() (accepted, programmed *condition) {
	if gr.parameters == "" {
		return nil, nil
	}
	a := falseCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonInvalidParameters), gr.parameters)
	p := falseCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonInvalid),
		"Gateway is not accepted: "+gr.parameters)
	return &a, &p
}
