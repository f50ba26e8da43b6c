package cmd

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// statusSample holds objects in no particular order: a Service (never
// shown), a route whose status is empty (not shown), and two Gateway API
// objects with status, one without TypeMeta as a client returns it.
func statusSample() []client.Object {
	accepted := metav1.Condition{
		Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", Message: "ok",
		LastTransitionTime: metav1.Unix(0, 0).Rfc3339Copy(),
	}
	gw := &gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Name: "gw", Namespace: "infra"},
		Status:     gwv1.GatewayStatus{Conditions: []metav1.Condition{accepted}},
	}
	gc := &gwv1.GatewayClass{
		TypeMeta:   metav1.TypeMeta{APIVersion: "gateway.networking.k8s.io/v1", Kind: "GatewayClass"},
		ObjectMeta: metav1.ObjectMeta{Name: "gwsim"},
		Status:     gwv1.GatewayClassStatus{Conditions: []metav1.Condition{accepted}},
	}
	route := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: "apps"}}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "api", Namespace: "apps"}}
	return []client.Object{svc, route, gw, gc}
}

func TestRenderStatus(t *testing.T) {
	tests := []struct {
		name string
		f    format
		in   []client.Object
		want string
	}{
		{"nothing", formatYAML, nil, ""},
		{"yaml stream sorted by kind", formatYAML, statusSample(), `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: infra
status:
  conditions:
  - lastTransitionTime: "1970-01-01T00:00:00Z"
    message: ok
    reason: Accepted
    status: "True"
    type: Accepted
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: gwsim
status:
  conditions:
  - lastTransitionTime: "1970-01-01T00:00:00Z"
    message: ok
    reason: Accepted
    status: "True"
    type: Accepted
`},
		{"empty json list", formatJSON, nil, `{
  "apiVersion": "v1",
  "kind": "List",
  "items": []
}
`},
		{"json list", formatJSON, statusSample()[3:], `{
  "apiVersion": "v1",
  "kind": "List",
  "items": [
    {
      "apiVersion": "gateway.networking.k8s.io/v1",
      "kind": "GatewayClass",
      "metadata": {
        "name": "gwsim"
      },
      "status": {
        "conditions": [
          {
            "lastTransitionTime": "1970-01-01T00:00:00Z",
            "message": "ok",
            "reason": "Accepted",
            "status": "True",
            "type": "Accepted"
          }
        ]
      }
    }
  ]
}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := renderStatus(&buf, tt.f, tt.in); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("renderStatus() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIsEmptyValue(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want bool
	}{
		{"nil", nil, true},
		{"empty map", map[string]any{}, true},
		{"route with no parents", map[string]any{"parents": nil}, true},
		{"nested empties", map[string]any{"a": map[string]any{"b": []any{}}}, true},
		{"a list entry", map[string]any{"parents": []any{map[string]any{}}}, false},
		{"a scalar", map[string]any{"attachedRoutes": int64(0)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isEmptyValue(tt.in); got != tt.want {
				t.Errorf("isEmptyValue(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
