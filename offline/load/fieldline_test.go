package load

import (
	"slices"
	"testing"

	"github.com/gwsim/gwsim/offline/validate"
)

func TestPathSegments(t *testing.T) {
	tests := []struct {
		path string
		want []string
	}{
		{"", nil},
		{"<nil>", nil},
		{"spec", []string{"spec"}},
		{"spec.rules[0].matches[12].path", []string{"spec", "rules", "0", "matches", "12", "path"}},
		{"metadata.annotations[example.com/x]", []string{"metadata", "annotations", "example.com/x"}},
		{"spec.rules[0][1]", []string{"spec", "rules", "0", "1"}},
	}
	for _, tt := range tests {
		if got := validate.PathSegments(tt.path); !slices.Equal(got, tt.want) {
			t.Errorf("PathSegments(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestFieldLine(t *testing.T) {
	yamlDoc := document{base: 10, data: []byte(`apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: r
  annotations:
    example.com/x: "1"
spec:
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: foo
  - backendRefs:
    - name: s
`)}
	jsonDoc := document{base: 3, json: true, data: []byte("{\"spec\": {\n  \"rules\": [\n    {\"matches\": [{\"path\": {\"value\": \"x\"}}]}\n  ]\n}}")}
	tests := []struct {
		doc  document
		path string
		want int
		ok   bool
	}{
		{yamlDoc, "spec.rules[0].matches[0].path", 19, true},
		{yamlDoc, "spec.rules[0].matches[0].path.value", 21, true},
		{yamlDoc, "spec.rules[1]", 22, true},
		{yamlDoc, "spec.rules[1].backendRefs[0].port", 23, true}, // missing: the backendRef's line
		{yamlDoc, "metadata.annotations[example.com/x]", 15, true},
		{yamlDoc, "status", 0, false},
		{yamlDoc, "<nil>", 0, false},
		{jsonDoc, "spec.rules[0].matches[0].path.value", 5, true},
	}
	for _, tt := range tests {
		got, ok := fieldLine(tt.doc, tt.path)
		if got != tt.want || ok != tt.ok {
			t.Errorf("fieldLine(%q) = %d, %v; want %d, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
}
