package explain

import (
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/egeffect"
)

// PolicyNote is an implementation's policy that targets an object a
// request went through (GEP-713 policy attachment). gwsim does not
// simulate policies, so each one is a caveat on the answer.
type PolicyNote struct {
	// Step is what the policy targets: "gateway", "listener", "route" or
	// "backend".
	Step   string `json:"step"`
	Policy Ref    `json:"policy"`
	// Target is the object the policy names, and Section the sectionName
	// it names in it (a listener), if any.
	Target  Ref    `json:"target"`
	Section string `json:"section,omitempty"`
	// Message says that the effect is not simulated.
	Message string `json:"message"`
}

// policyNotes lists, for every step of t, the policies of in that target
// its object: the Gateway (whole), the listener (a policy naming it as
// sectionName of its Gateway or ListenerSet, or one on the whole
// ListenerSet), the winning route and each backend's Service or
// ServiceImport (whole).
//
// Envoy Gateway's policy kinds are left out where the listener's profile
// simulates them (the listener has client settings): their effects are
// the trace's PolicyEffects instead.
func policyNotes(in Input, t Trace, simulated bool) []PolicyNote {
	if len(in.Policies) == 0 {
		return nil
	}
	var out []PolicyNote
	add := func(step string, target Ref, section string) {
		ref := diag.ObjectRef{Kind: target.Kind, Namespace: target.Namespace, Name: target.Name}
		if step == "backend" && target.Kind == mcsv1alpha1.ServiceImportKindName {
			ref.Kind = translate.KindName(mcsv1alpha1.GroupName, target.Kind) // as PolicyTarget.Ref names it
		}
		for _, p := range translate.PoliciesTargeting(in.Policies, ref, section) {
			pr := p.Ref()
			if simulated && egeffect.IsPolicyKind(pr.Kind) {
				continue
			}
			out = append(out, PolicyNote{
				Step: step, Target: target, Section: section, Message: p.Describe(),
				Policy: Ref{Kind: pr.Kind, Namespace: pr.Namespace, Name: pr.Name, Source: p.Source.String()},
			})
		}
	}
	if t.Gateway != nil {
		add("gateway", Ref(*t.Gateway), "")
	}
	if t.Listener != nil {
		// A policy on the whole Gateway is listed at the gateway step; one
		// on the whole ListenerSet applies to each of its listeners.
		if t.Listener.Object.Kind == "ListenerSet" {
			add("listener", t.Listener.Object, "")
		}
		add("listener", t.Listener.Object, t.Listener.Name)
	}
	if t.Route != nil {
		add("route", t.Route.Object, "")
	}
	for _, b := range t.Backends {
		// A backend with a cluster-set address is a ServiceImport's.
		if b.BackendRef != nil && (b.BackendRef.Kind == "Service" || b.Address != "") {
			add("backend", *b.BackendRef, "")
		}
	}
	return out
}
