package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/validate"
	"github.com/gwsim/gwsim/translate"
)

// Manifests shared by the tests.
const (
	gatewayYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: infra
spec:
  gatewayClassName: eg
  listeners:
  - name: http
    port: 80
    protocol: HTTP
`
	routeYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: r
spec:
  parentRefs:
  - name: gw
    namespace: infra
`
	classYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: eg
spec:
  controllerName: gwsim.dev/gateway-controller
`
	deploymentYAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
`
)

// writeFiles writes files (slash-separated relative names) into a fresh
// directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// summary renders a Result as lines that are easy to compare: objects as
// `Kind ns/name apiVersion @ file:line`, findings and errors as their String,
// with the temporary directory removed from paths.
type summary struct {
	Objects  []string
	Findings []string
	Errors   []string
}

func summarize(dir string, res Result) summary {
	trim := func(s string) string { return strings.ReplaceAll(s, dir+string(filepath.Separator), "") }
	var s summary
	for _, o := range res.Objects {
		ref := objectRef(o)
		s.Objects = append(s.Objects, ref.String()+" "+o.GetObjectKind().GroupVersionKind().GroupVersion().String()+" @ "+trim(res.Sources.Of(ref).String()))
	}
	for _, f := range res.Findings {
		s.Findings = append(s.Findings, trim(f.String()))
	}
	for _, f := range res.Errors {
		s.Errors = append(s.Errors, trim(f.String()))
	}
	return s
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		paths     []string // relative to the directory; nil means the directory itself
		recursive bool
		namespace string
		channel   validate.Channel
		// noValidation loads as --validate=false does.
		noValidation bool
		stdin        string
		want         summary
	}{{
		// A helm `# Source:` comment names the source of its document only
		// (the route's), not of a document after a separator.
		name: "multi-document file with comments, empty documents and a leading separator",
		files: map[string]string{"a.yaml": "# Source: chart/templates/gw.yaml\n---\n" + gatewayYAML +
			"---\n---\n# only a comment\n--- # separator with a comment\n\n# Source: chart/templates/route.yaml\n" + routeYAML +
			"...\n---\n" + classYAML},
		want: summary{Objects: []string{
			"Gateway infra/gw gateway.networking.k8s.io/v1 @ a.yaml:3",
			"GatewayClass eg gateway.networking.k8s.io/v1 @ a.yaml:30",
			"HTTPRoute default/r gateway.networking.k8s.io/v1 @ chart/templates/route.yaml",
		}},
	}, {
		name:  "CRLF line endings and a byte order mark",
		files: map[string]string{"a.yaml": "\ufeff" + strings.ReplaceAll(gatewayYAML+"---\n"+routeYAML, "\n", "\r\n")},
		want: summary{Objects: []string{
			"Gateway infra/gw gateway.networking.k8s.io/v1 @ a.yaml:1",
			"HTTPRoute default/r gateway.networking.k8s.io/v1 @ a.yaml:13",
		}},
	}, {
		name: "v1 List items take the List's line",
		files: map[string]string{"list.yaml": "# header\napiVersion: v1\nkind: List\nitems:\n" +
			"- apiVersion: gateway.networking.k8s.io/v1\n  kind: HTTPRoute\n  metadata: {name: a}\n  spec: {}\n" +
			"- apiVersion: v1\n  kind: Service\n  metadata: {name: svc, namespace: app}\n  spec: {ports: [{port: 80}]}\n" +
			"- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n"},
		want: summary{
			Objects: []string{
				"HTTPRoute default/a gateway.networking.k8s.io/v1 @ list.yaml:2",
				"Service app/svc v1 @ list.yaml:2",
			},
			Findings: []string{"info: 1 object of kinds gwsim does not model (a reference to one resolves; its effect is not simulated): core/Pod (1)"},
		},
	}, {
		name: "List edge cases: empty, no items, items not a list, nested",
		files: map[string]string{"list.yaml": "apiVersion: v1\nkind: List\nitems: []\n---\napiVersion: v1\nkind: List\n---\n" +
			"apiVersion: v1\nkind: List\nitems: {a: 1}\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n" +
			"  - {apiVersion: v1, kind: Secret, metadata: {name: nested}}\n"},
		want: summary{
			Objects:  []string{"Secret default/nested v1 @ list.yaml:12"},
			Findings: []string{"list.yaml:8: error: items must be a list (the API server would reject the object; gwsim leaves it out)"},
		},
	}, {
		name:  "stdin named but not given",
		files: map[string]string{},
		paths: []string{"-"},
		want:  summary{Errors: []string{"<stdin>: error: cannot read <stdin>: no standard input to read"}},
	}, {
		name: "typed list items without apiVersion and kind",
		files: map[string]string{"list.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRouteList\nitems:\n" +
			"- {metadata: {name: a}, spec: {}}\n- {metadata: {name: b}, spec: {}}\n"},
		want: summary{Objects: []string{
			"HTTPRoute default/a gateway.networking.k8s.io/v1 @ list.yaml:1",
			"HTTPRoute default/b gateway.networking.k8s.io/v1 @ list.yaml:1",
		}},
	}, {
		name: "JSON files: one object, a List, and a stream of objects",
		files: map[string]string{
			"a.json": "{\n\t\"apiVersion\": \"gateway.networking.k8s.io/v1\",\n\t\"kind\": \"GatewayClass\",\n\t\"metadata\": {\"name\": \"eg\"},\n\t\"spec\": {\"controllerName\": \"example.com/x\"}\n}\n",
			"b.json": `{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "infra"}}]}`,
			"c.json": "{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"metadata\": {\"name\": \"s1\"}}\n\n  {\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"metadata\": {\"name\": \"s2\"}}\n",
		},
		want: summary{Objects: []string{
			"GatewayClass eg gateway.networking.k8s.io/v1 @ a.json:1",
			"Namespace infra v1 @ b.json:1",
			"Secret default/s1 v1 @ c.json:1",
			"Secret default/s2 v1 @ c.json:3",
		}},
	}, {
		name:  "YAML flow mapping in a .yaml file that starts with a brace",
		files: map[string]string{"a.yaml": "{apiVersion: v1, kind: Secret, metadata: {name: s}}\n"},
		want:  summary{Objects: []string{"Secret default/s v1 @ a.yaml:1"}},
	}, {
		name:  "stdin",
		files: map[string]string{},
		paths: []string{"-"},
		stdin: "---\n" + routeYAML,
		want:  summary{Objects: []string{"HTTPRoute default/r gateway.networking.k8s.io/v1 @ <stdin>:2"}},
	}, {
		name: "directory without -R reads only its own manifest files",
		files: map[string]string{
			"b.yml": routeYAML, "a.yaml": gatewayYAML, "notes.txt": "not yaml", "README.md": "# hi",
			"sub/c.yaml": classYAML,
		},
		want: summary{Objects: []string{
			"Gateway infra/gw gateway.networking.k8s.io/v1 @ a.yaml:1",
			"HTTPRoute default/r gateway.networking.k8s.io/v1 @ b.yml:1",
		}},
	}, {
		name:      "directory with -R descends",
		files:     map[string]string{"a.yaml": gatewayYAML, "sub/deeper/c.yaml": classYAML, "sub/x.txt": "nope"},
		recursive: true,
		want: summary{Objects: []string{
			"Gateway infra/gw gateway.networking.k8s.io/v1 @ a.yaml:1",
			"GatewayClass eg gateway.networking.k8s.io/v1 @ sub/deeper/c.yaml:1",
		}},
	}, {
		name:  "a file named explicitly is read whatever its extension",
		files: map[string]string{"route.txt": routeYAML},
		paths: []string{"route.txt"},
		want:  summary{Objects: []string{"HTTPRoute default/r gateway.networking.k8s.io/v1 @ route.txt:1"}},
	}, {
		name:  "missing path is an error naming it; the rest still loads",
		files: map[string]string{"a.yaml": routeYAML},
		paths: []string{"nope.yaml", "a.yaml"},
		want: summary{
			Objects: []string{"HTTPRoute default/r gateway.networking.k8s.io/v1 @ a.yaml:1"},
			Errors:  []string{"nope.yaml: error: cannot read nope.yaml: no such file or directory"},
		},
	}, {
		name: "kinds gwsim does not use are summed up in one finding",
		files: map[string]string{"a.yaml": deploymentYAML + "---\n" + deploymentYAML +
			"---\napiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: p}\n---\n" +
			"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa}\n---\n" + routeYAML},
		want: summary{
			Objects:  []string{"HTTPRoute default/r gateway.networking.k8s.io/v1 @ a.yaml:19"},
			Findings: []string{"info: 4 objects of kinds gwsim does not model (a reference to one resolves; its effect is not simulated): apps/Deployment (2), cert-manager.io/Certificate (1), core/ServiceAccount (1)"},
		},
	}, {
		name:  "unknown field is a warning with its path; the object loads",
		files: map[string]string{"a.yaml": routeYAML + "  rules:\n  - matchs:\n    - path: {value: /}\n"},
		want: summary{
			Objects:  []string{"HTTPRoute default/r gateway.networking.k8s.io/v1 @ a.yaml:1"},
			Findings: []string{"a.yaml:10: warning: HTTPRoute default/r: spec.rules[0].matchs: unknown field; ignored, as the API server would drop it"},
		},
	}, {
		name:  "repeated key is a warning",
		files: map[string]string{"a.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: a\ntype: b\n"},
		want: summary{
			Objects:  []string{"Secret default/s v1 @ a.yaml:1"},
			Findings: []string{`a.yaml:1: warning: Secret default/s: yaml: unmarshal errors: line 5: key "type" already set in map (the last value is used)`},
		},
	}, {
		name: "wrong field type and bad YAML: every error is reported with file:line",
		files: map[string]string{
			"a.yaml": routeYAML + "---\napiVersion: v1\nkind: Service\nmetadata: {name: svc}\nspec:\n  ports:\n  - port: eighty\n" +
				"---\n# comment\nkind: Secret\nmetadata: {name: x}\nbad: [1\n---\n" + classYAML,
			"b.yaml": "a: b: c\n",
		},
		want: summary{
			Objects: []string{
				"GatewayClass eg gateway.networking.k8s.io/v1 @ a.yaml:22",
				"HTTPRoute default/r gateway.networking.k8s.io/v1 @ a.yaml:1",
			},
			Findings: []string{
				`a.yaml:15: error: Service default/svc: spec.ports[0].port: Invalid value: "string": must be of type integer (the API server would reject the object; gwsim leaves it out)`,
				"a.yaml:20: error: yaml: line 20: did not find expected ',' or ']'; gwsim leaves this document out and reads the rest",
				"b.yaml:1: error: yaml: mapping values are not allowed in this context; gwsim leaves this document out and reads the rest",
			},
		},
	}, {
		name: "missing apiVersion, kind or name",
		files: map[string]string{"a.yaml": "kind: Gateway\nmetadata: {name: g}\n---\napiVersion: v1\nmetadata: {name: x}\n---\n" +
			"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {namespace: app}\n---\nfoo: bar\n---\n- a list\n"},
		paths: []string{"a.yaml"},
		want: summary{
			Findings: []string{
				"a.yaml:1: error: Gateway default/g: missing apiVersion; every object needs apiVersion, kind and metadata.name",
				"a.yaml:4: error: missing kind; every object needs apiVersion, kind and metadata.name",
				"a.yaml:7: error: HTTPRoute app/: missing metadata.name; every object needs apiVersion, kind and metadata.name",
				"a.yaml:11: error: missing apiVersion and kind; every object needs apiVersion, kind and metadata.name",
			},
			Errors: []string{"a.yaml:13: error: document is not a mapping; expected an object with apiVersion, kind and metadata"},
		},
	}, {
		name: "a directory's YAML that is not an object is skipped and listed once; a broken manifest is not",
		files: map[string]string{
			"a.yaml":      "kind: Gateway\nmetadata: {name: g}\n---\nfoo: bar\n---\n- a list\n---\n42\n",
			"values.yaml": "replicaCount: 2\nimage: {tag: v1}\n",
			"Chart.yaml":  "apiVersion: v2\nname: app\nversion: 1.0.0\n",
			"secret.yaml": "apiVersion: ENC[AES256_GCM,data:x,iv:y,tag:z,type:str]\nkind: ENC[AES256_GCM,data:x,iv:y,tag:z,type:str]\nmetadata:\n  name: ENC[AES256_GCM,data:x,iv:y,tag:z,type:str]\n" +
				"data:\n  password: ENC[AES256_GCM,data:x,iv:y,tag:z,type:str]\nsops:\n  version: 3.8.1\n",
			"deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n  labels: {{ include \"x\" . }}\n  {{- end }}\n",
			"config.json": "[{\"a\": 1}]",
		},
		want: summary{
			Findings: []string{
				"info: skipped 8 YAML documents found in directories that are not Kubernetes objects (Helm values, application config, CI workflows and SOPS-encrypted files are never applied as manifests): " +
					"a list (a.yaml:6, config.json:1); a scalar (a.yaml:8); a template (deploy.yaml:1); encrypted with SOPS (secret.yaml:1); no kind or metadata (Chart.yaml:1, a.yaml:4, values.yaml:1)",
				"a.yaml:1: error: Gateway default/g: missing apiVersion; every object needs apiVersion, kind and metadata.name",
			},
		},
	}, {
		name:      "-R reaches CI workflows",
		recursive: true,
		files: map[string]string{
			".github/workflows/ci.yml": "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
			"gw.yaml":                  classYAML,
		},
		want: summary{
			Objects:  []string{"GatewayClass eg gateway.networking.k8s.io/v1 @ gw.yaml:1"},
			Findings: []string{"info: skipped 1 YAML document found in directories that is not a Kubernetes object (Helm values, application config, CI workflows and SOPS-encrypted files are never applied as manifests): no kind or metadata (.github/workflows/ci.yml:1)"},
		},
	}, {
		name: "namespace defaulting: namespaced kinds get it, cluster-scoped kinds never",
		files: map[string]string{"a.yaml": routeYAML + "---\n" + classYAML + "---\n" +
			"apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: {name: other, namespace: oops}\nspec: {controllerName: example.com/x}\n---\n" +
			"apiVersion: v1\nkind: Namespace\nmetadata: {name: app}\n"},
		namespace: "team",
		want: summary{
			Objects: []string{
				"GatewayClass eg gateway.networking.k8s.io/v1 @ a.yaml:10",
				"GatewayClass other gateway.networking.k8s.io/v1 @ a.yaml:17",
				"HTTPRoute team/r gateway.networking.k8s.io/v1 @ a.yaml:1",
				"Namespace app v1 @ a.yaml:22",
			},
			Findings: []string{`a.yaml:17: warning: GatewayClass other: metadata.namespace: GatewayClass is cluster-scoped; namespace "oops" ignored`},
		},
	}, {
		name:         "older Gateway API versions become v1",
		noValidation: true,
		files: map[string]string{"a.yaml": strings.ReplaceAll(gatewayYAML, "/v1\n", "/v1beta1\n") + "---\n" +
			"apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TCPRoute\nmetadata: {name: t}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - backendRefs: [{name: svc, port: 9000}]\n---\n" +
			"apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: GRPCRoute\nmetadata: {name: g}\n---\n" +
			"apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TLSRoute\nmetadata: {name: tls}\nspec: {hostnames: [a.example.com]}\n---\n" +
			"apiVersion: gateway.networking.k8s.io/v1alpha3\nkind: BackendTLSPolicy\nmetadata: {name: p}\n---\n" +
			"apiVersion: gateway.networking.x-k8s.io/v1alpha1\nkind: XBackendTrafficPolicy\nmetadata: {name: x}\n"},
		want: summary{Objects: []string{
			"BackendTLSPolicy default/p gateway.networking.k8s.io/v1 @ a.yaml:30",
			"GRPCRoute default/g gateway.networking.k8s.io/v1 @ a.yaml:21",
			"Gateway infra/gw gateway.networking.k8s.io/v1 @ a.yaml:1",
			"TCPRoute default/t gateway.networking.k8s.io/v1 @ a.yaml:13",
			"TLSRoute default/tls gateway.networking.k8s.io/v1 @ a.yaml:25",
			"XBackendTrafficPolicy default/x gateway.networking.x-k8s.io/v1alpha1 @ a.yaml:34",
		}},
	}, {
		name:  "a value of the wrong type is an input error in Kubernetes terms, at its field's line",
		files: map[string]string{"a.yaml": "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n  - port: 80\n  - port: eighty\n"},
		want:  summary{Findings: []string{`a.yaml:7: error: Service default/s: spec.ports[1].port: Invalid value: "string": must be of type integer (the API server would reject the object; gwsim leaves it out)`}},
	}, {
		name:         "with validation off, Gateway API kinds too",
		noValidation: true,
		files:        map[string]string{"a.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: g}\nspec:\n  gatewayClassName: {a: b}\n"},
		want:         summary{Findings: []string{`a.yaml:5: error: Gateway default/g: spec.gatewayClassName: Invalid value: "object": must be of type string (the API server would reject the object; gwsim leaves it out)`}},
	}, {
		name:  "with validation on, the schema reports it",
		files: map[string]string{"a.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: g}\nspec:\n  gatewayClassName: {a: b}\n  listeners: [{name: h, port: 80, protocol: HTTP}]\n"},
		want: summary{Findings: []string{
			`a.yaml:5: error: Gateway default/g: spec.gatewayClassName: Invalid value: "object": spec.gatewayClassName in body must be of type string: "object" (the API server would reject the object; gwsim leaves it out)`,
		}},
	}, {
		name:    "a version the channel does not serve is an error, and the object is left out",
		channel: validate.Experimental,
		files:   map[string]string{"a.yaml": "apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: GRPCRoute\nmetadata: {name: g}\nspec: {}\n"},
		want: summary{Findings: []string{
			"a.yaml:1: error: GRPCRoute default/g: apiVersion: the experimental channel CRDs do not serve kind GRPCRoute in version gateway.networking.k8s.io/v1alpha2; " +
				"the API server would answer \"no matches for kind\" (see --channel), so gwsim leaves the object out",
		}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			opts := Options{Paths: []string{dir}, Recursive: tt.recursive, Namespace: tt.namespace, Channel: tt.channel, NoValidation: tt.noValidation}
			if tt.stdin != "" {
				opts.Stdin = strings.NewReader(tt.stdin)
			}
			if tt.paths != nil {
				opts.Paths = nil
				for _, p := range tt.paths {
					if p != "-" {
						p = filepath.Join(dir, p)
					}
					opts.Paths = append(opts.Paths, p)
				}
			}
			got := summarize(dir, Load(opts))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadTypes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": strings.ReplaceAll(gatewayYAML, "/v1\n", "/v1beta1\n") +
		"---\napiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TCPRoute\nmetadata: {name: t}\nspec:\n  rules:\n  - backendRefs: [{name: svc, port: 9000}]\n"})
	res := Load(Options{Paths: []string{dir}, Channel: validate.Experimental})
	if len(res.Objects) != 2 {
		t.Fatalf("got %d objects, want 2: %v", len(res.Objects), res.Errors)
	}
	for _, o := range res.Objects {
		switch o := o.(type) {
		case *gwv1.Gateway:
			if o.Spec.Listeners[0].Port != 80 || o.Spec.GatewayClassName != "eg" {
				t.Errorf("Gateway spec lost in conversion: %+v", o.Spec)
			}
		case *gwv1.TCPRoute:
			if got := o.Spec.Rules[0].BackendRefs[0].Port; got == nil || *got != 9000 {
				t.Errorf("TCPRoute backend port = %v, want 9000", got)
			}
		default:
			t.Errorf("unexpected type %T", o)
		}
	}
}

