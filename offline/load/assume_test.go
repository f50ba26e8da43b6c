package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

func TestAssumeMissing(t *testing.T) {
	gw := func(ns, name, class string) client.Object {
		g := &gwv1.Gateway{Spec: gwv1.GatewaySpec{GatewayClassName: gwv1.ObjectName(class)}}
		g.SetGroupVersionKind(gwv1.SchemeGroupVersion.WithKind("Gateway"))
		g.Namespace, g.Name = ns, name
		return g
	}
	gc := func(name, controller string) client.Object {
		c := &gwv1.GatewayClass{Spec: gwv1.GatewayClassSpec{ControllerName: gwv1.GatewayController(controller)}}
		c.SetGroupVersionKind(gwv1.SchemeGroupVersion.WithKind("GatewayClass"))
		c.Name = name
		return c
	}
	const ctrl = "gwsim.dev/gateway-controller"
	tests := []struct {
		name         string
		in           []client.Object
		want         []client.Object
		wantFindings []diag.Finding
	}{{
		name: "nothing missing",
		in:   []client.Object{gw("infra", "gw", "eg"), gc("eg", "other")},
		want: []client.Object{gw("infra", "gw", "eg"), gc("eg", "other")},
	}, {
		name: "one class assumed",
		in:   []client.Object{gw("infra", "gw", "eg")},
		want: []client.Object{gw("infra", "gw", "eg"), gc("eg", ctrl)},
		wantFindings: []diag.Finding{{Severity: diag.Info, Reason: diag.ReasonAssumed,
			Locus:   diag.Locus{Object: diag.ObjectRef{Kind: "Gateway", Namespace: "infra", Name: "gw"}, Field: "spec.gatewayClassName"},
			Message: "assumed 1 object not in the input: GatewayClass eg (controllerName gwsim.dev/gateway-controller), needed by Gateway infra/gw"}},
	}, {
		name: "several classes and Gateways, sorted; a Gateway without a class needs none",
		in:   []client.Object{gw("b", "g2", "z"), gw("a", "g1", "z"), gw("a", "g3", "y"), gw("a", "none", ""), gc("x", ctrl)},
		want: []client.Object{gw("a", "g1", "z"), gw("a", "g3", "y"), gw("a", "none", ""), gw("b", "g2", "z"), gc("x", ctrl), gc("y", ctrl), gc("z", ctrl)},
		// The finding sits at the first Gateway of the first class.
		wantFindings: []diag.Finding{{Severity: diag.Info, Reason: diag.ReasonAssumed,
			Locus: diag.Locus{Object: diag.ObjectRef{Kind: "Gateway", Namespace: "a", Name: "g3"}, Field: "spec.gatewayClassName"},
			Message: "assumed 2 objects not in the input: GatewayClass y (controllerName gwsim.dev/gateway-controller), needed by Gateway a/g3; " +
				"GatewayClass z (controllerName gwsim.dev/gateway-controller), needed by Gateway a/g1, Gateway b/g2"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inCopy := append([]client.Object(nil), tt.in...)
			got, findings := AssumeMissing(tt.in, ctrl)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantFindings, findings); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(inCopy, tt.in); diff != "" {
				t.Errorf("input modified (-before +after):\n%s", diff)
			}
		})
	}
}
