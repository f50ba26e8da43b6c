package explain

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// testInput translates YAML documents (a GatewayClass, Gateways, routes,
// Services) and returns what Explain reads. Each object's source is
// "test.yaml" with its document number as the line, so that traces can be
// checked for the sources they name.
func testInput(t *testing.T, docs string) Input {
	t.Helper()
	var in translate.Input
	var objs []client.Object
	in.Sources = diag.Sources{}
	for i, doc := range strings.Split(docs, "\n---\n") {
		var meta struct{ Kind string }
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatal(err)
		}
		var obj client.Object
		switch meta.Kind {
		case "GatewayClass":
			o := &gwv1.GatewayClass{}
			in.GatewayClasses, obj = append(in.GatewayClasses, o), o
		case "Gateway":
			o := &gwv1.Gateway{}
			in.Gateways, obj = append(in.Gateways, o), o
		case "HTTPRoute":
			o := &gwv1.HTTPRoute{}
			in.HTTPRoutes, obj = append(in.HTTPRoutes, o), o
		case "Service":
			o := &corev1.Service{}
			in.Services, obj = append(in.Services, o), o
		default:
			t.Fatalf("testInput: kind %q", meta.Kind)
		}
		if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
			t.Fatal(err)
		}
		if obj.GetNamespace() == "" && meta.Kind != "GatewayClass" {
			obj.SetNamespace("default")
		}
		objs = append(objs, obj)
		in.Sources[diag.ObjectRef{Kind: meta.Kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}] = diag.Source{File: "test.yaml", Line: i + 1}
	}
	out := translate.Translate(in, translate.Options{})
	return NewInput(out, objs, in.Sources)
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
