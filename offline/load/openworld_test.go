package load

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/translate"
)

func TestOpenWorld(t *testing.T) {
	secret := &corev1.Secret{}
	secret.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	secret.Namespace, secret.Name = "infra", "cert"
	objs := []client.Object{secret}
	others := []translate.OtherObject{{Group: "gateway.envoyproxy.io", Kind: "Backend", Namespace: "app", Name: "api"}}
	type probe struct{ group, kind, ns string }
	probes := []probe{
		{"", "Secret", "infra"}, {"", "Secret", "app"},
		{"gateway.envoyproxy.io", "Backend", "app"}, {"gateway.envoyproxy.io", "Backend", "infra"},
		{"", "Service", "app"}, {"gateway.networking.k8s.io", "ReferenceGrant", "app"},
	}
	tests := []struct {
		assume string
		want   []bool // per probe
	}{
		{"", []bool{false, true, false, true, true, false}},
		{"all", []bool{true, true, true, true, true, false}},
		{"none", []bool{false, false, false, false, false, false}},
		{"Secret,gateway.envoyproxy.io/Backend", []bool{true, true, true, true, false, false}},
		{"Service", []bool{false, false, false, false, true, false}},
	}
	for _, tt := range tests {
		ow, err := OpenWorld(objs, others, tt.assume)
		if err != nil {
			t.Fatalf("OpenWorld(%q): %v", tt.assume, err)
		}
		var got []bool
		for _, p := range probes {
			got = append(got, ow.Assumes(p.group, p.kind, p.ns))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("OpenWorld(%q).Assumes per probe %v (-want +got):\n%s", tt.assume, probes, diff)
		}
	}
	for _, bad := range []string{"Secret,,Service", "ReferenceGrant", "Service,ReferenceGrant"} {
		if _, err := OpenWorld(objs, others, bad); err == nil {
			t.Errorf("OpenWorld(%q): no error", bad)
		}
	}
}

func TestSecretStringData(t *testing.T) {
	dir := writeFiles(t, map[string]string{"s.yaml": `apiVersion: v1
kind: Secret
metadata: {name: s}
data:
  a: b2xk
  b: a2VwdA==
stringData:
  a: new
  c: added
`})
	res := Load(Options{Paths: []string{dir}})
	s := res.Objects[0].(*corev1.Secret)
	want := map[string]string{"a": "new", "b": "kept", "c": "added"}
	got := map[string]string{}
	for k, v := range s.Data {
		got[k] = string(v)
	}
	if diff := cmp.Diff(want, got); diff != "" || s.StringData != nil {
		t.Errorf("data (-want +got):\n%s\nstringData = %v, want nil", diff, s.StringData)
	}
}

func TestExcludeAndRecursion(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"chart/values.yaml":           "replicas: 1\n",
		"chart/templates/route.yaml":  "{{ .Values.x }}\n",
		"chart/manifests/class.yaml":  classYAML,
		"chart/manifests/values.yaml": "also: skipped\n",
	})
	res := Load(Options{Paths: []string{dir + "/chart"}, Recursive: true, Exclude: []string{"values.yaml", "templates"}})
	got := summarize(dir+"/chart", res)
	want := summary{Objects: []string{"GatewayClass eg gateway.networking.k8s.io/v1 @ manifests/class.yaml:1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load with excludes (-want +got):\n%s", diff)
	}
	res = Load(Options{Paths: []string{dir + "/chart/manifests"}, Recursive: true, Exclude: []string{"manifests/*"}})
	if len(res.Objects) != 1 {
		t.Errorf("a glob on the path below the -f directory: got %d objects, want 1 (the path is relative to %s)", len(res.Objects), "chart/manifests")
	}

	res = Load(Options{Paths: []string{dir + "/chart"}, Exclude: []string{"values.yaml"}})
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "pass -R") {
		t.Errorf("a directory with only subdirectories, without -R: errors %v, want one suggesting -R", res.Errors)
	}
}
