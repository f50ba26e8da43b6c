package conformance

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	upstream "sigs.k8s.io/gateway-api/conformance"

	"github.com/gwsim/gwsim/diag"
)

func TestSetupYAMLSubstitutesPlaceholders(t *testing.T) {
	tests := []struct {
		name              string
		setup             Setup
		class, controller string
	}{
		{"defaults", Setup{Manifests: []string{"tests/gatewayclass-observed-generation-bump.yaml"}}, DefaultGatewayClassName, DefaultControllerName},
		{"chosen names", Setup{Manifests: []string{"tests/gatewayclass-observed-generation-bump.yaml"}, GatewayClassName: "mine", ControllerName: "example.com/ctl"}, "mine", "example.com/ctl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := tt.setup.YAML()
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			for _, placeholder := range []string{"{GATEWAY_CLASS_NAME}", "{GATEWAY_CONTROLLER_NAME}"} {
				if strings.Contains(text, placeholder) {
					t.Errorf("%s left in the YAML", placeholder)
				}
			}
			for _, want := range []string{`gatewayClassName: "` + tt.class + `"`, `controllerName: "` + tt.controller + `"`, "name: \"" + tt.class + "\"\n"} {
				if !strings.Contains(text, want) {
					t.Errorf("YAML lacks %q", want)
				}
			}
		})
	}
}

func TestSetupYAMLUnknownManifest(t *testing.T) {
	if _, err := (Setup{Manifests: []string{"tests/no-such-test.yaml"}}).YAML(); err == nil {
		t.Fatal("want an error for a manifest that does not exist")
	}
}

// TestRunPreparesAsTheSuite checks what the suite guarantees before a test:
// the GatewayClass exists and is Accepted, every Gateway uses it, the base
// Gateways are programmed, and nothing was assumed.
func TestRunPreparesAsTheSuite(t *testing.T) {
	res, err := Run(context.Background(), Setup{Manifests: []string{"tests/httproute-matching.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Reason != diag.ReasonIgnoredKinds {
			t.Errorf("unexpected finding: %s", f)
		}
	}
	gc := res.Offline.Output.Status.GatewayClasses[types.NamespacedName{Name: DefaultGatewayClassName}]
	if !meta.IsStatusConditionTrue(gc.Conditions, string(gwv1.GatewayClassConditionStatusAccepted)) {
		t.Errorf("GatewayClass %s not Accepted: %+v", DefaultGatewayClassName, gc.Conditions)
	}
	var names []string
	for _, g := range res.Offline.Output.IR.Gateways {
		names = append(names, g.Name)
		if g.Class != DefaultGatewayClassName {
			t.Errorf("Gateway %s has class %q", g.Name, g.Class)
		}
	}
	want := "gateway-conformance-infra/all-namespaces gateway-conformance-infra/backend-namespaces gateway-conformance-infra/same-namespace gateway-conformance-infra/same-namespace-with-https-listener"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("IR Gateways %s, want %s", got, want)
	}
}

func TestRunPreparesGatewayAddresses(t *testing.T) {
	res, err := Run(context.Background(), Setup{Manifests: []string{"tests/gateway-static-addresses.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Offline.Objects {
		g, ok := o.(*gwv1.Gateway)
		if !ok || g.Name != "gateway-static-addresses" {
			continue
		}
		if len(g.Spec.Addresses) != 1 || g.Spec.Addresses[0].Value != "fake address teehee!" {
			t.Errorf("addresses %+v, want only the test/fake-invalid-type one", g.Spec.Addresses)
		}
		return
	}
	t.Fatal("Gateway gateway-static-addresses not found")
}

func TestRunWithout(t *testing.T) {
	ctx := context.Background()
	grant := "ReferenceGrant gateway-conformance-web-backend/reference-grant"
	res, err := Run(ctx, Setup{Manifests: []string{"tests/httproute-reference-grant.yaml"}, Without: []string{grant}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Offline.Objects {
		if _, ok := o.(*gwv1.ReferenceGrant); ok {
			t.Errorf("%s/%s still there", o.GetNamespace(), o.GetName())
		}
	}
	_, err = Run(ctx, Setup{Manifests: []string{"tests/httproute-reference-grant.yaml"}, Without: []string{"ReferenceGrant nowhere/nothing"}})
	if err == nil || !strings.Contains(err.Error(), "ReferenceGrant nowhere/nothing") {
		t.Errorf("err = %v, want one naming the missing object", err)
	}
}

// TestRunLoadsEveryUpstreamTest runs every upstream test's manifests through
// Run: each must load without errors and settle, which is what the
// in-process run of the whole suite will need first.
func TestRunLoadsEveryUpstreamTest(t *testing.T) {
	files, err := fs.Glob(upstream.Manifests, "tests/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no upstream test manifests (%v)", err)
	}
	for _, f := range files {
		t.Run(strings.TrimPrefix(f, "tests/"), func(t *testing.T) {
			t.Parallel()
			if _, err := Run(context.Background(), Setup{Manifests: []string{f}}); err != nil {
				t.Error(err)
			}
		})
	}
}
