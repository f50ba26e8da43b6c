package egpolicy

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// patch decides EnvoyPatchPolicies as EG's ProcessEnvoyPatchPolicies
// does. Each names one target, no precedence or conflict applies: every
// accepted patch applies, in priority order. With merged Gateways the
// target is the GatewayClass (by name), else a Gateway in the policy's
// namespace. gwsim assumes the feature is enabled in EG's configuration
// (extensionApis.enableEnvoyPatchPolicy), which it cannot read; EG's
// default is disabled (Accepted=False, Disabled).
func (a *attacher) patch(of []*Policy) {
	merged := len(a.x.w.MergedClasses) > 0
	for _, p := range of {
		if p.PatchTarget == nil {
			continue
		}
		tr := p.PatchTarget
		t := Target{Kind: string(tr.Kind), Namespace: p.Namespace, Name: string(tr.Name), Field: "spec.targetRef"}
		wantKind := "Gateway"
		var ref gwv1.ParentReference
		if merged {
			wantKind = "GatewayClass"
			g, k := gwv1.Group(gwv1.GroupName), gwv1.Kind("GatewayClass")
			ref = gwv1.ParentReference{Group: &g, Kind: &k, Name: tr.Name}
			if !a.x.w.MergedClasses[string(tr.Name)] {
				a.refuse(p, t, []gwv1.ParentReference{ref}, Problem{Reason: string(gwv1.PolicyReasonInvalid), Message: fmt.Sprintf(
					"TargetRef.Group:%s TargetRef.Kind:%s TargetRef.Namespace:%s TargetRef.Name:%s not found or not accepted (MergeGateways=true).",
					tr.Group, tr.Kind, p.Namespace, tr.Name)})
				continue
			}
		} else {
			key := types.NamespacedName{Namespace: p.Namespace, Name: string(tr.Name)}
			if a.x.gateways[key] == nil {
				continue
			}
			ref = ancestorRef("Gateway", key, "")
		}
		refs := []gwv1.ParentReference{ref}
		if string(tr.Group) != gwv1.GroupName || string(tr.Kind) != wantKind {
			a.refuse(p, t, refs, Problem{Reason: string(gwv1.PolicyReasonInvalid), Message: fmt.Sprintf(
				"TargetRef.Group:%s TargetRef.Kind:%s, only TargetRef.Group:%s and TargetRef.Kind:%s is supported.", tr.Group, tr.Kind, gwv1.GroupName, wantKind)})
			continue
		}
		for _, r := range refs {
			a.builder(p).accept(r)
		}
		a.r.Attachments = append(a.r.Attachments, Attachment{Policy: p, Level: LevelGateway, Target: t})
	}
}
