package validate

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/internal/fastpath/yamlin"
)

// TestEmbeddedEnvoyGatewayCRDsMatchModule fails when crds/envoy-gateway is
// not what gen_crds.go makes of the CRD chart of the Envoy Gateway module
// at the version go.mod requires: run `make crds` after changing it.
func TestEmbeddedEnvoyGatewayCRDsMatchModule(t *testing.T) {
	modDir, err := corpus.EnvoyGatewayDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(modDir, "charts", "gateway-crds-helm", "templates", "generated")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), EnvoyGatewayGroup+"_") {
			continue
		}
		want[e.Name()] = true
		upstream, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		embedded, err := crdFiles.ReadFile("crds/" + envoyGatewayDir + "/" + e.Name())
		if err != nil || string(embedded) != stripHelm(string(upstream)) {
			t.Errorf("crds/%s/%s differs from the module's (%v); run make crds", envoyGatewayDir, e.Name(), err)
		}
	}
	if len(want) == 0 {
		t.Fatalf("no CRD templates in %s", dir)
	}
	embedded, err := crdFiles.ReadDir("crds/" + envoyGatewayDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range embedded {
		if !want[e.Name()] {
			t.Errorf("crds/%s/%s is not in the module; run make crds", envoyGatewayDir, e.Name())
		}
	}
}

// fastParsed are the Envoy Gateway CRDs that package yamljson must
// convert: those of the kinds gwsim decodes. The policies' larger CRDs
// take the library's way, which costs only when such an object comes.
var fastParsed = map[string]bool{
	"gateway.envoyproxy.io_backends.yaml":         true,
	"gateway.envoyproxy.io_httproutefilters.yaml": true,
}

// TestEnvoyGatewayCRDsParseAndCompile checks that every embedded Envoy
// Gateway CRD is reachable through plurals under its own group and kind,
// parses the same both ways (see TestParseCRDMatchesYAML), and compiles
// in both channels' validators, which admit Envoy Gateway objects alike.
func TestEnvoyGatewayCRDsParseAndCompile(t *testing.T) {
	entries, err := crdFiles.ReadDir("crds/" + envoyGatewayDir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[schema.GroupKind]bool{}
	defer func() {
		for gk := range plurals {
			if gk.Group == EnvoyGatewayGroup && !seen[gk] {
				t.Errorf("plurals names %v, which no embedded CRD defines", gk)
			}
		}
	}()
	for _, e := range entries {
		name := "crds/" + envoyGatewayDir + "/" + e.Name()
		data, err := crdFiles.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := yamlin.Convert(data); !ok && fastParsed[e.Name()] {
			t.Errorf("yamljson declines %s", name)
		}
		got, err := parseCRD(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var want apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(data, &want); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%s parses differently from sigs.k8s.io/yaml.Unmarshal", name)
		}
		gk := schema.GroupKind{Group: want.Spec.Group, Kind: want.Spec.Names.Kind}
		seen[gk] = true
		for _, v := range want.Spec.Versions {
			if _, err := New(Standard).compiled(gk.WithVersion(v.Name)); err != nil {
				t.Errorf("%s %s: %v", name, v.Name, err)
			}
		}
		if plurals[gk] != want.Spec.Names.Plural || crdFile(Standard, gk) != name || crdFile(Experimental, gk) != name {
			t.Errorf("plurals[%v] = %q, crdFile = %s; the CRD %s says %q", gk, plurals[gk], crdFile(Standard, gk), name, want.Spec.Names.Plural)
		}
	}
}

// TestAdmitEnvoyGatewayBackend admits a Backend as the API server would:
// a valid one is accepted and one breaking a CEL rule of its CRD is not.
func TestAdmitEnvoyGatewayBackend(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: EnvoyGatewayGroup, Version: "v1alpha1", Kind: "Backend"}
	ok := map[string]any{
		"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "Backend",
		"metadata": map[string]any{"name": "b", "namespace": "default"},
		"spec":     map[string]any{"endpoints": []any{map[string]any{"fqdn": map[string]any{"hostname": "api.example.com", "port": int64(443)}}}},
	}
	res, err := New(Standard).Admit(gvk, ok)
	if err != nil || len(res.Errors) > 0 {
		t.Fatalf("valid Backend: %v %v", err, res.Errors)
	}
	bad := map[string]any{
		"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "Backend",
		"metadata": map[string]any{"name": "b", "namespace": "default"},
		"spec": map[string]any{"endpoints": []any{map[string]any{
			"fqdn": map[string]any{"hostname": "api.example.com", "port": int64(443)},
			"ip":   map[string]any{"address": "10.0.0.1", "port": int64(443)},
		}}},
	}
	res, err = New(Standard).Admit(gvk, bad)
	if err != nil || len(res.Errors) == 0 {
		t.Fatalf("Backend endpoint with both fqdn and ip admitted: %v", err)
	}
}
