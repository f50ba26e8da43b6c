package translate_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/translatetest"
)

// TestEGBackendStatus checks which Backends get Envoy Gateway's status and
// which condition: those a route of an envoy-gateway Gateway names, valid
// (Accepted) or refused (EG's type Invalid, reason Accepted); not one that
// only a route of a generic Gateway names, nor one that no route names.
func TestEGBackendStatus(t *testing.T) {
	in, _ := translatetest.Decode(t, "backends.yaml", `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: `+profile.EnvoyGatewayController+`}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: generic}
spec: {controllerName: gwsim.dev/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: eg}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: generic}
spec: {gatewayClassName: generic, listeners: [{name: http, protocol: HTTP, port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: on-eg}
spec:
  parentRefs: [{name: eg}]
  rules:
  - backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: ok}]
  - backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: loopback}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: on-generic}
spec:
  parentRefs: [{name: generic}]
  rules:
  - backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: generic-only}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: ok}
spec: {endpoints: [{fqdn: {hostname: api.example.com, port: 443}}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: loopback}
spec: {endpoints: [{ip: {address: 127.0.0.1, port: 8080}}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: generic-only}
spec: {endpoints: [{ip: {address: 10.0.0.1, port: 8080}}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: unused}
spec: {endpoints: [{ip: {address: 10.0.0.2, port: 8080}}]}`)
	out := translate.Translate(in, translate.Options{ControllerNames: []string{profile.EnvoyGatewayController, "gwsim.dev/gateway-controller"}})
	got := map[string]string{}
	for k, st := range out.Status.Backends {
		for _, c := range st.Conditions {
			got[k.Name] += string(c.Type) + "=" + string(c.Status) + "/" + c.Reason
		}
	}
	want := map[string]string{"ok": "Accepted=True/Accepted", "loopback": "Invalid=False/Accepted"}
	if len(got) != len(want) {
		t.Errorf("Backends with status: %v, want %v", got, want)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("Backend %s: %q, want %q", name, got[name], w)
		}
	}
	if _, ok := out.Status.Backends[types.NamespacedName{Namespace: "default", Name: "generic-only"}]; ok {
		t.Error("a Backend only a generic Gateway's route names got Envoy Gateway's status")
	}
}
