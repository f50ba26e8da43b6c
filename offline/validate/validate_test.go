package validate

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

var httpRouteV1 = schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "HTTPRoute"}

// object decodes a YAML manifest as the loader does: JSON numbers as int64
// where they are integers.
func object(t testing.TB, manifest string) map[string]any {
	t.Helper()
	js, err := yaml.YAMLToJSON([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

func errorStrings(res Result) []string {
	var out []string
	for _, e := range res.Errors {
		out = append(out, e.Error())
	}
	return out
}

func TestAdmitRejectsRelativePath(t *testing.T) {
	obj := object(t, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: ns}
spec:
  rules:
  - matches:
    - path: {type: PathPrefix, value: foo}
`)
	res, err := New(Standard).Admit(httpRouteV1, obj)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(strings.Join(errorStrings(res), "\n"))
	if len(res.Errors) == 0 {
		t.Fatal("no errors")
	}
}

func TestAdmitAppliesDefaults(t *testing.T) {
	obj := object(t, routeWith("  parentRefs: [{name: g}]\n  rules:\n  - backendRefs: [{name: s, port: 80}]\n"))
	res, err := New(Standard).Admit(httpRouteV1, obj)
	if err != nil || len(res.Errors) > 0 {
		t.Fatalf("Admit = %v, %v", res.Errors, err)
	}
	spec := obj["spec"].(map[string]any)
	parent := spec["parentRefs"].([]any)[0].(map[string]any)
	if parent["group"] != "gateway.networking.k8s.io" || parent["kind"] != "Gateway" {
		t.Errorf("parentRef not defaulted: %v", parent)
	}
	rule := spec["rules"].([]any)[0].(map[string]any)
	backend := rule["backendRefs"].([]any)[0].(map[string]any)
	if backend["weight"] != int64(1) || backend["kind"] != "Service" || backend["group"] != "" {
		t.Errorf("backendRef not defaulted: %v", backend)
	}
	match := rule["matches"].([]any)[0].(map[string]any)
	if path := match["path"].(map[string]any); path["type"] != "PathPrefix" || path["value"] != "/" {
		t.Errorf("rule matches not defaulted: %v", rule["matches"])
	}
}

func TestAdmitPrunesExperimentalFieldsUnderStandard(t *testing.T) {
	manifest := routeWith("  rules:\n  - backendRefs: [{name: s, port: 80}]\n    retry: {attempts: 2}\n")
	std := object(t, manifest)
	res, err := New(Standard).Admit(httpRouteV1, std)
	if err != nil || len(res.Errors) > 0 {
		t.Fatalf("Admit = %v, %v", res.Errors, err)
	}
	if want := []string{"spec.rules[0].retry"}; strings.Join(res.Pruned, ",") != strings.Join(want, ",") {
		t.Errorf("pruned %v, want %v", res.Pruned, want)
	}
	exp := object(t, manifest)
	res, err = New(Experimental).Admit(httpRouteV1, exp)
	if err != nil || len(res.Errors) > 0 || len(res.Pruned) > 0 {
		t.Errorf("experimental: Admit = %+v, %v", res, err)
	}
}

func TestAdmitNotServed(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1alpha2", Kind: "UDPRoute"}
	_, err := New(Standard).Admit(gvk, object(t, "metadata: {name: u}"))
	var notServed *NotServedError
	if !errors.As(err, &notServed) {
		t.Fatalf("standard UDPRoute: err = %v, want NotServedError", err)
	}
	if _, err := New(Experimental).Admit(gvk, object(t, "metadata: {name: u}")); err != nil {
		t.Errorf("experimental UDPRoute v1alpha2: %v", err)
	}
}

func TestCompilingSaysWhileACompileRuns(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "GatewayClass"}
	v := &Validator{channel: Standard, compiles: &compileCache{entries: map[schema.GroupVersionKind]*entry{}}}
	if v.MayBeCompiling() || v.Compiling(gvk) {
		t.Fatal("Compiling before anything was compiled")
	}
	e := &entry{}
	v.compiles.entries[gvk] = e
	var during, duringOther bool
	e.state.run(v.compiles, func() {
		during = v.MayBeCompiling() && v.Compiling(gvk)
		duringOther = v.Compiling(httpRouteV1)
	})
	if !during || duringOther {
		t.Errorf("while compiling GatewayClass: Compiling(GatewayClass) = %v, Compiling(HTTPRoute) = %v; want true, false", during, duringOther)
	}
	if v.MayBeCompiling() || v.Compiling(gvk) {
		t.Error("Compiling after the compile ended")
	}

	// celFast is compiled on first need, after the schema: Compiling says
	// so while it is.
	delete(v.compiles.entries, gvk)
	c, err := v.compiled(gvk)
	if err != nil {
		t.Fatal(err)
	}
	c.fastState.run(c.cache, func() { during = v.Compiling(gvk) })
	if !during {
		t.Error("Compiling is false while celFast compiles")
	}
	if v.Compiling(gvk) {
		t.Error("Compiling after celFast compiled")
	}
}
