package cmd

import (
	"strings"
	"testing"
)

// appRouteYAML is an application repository's route to the platform's
// Gateway infra/web, whose listener only takes routes from its own
// namespace.
const appRouteYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: app
  namespace: shop
spec:
  parentRefs:
  - name: web
    namespace: infra
  rules:
  - backendRefs:
    - name: app
      port: 80
`

const platformGatewayYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: web
  namespace: infra
spec:
  gatewayClassName: eg
  listeners:
  - name: http
    protocol: HTTP
    port: 80
`

func TestGatewaysFlag(t *testing.T) {
	files := map[string]string{"app.yaml": appRouteYAML, "platform.yaml": platformGatewayYAML}

	alone := runCLI(t, Env{}, files, "", "check", "-f", "@app.yaml")
	if alone.code != exitOK || !strings.Contains(alone.stdout, "attachment to it is not checked") {
		t.Errorf("without --gateways: exit %d, want 0 and the not-checked finding:\n%s%s", alone.code, alone.stdout, alone.stderr)
	}

	with := runCLI(t, Env{}, files, "", "check", "-f", "@app.yaml", "--gateways", "@platform.yaml")
	if with.code != exitFindings || !strings.Contains(with.stdout, "HTTPRoute shop/app: status.parents[infra/web]: Accepted=False (NotAllowedByListeners)") {
		t.Errorf("with --gateways: exit %d, want 1 and the route refused by the listener:\n%s%s", with.code, with.stdout, with.stderr)
	}
	if strings.Contains(with.stdout, ": Gateway infra/web: ") {
		t.Errorf("with --gateways: findings about the platform's Gateway are not the input's to fix:\n%s", with.stdout)
	}
}

func TestOpenWorldUsageErrors(t *testing.T) {
	files := map[string]string{"app.yaml": appRouteYAML}
	for _, args := range [][]string{
		{"--assume", "ReferenceGrant"},
		{"--assume", "Secret,,Service"},
		{"--exclude", "[x"},
		{"--controller-name", ""},
	} {
		got := runCLI(t, Env{}, files, "", append([]string{"check", "-f", "@app.yaml"}, args...)...)
		if got.code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, got.code, exitUsage, got.stderr)
		}
	}
}
