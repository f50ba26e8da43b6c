package validate

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

var gatewayV1 = schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "Gateway"}

// routeWith is an HTTPRoute whose spec is the given YAML (indented by
// four spaces under spec:).
func routeWith(spec string) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: ns}\nspec:\n" + spec
}

func gatewayWith(listeners string) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: g, namespace: ns}\nspec:\n  gatewayClassName: c\n  listeners:\n" + listeners
}

// TestAdmitErrorClasses runs the invalid inputs of issue 12 and one of each
// error class through Admit and checks the library's field path and the
// start of its message.
func TestAdmitErrorClasses(t *testing.T) {
	rules17 := strings.Repeat("  - backendRefs: [{name: s, port: 80}]\n", 17)
	tests := []struct {
		name     string
		gvk      schema.GroupVersionKind
		manifest string
		want     string // one error's Error(), as a prefix
	}{
		{"relative path", httpRouteV1, routeWith("  rules:\n  - matches:\n    - path: {type: PathPrefix, value: foo}\n"),
			"spec.rules[0].matches[0].path: Invalid value: "},
		{"duplicate listener names", gatewayV1, gatewayWith("  - {name: http, port: 80, protocol: HTTP}\n  - {name: http, port: 81, protocol: HTTP}\n"),
			"spec.listeners[1]: Duplicate value: "},
		{"hostname pattern", gatewayV1, gatewayWith("  - {name: http, port: 80, protocol: HTTP, hostname: Foo_Bar.example.com}\n"),
			"spec.listeners[0].hostname: Invalid value: \"Foo_Bar.example.com\": spec.listeners[0].hostname in body should match"},
		{"empty header name", httpRouteV1, routeWith("  rules:\n  - matches:\n    - headers: [{name: '', value: x}]\n"),
			"spec.rules[0].matches[0].headers[0].name: Invalid value: \"\": spec.rules[0].matches[0].headers[0].name in body should be at least 1 chars long"},
		{"redirect next to backendRefs", httpRouteV1, routeWith("  rules:\n  - filters: [{type: RequestRedirect, requestRedirect: {statusCode: 301}}]\n    backendRefs: [{name: s, port: 80}]\n"),
			"spec.rules[0]: Invalid value: "},
		{"port out of range", httpRouteV1, routeWith("  rules:\n  - backendRefs: [{name: s, port: 70000}]\n"),
			"spec.rules[0].backendRefs[0].port: Invalid value: 70000: spec.rules[0].backendRefs[0].port in body should be less than or equal to 65535"},
		{"method enum", httpRouteV1, routeWith("  rules:\n  - matches: [{method: get}]\n"),
			"spec.rules[0].matches[0].method: Unsupported value: \"get\": supported values: "},
		{"path type enum", httpRouteV1, routeWith("  rules:\n  - matches: [{path: {type: Bogus, value: /}}]\n"),
			"spec.rules[0].matches[0].path.type: Unsupported value: \"Bogus\": supported values: "},
		{"negative weight", httpRouteV1, routeWith("  rules:\n  - backendRefs: [{name: s, port: 80, weight: -1}]\n"),
			"spec.rules[0].backendRefs[0].weight: Invalid value: -1: spec.rules[0].backendRefs[0].weight in body should be greater than or equal to 0"},
		{"17 rules", httpRouteV1, routeWith("  rules:\n" + rules17),
			"spec.rules: Too many: 17: must have at most 16 items"},
		{"schema type", httpRouteV1, routeWith("  hostnames: {a: b}\n"),
			"spec.hostnames: Invalid value: \"object\": spec.hostnames in body must be of type array: \"object\""},
		{"metadata name", httpRouteV1, "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: Foo_Bar, namespace: ns}\n",
			"metadata.name: Invalid value: \"Foo_Bar\": a lowercase RFC 1123 subdomain"},
		{"backendRequest longer than request", httpRouteV1, routeWith("  rules:\n  - timeouts: {request: 1s, backendRequest: 2s}\n"),
			"spec.rules[0].timeouts: Invalid value: "},
		{"duplicate parentRefs", httpRouteV1, routeWith("  parentRefs: [{name: g}, {name: g}]\n"),
			"spec.parentRefs: Invalid value: "},
	}
	v := New(Standard)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := v.Admit(tt.gvk, object(t, tt.manifest))
			if err != nil {
				t.Fatal(err)
			}
			got := errorStrings(res)
			for _, g := range got {
				if strings.HasPrefix(g, tt.want) {
					return
				}
			}
			t.Errorf("no error starting %q in:\n%s", tt.want, strings.Join(got, "\n"))
		})
	}
}
