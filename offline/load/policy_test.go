package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
)

func TestPolicyAttachment(t *testing.T) {
	gk := schema.GroupKind{Group: "gateway.envoyproxy.io", Kind: "SecurityPolicy"}
	ref := diag.ObjectRef{Kind: "SecurityPolicy", Namespace: "app", Name: "p"}
	policy := translate.OtherObject{Group: gk.Group, Kind: gk.Kind, Namespace: "app", Name: "p"}
	tests := []struct {
		name string
		js   string
		want []translate.PolicyTarget // nil: not a policy
	}{
		{"no targetRef", `{"spec":{"x":1}}`, nil},
		{"singular targetRef with a section", `{"spec":{"targetRef":{"group":"gateway.networking.k8s.io","kind":"Gateway","name":"gw","sectionName":"http"}}}`,
			[]translate.PolicyTarget{{Group: "gateway.networking.k8s.io", Kind: "Gateway", Namespace: "app", Name: "gw", SectionName: "http"}}},
		{"targetRefs, other kinds left out", `{"spec":{"targetRefs":[{"group":"","kind":"Service","name":"api"},{"group":"apps","kind":"Deployment","name":"d"},{"group":"gateway.networking.k8s.io","kind":"HTTPRoute","name":"r"}]}}`,
			[]translate.PolicyTarget{{Kind: "Service", Namespace: "app", Name: "api"}, {Group: "gateway.networking.k8s.io", Kind: "HTTPRoute", Namespace: "app", Name: "r"}}},
		{"a ServiceImport, a backend as a Service is", `{"spec":{"targetRefs":[{"group":"multicluster.x-k8s.io","kind":"ServiceImport","name":"store"},{"group":"multicluster.x-k8s.io","kind":"ServiceExport","name":"store"}]}}`,
			[]translate.PolicyTarget{{Group: "multicluster.x-k8s.io", Kind: "ServiceImport", Namespace: "app", Name: "store"}}},
		{"only kinds gwsim does not list", `{"spec":{"targetRefs":[{"group":"apps","kind":"Deployment","name":"d"}]}}`, nil},
		{"targetRef of the wrong type", `{"spec":{"targetRef":"gw"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := diag.Source{File: "p.yaml", Line: 1}
			got, ok := policyAttachment([]byte(tt.js), gk, ref, src)
			if ok != (tt.want != nil) {
				t.Fatalf("policyAttachment: ok = %v, want %v", ok, tt.want != nil)
			}
			if !ok {
				return
			}
			want := translate.PolicyAttachment{Policy: policy, Source: src, Targets: tt.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("policyAttachment (-want +got):\n%s", diff)
			}
		})
	}
}
