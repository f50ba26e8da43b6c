package load

import (
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestDefaultsWithoutValidation: with --validate=false under the standard
// channel, nothing is rejected or pruned, so objects may hold what only
// the experimental CRDs have (a version, a field), or name a version no
// CRD has any more. Each still gets its CRD defaults: translate has none
// of its own.
func TestDefaultsWithoutValidation(t *testing.T) {
	manifests := strings.Join([]string{
		// Served only by the experimental channel.
		"apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TLSRoute\nmetadata: {name: tls}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - backendRefs: [{name: svc, port: 443}]\n",
		// Served by no channel: its Go type is v1's.
		"apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: GRPCRoute\nmetadata: {name: grpc}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - backendRefs: [{name: svc, port: 50051}]\n",
		// sessionPersistence is a field of the experimental channel only.
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: http}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - sessionPersistence: {sessionName: s}\n",
	}, "---\n")
	res := Load(Options{Paths: []string{"-"}, Stdin: strings.NewReader(manifests), NoValidation: true})
	if len(res.Errors) > 0 || len(res.Objects) != 3 {
		t.Fatalf("Load: %d objects, errors %v; want 3 objects", len(res.Objects), res.Errors)
	}
	for _, o := range res.Objects {
		var parent gwv1.ParentReference
		var weight *int32
		switch o := o.(type) {
		case *gwv1.TLSRoute:
			parent, weight = o.Spec.ParentRefs[0], o.Spec.Rules[0].BackendRefs[0].Weight
		case *gwv1.GRPCRoute:
			parent, weight = o.Spec.ParentRefs[0], o.Spec.Rules[0].BackendRefs[0].Weight
		case *gwv1.HTTPRoute:
			parent, weight = o.Spec.ParentRefs[0], new(int32(1))
			if sp := o.Spec.Rules[0].SessionPersistence; sp == nil || sp.Type == nil || *sp.Type != gwv1.CookieBasedSessionPersistence {
				t.Errorf("HTTPRoute sessionPersistence = %+v, want type Cookie", sp)
			}
		}
		kind := o.GetObjectKind().GroupVersionKind().Kind
		if parent.Group == nil || *parent.Group != gwv1.GroupName || parent.Kind == nil || *parent.Kind != "Gateway" {
			t.Errorf("%s parentRef = %+v, want group and kind defaulted", kind, parent)
		}
		if weight == nil || *weight != 1 {
			t.Errorf("%s backendRef weight = %v, want 1", kind, weight)
		}
	}
}

// TestOlderVersionsDefaulted: an object of an older version the channel
// serves is defaulted by that version's own schema before it becomes v1.
func TestOlderVersionsDefaulted(t *testing.T) {
	manifest := "apiVersion: gateway.networking.k8s.io/v1beta1\nkind: HTTPRoute\nmetadata: {name: r}\nspec:\n  parentRefs: [{name: gw}]\n"
	res := Load(Options{Paths: []string{"-"}, Stdin: strings.NewReader(manifest)})
	if len(res.Errors) > 0 || len(res.Findings) > 0 || len(res.Objects) != 1 {
		t.Fatalf("Load: %d objects, errors %v, findings %v; want 1 object", len(res.Objects), res.Errors, res.Findings)
	}
	r := res.Objects[0].(*gwv1.HTTPRoute)
	if p := r.Spec.ParentRefs[0]; p.Group == nil || *p.Group != gwv1.GroupName || p.Kind == nil || *p.Kind != "Gateway" {
		t.Errorf("parentRef = %+v, want group and kind defaulted", p)
	}
	if len(r.Spec.Rules) != 1 || len(r.Spec.Rules[0].Matches) != 1 || r.Spec.Rules[0].Matches[0].Path == nil ||
		*r.Spec.Rules[0].Matches[0].Path.Value != "/" {
		t.Errorf("rules = %+v, want the CRD's one PathPrefix / rule", r.Spec.Rules)
	}
}
