package egpolicy

import (
	"cmp"
	"slices"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// Kind is one of Envoy Gateway's policy kinds.
type Kind string

// The policy kinds, as their objects' kind says.
const (
	BackendTraffic Kind = "BackendTrafficPolicy"
	ClientTraffic  Kind = "ClientTrafficPolicy"
	Security       Kind = "SecurityPolicy"
	EnvoyExtension Kind = "EnvoyExtensionPolicy"
	EnvoyPatch     Kind = "EnvoyPatchPolicy"
)

// Kinds are the policy kinds, in the order EG's translator processes them.
var Kinds = []Kind{ClientTraffic, BackendTraffic, Security, EnvoyExtension, EnvoyPatch}

// Group is the API group of the policy kinds.
const Group = egv1a1.GroupName

// plural is how EG's Overridden messages name other policies of a kind.
func (k Kind) plural() string {
	switch k {
	case BackendTraffic:
		return "backendTrafficPolicies"
	case Security:
		return "securityPolicies"
	case EnvoyExtension:
		return "envoyExtensionPolicies"
	}
	return string(k) + "s"
}

// Accepts reports whether a policy of kind k may target objects of kind
// target (group gateway.networking.k8s.io), by the CEL rules of its CRD;
// the API server refuses any other. EnvoyPatchPolicy is decided apart
// (patch.go).
func (k Kind) Accepts(target string) bool {
	switch target {
	case "Gateway", "ListenerSet":
		return k != EnvoyPatch
	case "HTTPRoute", "GRPCRoute", "TCPRoute":
		return k == BackendTraffic || k == Security || k == EnvoyExtension
	case "UDPRoute", "TLSRoute":
		return k == BackendTraffic || k == EnvoyExtension
	}
	return false
}

// Policy is one policy as attachment reads it.
type Policy struct {
	Kind      Kind
	Namespace string
	Name      string
	// Created and Generation are the object's; Created orders policies of
	// a kind (oldest wins).
	Created    metav1.Time
	Generation int64
	Targets    egv1a1.PolicyTargetReferences
	// PatchTarget is an EnvoyPatchPolicy's spec.targetRef.
	PatchTarget *gwv1.LocalPolicyTargetReference
	// MergeType is a BackendTrafficPolicy's or SecurityPolicy's
	// (or EnvoyExtensionPolicy's) spec.mergeType: set, a route policy is
	// merged into its parent's.
	MergeType *egv1a1.MergeType
	// Deprecated maps the deprecated fields the policy sets to their
	// replacements (EG warns about them).
	Deprecated map[string]string
	// Source is where the policy was read; zero when unknown.
	Source diag.Source
	// Object is the policy object itself (*egv1a1.BackendTrafficPolicy,
	// ...), for readers of its spec. It must not be changed.
	Object client.Object
}

// Key names the policy in its kind.
func (p *Policy) Key() types.NamespacedName {
	return types.NamespacedName{Namespace: p.Namespace, Name: p.Name}
}

// Ref names the policy as findings do.
func (p *Policy) Ref() diag.ObjectRef {
	return diag.ObjectRef{Kind: string(p.Kind), Namespace: p.Namespace, Name: p.Name}
}

// FromObject reads one of EG's policy objects; ok is false for any other
// object. src is where it was read from.
func FromObject(o client.Object, src diag.Source) (p Policy, ok bool) {
	p = Policy{Namespace: o.GetNamespace(), Name: o.GetName(), Created: o.GetCreationTimestamp(),
		Generation: o.GetGeneration(), Source: src, Object: o, Deprecated: map[string]string{}}
	switch v := o.(type) {
	case *egv1a1.BackendTrafficPolicy:
		p.Kind, p.Targets, p.MergeType = BackendTraffic, v.Spec.PolicyTargetReferences, v.Spec.MergeType
		if len(v.Spec.Compression) > 0 {
			p.Deprecated["spec.compression"] = "spec.compressor"
		}
	case *egv1a1.ClientTrafficPolicy:
		p.Kind, p.Targets = ClientTraffic, v.Spec.PolicyTargetReferences
		if v.Spec.EnableProxyProtocol != nil {
			p.Deprecated["spec.enableProxyProtocol"] = "spec.proxyProtocol"
		}
		if v.Spec.Headers != nil && v.Spec.Headers.PreserveXRequestID != nil {
			p.Deprecated["spec.headers.preserveXRequestID"] = "spec.headers.requestID"
		}
		if v.Spec.TLS != nil && v.Spec.TLS.ClientValidation != nil && v.Spec.TLS.ClientValidation.Optional {
			p.Deprecated["spec.tls.clientValidation.optional"] = "spec.tls.clientValidation.mode"
		}
	case *egv1a1.SecurityPolicy:
		p.Kind, p.Targets, p.MergeType = Security, v.Spec.PolicyTargetReferences, v.Spec.MergeType
		if a := v.Spec.ExtAuth; a != nil {
			if a.GRPC != nil && a.GRPC.BackendRef != nil {
				p.Deprecated["spec.extAuth.grpc.backendRef"] = "spec.extAuth.grpc.backendRefs"
			}
			if a.HTTP != nil && a.HTTP.BackendRef != nil {
				p.Deprecated["spec.extAuth.http.backendRef"] = "spec.extAuth.http.backendRefs"
			}
		}
	case *egv1a1.EnvoyExtensionPolicy:
		p.Kind, p.Targets, p.MergeType = EnvoyExtension, v.Spec.PolicyTargetReferences, v.Spec.MergeType
	case *egv1a1.EnvoyPatchPolicy:
		t := v.Spec.TargetRef
		p.Kind, p.PatchTarget = EnvoyPatch, &t
	default:
		return Policy{}, false
	}
	if p.Targets.TargetRef != nil {
		p.Deprecated["spec.targetRef"] = "spec.targetRefs"
	}
	return p, true
}

// Sort orders policies as EG's provider hands them to its translator:
// oldest first, then by namespace and name. Policies of a kind that come
// first win a target they share.
func Sort(ps []Policy) {
	slices.SortStableFunc(ps, func(a, b Policy) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), a.Created.Time.Compare(b.Created.Time),
			cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
}
