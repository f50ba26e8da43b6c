package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/internal/corpus"
	"github.com/gwsim/gwsim/internal/fastpath/yamlin"
)

// TestEmbeddedCRDsMatchModule fails when crds/ is not what gen_crds.go
// copies from the gateway-api module at the version go.mod requires: run
// `go generate ./offline/validate` (make crds) after changing it.
func TestEmbeddedCRDsMatchModule(t *testing.T) {
	modDir, err := corpus.GatewayAPIDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, channel := range []Channel{Standard, Experimental} {
		dir := filepath.Join(modDir, "config", "crd", string(channel))
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, e := range entries {
			if !isCRDFile(e.Name()) {
				continue
			}
			want[e.Name()] = true
			upstream, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			embedded, err := crdFiles.ReadFile("crds/" + string(channel) + "/" + e.Name())
			if err != nil || !bytes.Equal(embedded, upstream) {
				t.Errorf("crds/%s/%s differs from the module's (%v); run make crds", channel, e.Name(), err)
			}
		}
		embedded, err := crdFiles.ReadDir("crds/" + string(channel))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range embedded {
			if !want[e.Name()] {
				t.Errorf("crds/%s/%s is not in the module; run make crds", channel, e.Name())
			}
		}
	}
}

// TestPluralsCoverEmbeddedCRDs checks that every embedded CRD is reachable
// through the plurals table, under its own group and kind, and that the
// table names no CRD that neither channel has.
func TestPluralsCoverEmbeddedCRDs(t *testing.T) {
	seen := map[schema.GroupKind]bool{}
	for _, channel := range []Channel{Standard, Experimental} {
		entries, err := crdFiles.ReadDir("crds/" + string(channel))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, _ := crdFiles.ReadFile("crds/" + string(channel) + "/" + e.Name())
			var head struct {
				Spec struct {
					Group string
					Names struct{ Kind, Plural string }
				}
			}
			if err := yaml.Unmarshal(data, &head); err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
			gk := schema.GroupKind{Group: head.Spec.Group, Kind: head.Spec.Names.Kind}
			if plurals[gk] != head.Spec.Names.Plural {
				t.Errorf("plurals[%v] = %q, the CRD %s says %q", gk, plurals[gk], e.Name(), head.Spec.Names.Plural)
			}
			if crdFile(channel, gk) != "crds/"+string(channel)+"/"+e.Name() {
				t.Errorf("crdFile(%s, %v) = %s, want crds/%s/%s", channel, gk, crdFile(channel, gk), channel, e.Name())
			}
			seen[gk] = true
		}
	}
	for gk := range plurals {
		if !seen[gk] && gk.Group != EnvoyGatewayGroup { // TestEnvoyGatewayCRDsParseAndCompile
			t.Errorf("plurals names %v, which no embedded CRD defines", gk)
		}
	}
}

// TestParseCRDMatchesYAML checks parseCRD's fast way against
// sigs.k8s.io/yaml.Unmarshal on every embedded CRD, and that the fast way
// takes each of them (else compiling a kind costs some 25 ms more; extend
// package yamljson for what it declines).
func TestParseCRDMatchesYAML(t *testing.T) {
	for _, channel := range []Channel{Standard, Experimental} {
		entries, err := crdFiles.ReadDir("crds/" + string(channel))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := "crds/" + string(channel) + "/" + e.Name()
			data, err := crdFiles.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := yamlin.Convert(data); !ok {
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
		}
	}
}
