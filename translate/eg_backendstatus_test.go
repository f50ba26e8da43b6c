package translate_test

import (
	"fmt"
	"slices"
	"strings"
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

// TestEGProxyBackendStatus checks that the Backends an EnvoyProxy's
// telemetry names get status when an envoy-gateway class or one of its
// Gateways takes that EnvoyProxy as parameters (every sink kind that
// names backends), and not when a generic class does, nor through a
// Gateway's own EnvoyProxy when its class merges Gateways.
func TestEGProxyBackendStatus(t *testing.T) {
	in, _ := translatetest.Decode(t, "proxies.yaml", `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec:
  controllerName: `+profile.EnvoyGatewayController+`
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: class, namespace: default}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg-merged}
spec:
  controllerName: `+profile.EnvoyGatewayController+`
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: merged, namespace: default}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: generic}
spec:
  controllerName: gwsim.dev/gateway-controller
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: generic, namespace: default}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: eg}
spec:
  gatewayClassName: eg
  infrastructure: {parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: gateway}}
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: merged}
spec:
  gatewayClassName: eg-merged
  infrastructure: {parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: skipped}}
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: class}
spec:
  telemetry:
    accessLog:
      settings:
      - sinks:
        - {type: OpenTelemetry, openTelemetry: {backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: log-otel, port: 4317}]}}
        - {type: ALS, als: {type: HTTP, backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: log-als, namespace: other, port: 9000}]}}
    metrics:
      sinks:
      - {type: OpenTelemetry, openTelemetry: {backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: metrics, port: 4317}]}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: gateway}
spec:
  telemetry:
    tracing:
      provider: {type: OpenTelemetry, backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: traces, port: 4317}, {name: a-service, port: 4317}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: merged}
spec: {mergeGateways: true}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: skipped}
spec:
  telemetry:
    tracing:
      provider: {type: OpenTelemetry, backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: skipped, port: 4317}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: generic}
spec:
  telemetry:
    tracing:
      provider: {type: OpenTelemetry, backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: generic, port: 4317}]}
`+backendsYAML("log-otel", "other/log-als", "metrics", "traces", "skipped", "generic"))
	out := translate.Translate(in, translate.Options{ControllerNames: []string{profile.EnvoyGatewayController, "gwsim.dev/gateway-controller"}})
	var got []string
	for k := range out.Status.Backends {
		got = append(got, k.String())
	}
	slices.Sort(got)
	want := []string{"default/log-otel", "default/metrics", "default/traces", "other/log-als"}
	if !slices.Equal(got, want) {
		t.Errorf("Backends with status: %v, want %v", got, want)
	}
}

// backendsYAML writes a valid Backend per "name" or "namespace/name".
func backendsYAML(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		ns, name, ok := strings.Cut(n, "/")
		if !ok {
			ns, name = "default", n
		}
		fmt.Fprintf(&b, "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: Backend\nmetadata: {name: %s, namespace: %s}\nspec: {endpoints: [{fqdn: {hostname: %s.example.com, port: 4317}}]}\n", name, ns, name)
	}
	return b.String()
}
