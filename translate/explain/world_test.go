package explain

import (
	"strings"
	"testing"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/ir"
	"github.com/gwsim/gwsim/translate/translatetest"
)

// testInput translates YAML documents (a GatewayClass, Gateways, routes,
// Services) and returns what Explain reads. Each object's source is
// "test.yaml" with its document number as the line, so that traces can be
// checked for the sources they name.
func testInput(t *testing.T, docs string) Input {
	t.Helper()
	in, objs := translatetest.Decode(t, "test.yaml", docs)
	return NewInput(translate.Translate(in, translate.Options{}), objs, in.Sources)
}

const testClass = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/c}`

const testGateway = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, protocol: HTTP, port: 80, hostname: "*.example.com"}
  - {name: admin, protocol: HTTP, port: 8080}`

const testService = `apiVersion: v1
kind: Service
metadata: {name: svc}
spec:
  ports: [{port: 80}]`

// testRoute is an HTTPRoute on listener section with one rule per match.
func testRoute(name, section, hostname string, matches ...string) string {
	var rules strings.Builder
	for _, m := range matches {
		rules.WriteString("  - matches: [" + m + "]\n    backendRefs: [{name: svc, port: 80}]\n")
	}
	return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ` + name + `}
spec:
  parentRefs: [{name: gw, sectionName: ` + section + `}]
  hostnames: ["` + hostname + `"]
  rules:
` + strings.TrimSuffix(rules.String(), "\n")
}

func routeRef(ns, name string) diag.ObjectRef {
	return diag.ObjectRef{Kind: "HTTPRoute", Namespace: ns, Name: name}
}

func origin(name string, rule, match int) ir.Origin {
	return ir.Origin{Kind: "HTTPRoute", Namespace: "ns", Name: name, Rule: rule, Match: match}
}
