package load

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/gwsim/gwsim/diag"
)

const ciphertext = "ENC[AES256_GCM,data:c2VjcmV0,iv:aXY=,tag:dGFn,type:str]"

// sopsSecret is a kubernetes.io/tls Secret as `sops -e
// --encrypted-regex '^(data|stringData)$'` writes it.
const sopsSecret = "apiVersion: v1\nkind: Secret\nmetadata:\n    name: shop-tls\n    namespace: shop\ntype: kubernetes.io/tls\ndata:\n" +
	"    tls.crt: " + ciphertext + "\n    tls.key: " + ciphertext + "\n" +
	"sops:\n    age:\n        - recipient: age1qqqq\n    mac: " + ciphertext + "\n    encrypted_regex: ^(data|stringData)$\n    version: 3.9.0\n"

// TestOpenSOPS checks which encrypted documents are read as the object
// they stand for and what of them is kept.
func TestOpenSOPS(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  map[string]any
		want map[string]any // nil: not opened
	}{{
		name: "a Secret keeps its identity and keys; its values are empty and marked unknown",
		doc: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s", "annotations": map[string]any{"a": "b"}},
			"type": "kubernetes.io/tls", "data": map[string]any{"tls.crt": ciphertext, "plain": "eA=="}, "sops": map[string]any{"version": "3.9.0"}},
		want: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s", "annotations": map[string]any{"a": "b", diag.EncryptedAnnotation: diag.EncryptedBySOPS}},
			"type": "kubernetes.io/tls", "data": map[string]any{"tls.crt": "", "plain": "eA=="}},
	}, {
		name: "a ConfigMap's data and binaryData",
		doc: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"},
			"data": map[string]any{"ca.crt": ciphertext}, "binaryData": map[string]any{"b": ciphertext}, "sops": map[string]any{}},
		want: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "annotations": map[string]any{diag.EncryptedAnnotation: diag.EncryptedBySOPS}},
			"data": map[string]any{"ca.crt": ""}, "binaryData": map[string]any{"b": ""}},
	}, {
		name: "every value encrypted, the kind too (sops without encrypted_regex)",
		doc:  map[string]any{"apiVersion": ciphertext, "kind": ciphertext, "metadata": map[string]any{"name": ciphertext}, "sops": map[string]any{}},
	}, {
		name: "an encrypted name",
		doc:  map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": ciphertext}, "sops": map[string]any{}},
	}, {
		name: "an encrypted type",
		doc:  map[string]any{"apiVersion": "v1", "kind": "Secret", "type": ciphertext, "metadata": map[string]any{"name": "s"}, "sops": map[string]any{}},
	}, {
		name: "a kind whose fields gwsim routes on",
		doc: map[string]any{"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": map[string]any{"name": "r"},
			"spec": map[string]any{"hostnames": []any{ciphertext}}, "sops": map[string]any{}},
	}, {
		name: "ciphertext nested below a data key",
		doc: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"},
			"data": map[string]any{"k": map[string]any{"x": ciphertext}}, "sops": map[string]any{}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			js, err := json.Marshal(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			out, ok := openSOPS(js)
			if tc.want == nil {
				if ok {
					t.Fatalf("opened as %s, want it left encrypted", out)
				}
				return
			}
			if !ok {
				t.Fatal("not opened")
			}
			var got map[string]any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("opened (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSOPSSecretLoaded checks that an encrypted Secret is read from a
// directory and from a file named on the command line alike, with its
// keys, the annotation, and one info finding at its line.
func TestSOPSSecretLoaded(t *testing.T) {
	dir := writeFiles(t, map[string]string{"app/secret.enc.yaml": "---\n" + sopsSecret})
	for _, path := range []string{filepath.Join(dir, "app"), filepath.Join(dir, "app", "secret.enc.yaml")} {
		res := Load(Options{Paths: []string{path}})
		got := summarize(dir, res)
		want := summary{
			Objects:  []string{"Secret shop/shop-tls v1 @ app/secret.enc.yaml:2"},
			Findings: []string{"app/secret.enc.yaml:2: info: Secret shop/shop-tls: encrypted with SOPS: gwsim reads its keys, not their values (the cluster's controller decrypts them), so a certificate or CA bundle in it is taken as valid"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", path, diff)
		}
		s, ok := res.Objects[0].(*corev1.Secret)
		if !ok {
			t.Fatalf("%T, want a Secret", res.Objects[0])
		}
		if !diag.Encrypted(s.Annotations) || len(s.Data) != 2 || s.Data[corev1.TLSCertKey] == nil {
			t.Errorf("annotations %v, data %q: want the annotation and both keys", s.Annotations, s.Data)
		}
	}
}
