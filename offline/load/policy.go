package load

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
)

// policyTargets is the part of an implementation's policy that gwsim reads:
// GEP-713's spec.targetRef (singular, older policies) and spec.targetRefs.
type policyTargets struct {
	Spec struct {
		TargetRef  *targetRef  `json:"targetRef"`
		TargetRefs []targetRef `json:"targetRefs"`
	} `json:"spec"`
}

type targetRef struct {
	Group       string  `json:"group"`
	Kind        string  `json:"kind"`
	Name        string  `json:"name"`
	SectionName *string `json:"sectionName"`
}

// policyAttachment reads the targetRefs of an object of a kind gwsim does
// not decode, keeping those that name a Gateway, ListenerSet, route or
// Service (in the object's namespace, as GEP-713's local references are).
// It returns false when the object names none: it is not a policy gwsim
// lists. Documents that cannot hold a targetRef are not parsed again.
func policyAttachment(js []byte, gk schema.GroupKind, ref diag.ObjectRef, src diag.Source) (translate.PolicyAttachment, bool) {
	if !bytes.Contains(js, []byte(`"targetRef`)) || ref.Name == "" {
		return translate.PolicyAttachment{}, false
	}
	var pt policyTargets
	if json.Unmarshal(js, &pt) != nil {
		return translate.PolicyAttachment{}, false
	}
	refs := pt.Spec.TargetRefs
	if pt.Spec.TargetRef != nil {
		refs = append([]targetRef{*pt.Spec.TargetRef}, refs...)
	}
	p := translate.PolicyAttachment{
		Policy: translate.OtherObject{Group: gk.Group, Kind: gk.Kind, Namespace: ref.Namespace, Name: ref.Name},
		Source: src,
	}
	for _, r := range refs {
		if !translate.PolicyTargetKind(r.Group, r.Kind) {
			continue
		}
		t := translate.PolicyTarget{Group: r.Group, Kind: r.Kind, Namespace: ref.Namespace, Name: r.Name}
		if r.SectionName != nil {
			t.SectionName = *r.SectionName
		}
		p.Targets = append(p.Targets, t)
	}
	return p, len(p.Targets) > 0
}

// sortPolicies sorts policies by identity and keeps one per policy (the
// same object given twice): the one whose targets sort first, then the
// one whose source does.
func sortPolicies(ps []translate.PolicyAttachment) []translate.PolicyAttachment {
	slices.SortFunc(ps, func(a, b translate.PolicyAttachment) int {
		return cmp.Or(a.Ref().Compare(b.Ref()), cmp.Compare(a.Policy.Group, b.Policy.Group),
			slices.CompareFunc(a.Targets, b.Targets, comparePolicyTargets),
			cmp.Compare(a.Source.File, b.Source.File), cmp.Compare(a.Source.Line, b.Source.Line))
	})
	return slices.CompactFunc(ps, func(a, b translate.PolicyAttachment) bool { return a.Policy == b.Policy })
}

// comparePolicyTargets orders targets by every field, so that of two
// policies of one name the kept one depends on what they say, not on
// where they were read.
func comparePolicyTargets(a, b translate.PolicyTarget) int {
	return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name), cmp.Compare(a.SectionName, b.SectionName))
}
