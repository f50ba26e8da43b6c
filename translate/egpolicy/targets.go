package egpolicy

import (
	"cmp"
	"slices"
	"strconv"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Target is one object a policy names, resolved to its namespace.
type Target struct {
	Kind, Namespace, Name string
	// Section is the sectionName, "" for the whole object.
	Section string
	// Field is where the policy names it (spec.targetRefs[1],
	// spec.targetSelectors[0]).
	Field string
}

// targets returns the targets of p among the objects of the kinds
// candidates offers, as EG's resolvePolicyTargets does: what the
// selectors pick (oldest object first), then the references not already
// picked. Only the references can carry a section.
func (x *index) targets(p *Policy, withSelectors bool) []Target {
	var out []Target
	if withSelectors {
		out = x.selected(p)
	}
	for _, t := range references(p) {
		if !slices.ContainsFunc(out, func(o Target) bool { return sameTarget(o, t) }) {
			out = append(out, t)
		}
	}
	return out
}

func sameTarget(a, b Target) bool {
	return a.Kind == b.Kind && a.Namespace == b.Namespace && a.Name == b.Name && a.Section == b.Section
}

// references are the targetRef, or else the targetRefs, in the policy's
// namespace (EG's GetTargetRefs: a targetRef hides the targetRefs).
func references(p *Policy) []Target {
	var refs []gwv1.LocalPolicyTargetReferenceWithSectionName
	var fields []string
	if r := p.Targets.TargetRef; r != nil {
		refs, fields = append(refs, *r), append(fields, "spec.targetRef")
	} else {
		for i, r := range p.Targets.TargetRefs {
			refs, fields = append(refs, r), append(fields, fieldIndex("spec.targetRefs", i))
		}
	}
	var out []Target
	for i, r := range refs {
		if r.Group != gwv1.GroupName && r.Group != "" {
			continue
		}
		t := Target{Kind: string(r.Kind), Namespace: p.Namespace, Name: string(r.Name), Field: fields[i]}
		if r.SectionName != nil {
			t.Section = string(*r.SectionName)
		}
		out = append(out, t)
	}
	return out
}

// candidate is an object a selector may pick.
type candidate struct {
	kind string
	obj  Object
}

func (x *index) candidates() []candidate {
	var out []candidate
	for _, g := range x.w.Gateways {
		out = append(out, candidate{"Gateway", g.Object})
	}
	for _, ls := range x.w.ListenerSets {
		out = append(out, candidate{"ListenerSet", ls.Object})
	}
	for _, r := range x.w.Routes {
		out = append(out, candidate{r.Kind, r.Object})
	}
	return out
}

// selected returns the objects the policy's targetSelectors pick, oldest
// first (EG's composePolicyTargetRefs; equal ages keep selector order).
func (x *index) selected(p *Policy) []Target {
	type picked struct {
		t       Target
		created metav1.Time
	}
	var out []picked
	for i, sel := range p.Targets.TargetSelectors {
		group := gwv1.GroupName
		if sel.Group != nil {
			group = string(*sel.Group)
		}
		if group != gwv1.GroupName {
			continue
		}
		ls, err := selectorOf(sel)
		if err != nil {
			continue
		}
		for _, c := range x.candidates() {
			if c.kind != string(sel.Kind) || !x.namespaceMatches(sel, p.Namespace, c.obj.Namespace) || !ls.Matches(labels.Set(c.obj.Labels)) {
				continue
			}
			if c.obj.Namespace != p.Namespace && !x.granted(p, c.kind, c.obj) {
				continue
			}
			t := Target{Kind: c.kind, Namespace: c.obj.Namespace, Name: c.obj.Name, Field: fieldIndex("spec.targetSelectors", i)}
			if slices.ContainsFunc(out, func(o picked) bool { return sameTarget(o.t, t) }) {
				continue
			}
			out = append(out, picked{t, c.obj.Created})
		}
	}
	slices.SortStableFunc(out, func(a, b picked) int { return a.created.Time.Compare(b.created.Time) })
	ts := make([]Target, len(out))
	for i, o := range out {
		ts[i] = o.t
	}
	return ts
}

// selectorOf is the label selector of a TargetSelector: matchLabels and
// matchExpressions together.
func selectorOf(sel egv1a1.TargetSelector) (labels.Selector, error) {
	return metav1.LabelSelectorAsSelector(&metav1.LabelSelector{MatchLabels: sel.MatchLabels, MatchExpressions: sel.MatchExpressions})
}

func fieldIndex(field string, i int) string {
	return field + "[" + strconv.Itoa(i) + "]"
}

// namespaceMatches reports whether a selector considers objects in ns: the
// policy's own namespace unless its namespaces say All, or Selector and
// the namespace's labels match.
func (x *index) namespaceMatches(sel egv1a1.TargetSelector, policyNS, ns string) bool {
	n := sel.Namespaces
	if n == nil {
		return ns == policyNS
	}
	switch n.From {
	case "", egv1a1.TargetNamespaceFromSame:
		return ns == policyNS
	case egv1a1.TargetNamespaceFromAll:
		return true
	case egv1a1.TargetNamespaceFromSelector:
		nsLabels, ok := x.w.NamespaceLabels[ns]
		if !ok || n.Selector == nil {
			return false
		}
		s, err := metav1.LabelSelectorAsSelector(n.Selector)
		return err == nil && s.Matches(labels.Set(nsLabels))
	}
	return false
}

// granted reports whether a ReferenceGrant in the object's namespace lets
// the policy's kind in its namespace refer to it.
func (x *index) granted(p *Policy, kind string, obj Object) bool {
	for _, g := range x.w.Grants {
		if g.Namespace != obj.Namespace {
			continue
		}
		from := slices.ContainsFunc(g.Spec.From, func(f gwv1.ReferenceGrantFrom) bool {
			return string(f.Group) == Group && string(f.Kind) == string(p.Kind) && string(f.Namespace) == p.Namespace
		})
		to := slices.ContainsFunc(g.Spec.To, func(t gwv1.ReferenceGrantTo) bool {
			return string(t.Group) == gwv1.GroupName && string(t.Kind) == kind && (t.Name == nil || *t.Name == "" || string(*t.Name) == obj.Name)
		})
		if from && to {
			return true
		}
	}
	return false
}

func compareTargets(a, b Target) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Section, b.Section))
}
