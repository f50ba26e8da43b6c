package translate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/diag"
)

// PolicyAttachment is an object of a kind gwsim does not decode whose
// spec.targetRef or spec.targetRefs names a Gateway (or one of its
// listeners), a ListenerSet, a route, a Service or a ServiceImport: a policy of the
// implementation's (Envoy Gateway's SecurityPolicy or
// BackendTrafficPolicy, for example; GEP-713 metaresources). gwsim does
// not simulate what it does, and says so wherever it may change an answer.
type PolicyAttachment struct {
	Policy OtherObject
	// Source is where the policy's document starts.
	Source diag.Source
	// Targets are the objects it names, in the policy's namespace.
	Targets []PolicyTarget
}

// PolicyTarget is one targetRef of a policy. SectionName is a listener
// name of a Gateway, a port name of a Service, a rule name of a route.
type PolicyTarget struct {
	Group, Kind, Namespace, Name, SectionName string
}

// Ref names the target as findings do.
func (t PolicyTarget) Ref() diag.ObjectRef {
	return diag.ObjectRef{Kind: KindName(t.Group, t.Kind), Namespace: t.Namespace, Name: t.Name}
}

func (t PolicyTarget) String() string {
	s := t.Ref().String()
	if t.SectionName != "" {
		s += " (section " + t.SectionName + ")"
	}
	return s
}

// Ref names the policy as findings do.
func (p PolicyAttachment) Ref() diag.ObjectRef {
	return diag.ObjectRef{Kind: KindName(p.Policy.Group, p.Policy.Kind), Namespace: p.Policy.Namespace, Name: p.Policy.Name}
}

// Describe says that the policy targets a step and is not simulated, for
// an explanation.
func (p PolicyAttachment) Describe() string {
	return p.Ref().String() + " targets it; its effect is not simulated, so the real answer may differ"
}

// PolicyTargetKind reports whether a targetRef to group/kind is one gwsim
// lists a policy for: a Gateway API Gateway, ListenerSet or route, a core
// Service, or a ServiceImport (a backend as a Service is).
func PolicyTargetKind(group, kind string) bool {
	switch group {
	case gwv1.GroupName:
		switch kind {
		case "Gateway", "ListenerSet", "HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute":
			return true
		}
	case "":
		return kind == "Service"
	case mcsv1alpha1.GroupName:
		return kind == mcsv1alpha1.ServiceImportKindName
	}
	return false
}

// PolicyFindings is one Info finding per policy, listing the objects it
// targets and whether each is in the input (known holds the input's
// objects).
func PolicyFindings(policies []PolicyAttachment, known func(diag.ObjectRef) bool) []diag.Finding {
	out := make([]diag.Finding, 0, len(policies))
	for _, p := range policies {
		targets := make([]string, len(p.Targets))
		for i, t := range p.Targets {
			targets[i] = t.String()
			if !known(t.Ref()) {
				targets[i] += " (not in the input)"
			}
		}
		out = append(out, diag.Finding{
			Severity: diag.Info, Object: p.Ref(), Source: p.Source, Field: "spec.targetRefs", Reason: diag.ReasonPolicyNotSimulated,
			Message: fmt.Sprintf("policy attached to %s; gwsim does not simulate its effect, so routing, status and explain may differ from the real gateway's",
				strings.Join(targets, ", ")),
		})
	}
	return out
}

// PoliciesTargeting returns the policies with a targetRef to ref whose
// sectionName is section ("" for the whole object), sorted by policy.
func PoliciesTargeting(policies []PolicyAttachment, ref diag.ObjectRef, section string) []PolicyAttachment {
	var out []PolicyAttachment
	for _, p := range policies {
		if slices.ContainsFunc(p.Targets, func(t PolicyTarget) bool { return t.Ref() == ref && t.SectionName == section }) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b PolicyAttachment) int { return cmp.Compare(a.Ref().String(), b.Ref().String()) })
	return out
}