// TestLoadOthers: the objects of ignored kinds are named in Result.Others,
// sorted, once each; one written without a namespace is named both
// cluster-scoped and in the default namespace (Options.Namespace), as the
// loader cannot know its kind's scope.
func TestLoadOthers(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": deploymentYAML + "---\n" + deploymentYAML +
		"---\napiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: p, namespace: infra}\n---\n" +
		"apiVersion: v1\nkind: ServiceAccount\nmetadata: {namespace: infra}\n---\n" + routeYAML})
	got := Load(Options{Paths: []string{dir}, Namespace: "apps"}).Others
	want := []translate.OtherObject{
		{Group: "apps", Kind: "Deployment", Name: "d"},
		{Group: "apps", Kind: "Deployment", Namespace: "apps", Name: "d"},
		{Group: "cert-manager.io", Kind: "Certificate", Namespace: "infra", Name: "p"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Others (-want +got):\n%s", diff)
	}
}

// TestLoadServiceImport: a multicluster.x-k8s.io/v1alpha1 ServiceImport is
// decoded into its Go type (strictly: an unknown field is a warning, as
// for every kind), defaulted into the default namespace and not counted
// among the ignored kinds; a ServiceExport, which no route references, and
// a ServiceImport of a version gwsim does not decode stay ignored.
func TestLoadServiceImport(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: store}
spec:
  type: ClusterSetIP
  ports: [{name: http, protocol: TCP, port: 8080}]
  colour: blue
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: store, namespace: shop}
---
apiVersion: multicluster.x-k8s.io/v1beta1
kind: ServiceImport
metadata: {name: cart, namespace: shop}
`})
	res := Load(Options{Paths: []string{dir}, Namespace: "apps"})
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	if len(res.Objects) != 1 {
		t.Fatalf("loaded %d objects, want the ServiceImport alone", len(res.Objects))
	}
	si, ok := res.Objects[0].(*mcsv1alpha1.ServiceImport)
	if !ok {
		t.Fatalf("loaded %T, want *v1alpha1.ServiceImport", res.Objects[0])
	}
	if si.Namespace != "apps" || si.Spec.Type != mcsv1alpha1.ClusterSetIP || len(si.Spec.Ports) != 1 || si.Spec.Ports[0].Port != 8080 {
		t.Errorf("ServiceImport = %s/%s %+v", si.Namespace, si.Name, si.Spec)
	}
	wantOthers := []translate.OtherObject{
		{Group: "multicluster.x-k8s.io", Kind: "ServiceExport", Namespace: "shop", Name: "store"},
		{Group: "multicluster.x-k8s.io", Kind: "ServiceImport", Namespace: "shop", Name: "cart"},
	}
	if diff := cmp.Diff(wantOthers, res.Others); diff != "" {
		t.Errorf("Others (-want +got):\n%s", diff)
	}
	var fields []string
	for _, f := range res.Findings {
		if f.Reason == diag.ReasonUnknownField {
			fields = append(fields, f.Object.Kind+" "+f.Field)
		}
	}
	if diff := cmp.Diff([]string{"ServiceImport spec.colour"}, fields); diff != "" {
		t.Errorf("unknown-field findings (-want +got):\n%s", diff)
	}
}
