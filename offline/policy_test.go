package offline

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/scheme"
)

// TestBackendTLSPolicyStatus runs the real Translate on a policy whose
// Service two of gwsim's Gateways route to, and whose status already holds
// another controller's entry: the stored ancestors are that entry plus
// exactly what a whole-world Translate computes; an entry goes when its
// Gateway stops routing to the Service, and when its Gateway is deleted;
// the other controller's entry stays throughout.
func TestBackendTLSPolicyStatus(t *testing.T) {
	policyKey := types.NamespacedName{Namespace: "ns", Name: "p"}
	theirNS := gwv1.Namespace("ns")
	foreign := gwv1.PolicyAncestorStatus{
		AncestorRef:    gwv1.ParentReference{Namespace: &theirNS, Name: "theirs"},
		ControllerName: theirs,
		Conditions:     []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", LastTransitionTime: now}},
	}
	policy := &gwv1.BackendTLSPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}}
	policy.Spec.TargetRefs = []gwv1.LocalPolicyTargetReferenceWithSectionName{{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{Kind: "Service", Name: "web"}}}
	policy.Spec.Validation.Hostname = "web.example.com"
	policy.Spec.Validation.CACertificateRefs = []gwv1.LocalObjectReference{{Kind: "ConfigMap", Name: "missing"}}
	policy.Status.Ancestors = []gwv1.PolicyAncestorStatus{foreign}
	objs := []client.Object{
		gatewayClass("cls", ours), gatewayClass("other", theirs),
		gateway("ns", "gw", "cls"), gateway("ns", "gw2", "cls"), gateway("ns", "theirs", "other"),
		httpRoute("ns", "r", "gw", "gw2", "theirs"), service("ns", "web"), namespace("ns"), policy,
	}
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			ctx := context.Background()
			opts := testOptions()
			c, err := factory(scheme.New(), objs, controller.Indexes())
			if err != nil {
				t.Fatal(err)
			}
			check := func(step string, wantOurs []string) {
				t.Helper()
				if _, err := Reconcile(ctx, c, nil, opts); err != nil {
					t.Fatalf("%s: %v", step, err)
				}
				res, err := ReadWorld(ctx, c, nil, opts)
				if err != nil {
					t.Fatal(err)
				}
				p := &gwv1.BackendTLSPolicy{}
				if err := c.Get(ctx, policyKey, p); err != nil {
					t.Fatal(err)
				}
				var mine []gwv1.PolicyAncestorStatus
				var names []string
				for _, a := range p.Status.Ancestors {
					if a.ControllerName == theirs {
						if diff := cmp.Diff(foreign, a); diff != "" {
							t.Errorf("%s: the other controller's entry changed:\n%s", step, diff)
						}
						continue
					}
					mine = append(mine, a)
					names = append(names, string(a.AncestorRef.Name))
				}
				if diff := cmp.Diff(wantOurs, names); diff != "" {
					t.Errorf("%s: gwsim's ancestors (-want +got):\n%s", step, diff)
				}
				if diff := cmp.Diff(res.Output.Status.BackendTLSPolicies[policyKey], mine); diff != "" {
					t.Errorf("%s: stored ancestors differ from whole-world Translate (-translate +stored):\n%s", step, diff)
				}
				if len(p.Status.Ancestors) != len(mine)+1 {
					t.Errorf("%s: %d ancestors, want gwsim's and the other controller's", step, len(p.Status.Ancestors))
				}
			}
			check("first run", []string{"gw", "gw2"})

			route := &gwv1.HTTPRoute{}
			if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "r"}, route); err != nil {
				t.Fatal(err)
			}
			route.Spec.ParentRefs = route.Spec.ParentRefs[:1]
			if err := c.Update(ctx, route); err != nil {
				t.Fatal(err)
			}
			check("gw2 no longer routes to the Service", []string{"gw"})

			if err := c.Delete(ctx, &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gw"}}); err != nil {
				t.Fatal(err)
			}
			check("gw deleted", nil)
		})
	}
}

// TestBackendTLSPolicyStatusFollowsConfigMap checks that a change to a CA
// ConfigMap alone reaches the policy's status on the next reconcile.
func TestBackendTLSPolicyStatusFollowsConfigMap(t *testing.T) {
	policy := &gwv1.BackendTLSPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}}
	policy.Spec.TargetRefs = []gwv1.LocalPolicyTargetReferenceWithSectionName{{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{Kind: "Service", Name: "web"}}}
	policy.Spec.Validation.CACertificateRefs = []gwv1.LocalObjectReference{{Kind: "ConfigMap", Name: "ca"}}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ca"}, Data: map[string]string{"ca.crt": "not PEM"}}
	objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls"), httpRoute("ns", "r", "gw"), service("ns", "web"), namespace("ns"), policy, cm}
	ctx := context.Background()
	c, err := IndexedStore(scheme.New(), objs, controller.Indexes())
	if err != nil {
		t.Fatal(err)
	}
	reason := func() string {
		t.Helper()
		if _, err := Reconcile(ctx, c, nil, testOptions()); err != nil {
			t.Fatal(err)
		}
		p := &gwv1.BackendTLSPolicy{}
		if err := c.Get(ctx, client.ObjectKeyFromObject(policy), p); err != nil {
			t.Fatal(err)
		}
		if len(p.Status.Ancestors) != 1 {
			t.Fatalf("ancestors = %+v, want one", p.Status.Ancestors)
		}
		return p.Status.Ancestors[0].Conditions[1].Reason
	}
	if got := reason(); got != string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef) {
		t.Errorf("ResolvedRefs reason = %s, want InvalidCACertificateRef", got)
	}
	if err := c.Delete(ctx, cm); err != nil {
		t.Fatal(err)
	}
	cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ca"}, Data: map[string]string{"ca.crt": testCA}}
	if err := c.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if got := reason(); got != string(gwv1.BackendTLSPolicyReasonResolvedRefs) {
		t.Errorf("ResolvedRefs reason = %s, want ResolvedRefs", got)
	}
}

// testCA is a self-signed CA certificate.
const testCA = `-----BEGIN CERTIFICATE-----
MIIBgTCCASegAwIBAgIUU7qJhFy5oj3lX+GMQIJvyx4woqYwCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKYmFja2VuZCBDQTAgFw0yNjEyMDIxOTAwNTFaGA8yMTI2MTEw
ODE5MDA1MVowFTETMBEGA1UEAwwKYmFja2VuZCBDQTBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABE77iRmdaiG0ZW615JqEO3Eshf71HuLgG8E5vIyKXK8/DQ9zE+Yz
ENXIkWzpoyWOTOaBJFCsL9MNBf0fnnG5BoqjUzBRMB0GA1UdDgQWBBTcWc8keFHB
H9YRJiZaMP3ZOcQv/TAfBgNVHSMEGDAWgBTcWc8keFHBH9YRJiZaMP3ZOcQv/TAP
BgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIDBerQ4HYjh0O0ua/kRO
HJ0LCGSF/Tot+g6RrgFFMaCzAiEAohuvBe2GYwpBLn7ILLGhSzP/AtmDnqurfZIJ
s1uIf24=
-----END CERTIFICATE-----
`
