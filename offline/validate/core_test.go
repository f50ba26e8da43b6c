package validate

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// TestCore: the value checks the API server makes on the core objects
// gwsim reads, each case as the field path and message kube-apiserver
// gives (its pkg/apis/core/validation and discovery/validation), and the
// valid shapes a check must not refuse.
func TestCore(t *testing.T) {
	for _, c := range []struct {
		name string
		obj  client.Object
		yaml string
		want []string
	}{
		{"service ok", &corev1.Service{}, `spec: {ports: [{name: http, port: 80, targetPort: http-alt}, {name: https, port: 443, protocol: TCP, appProtocol: kubernetes.io/h2c}]}`, nil},
		{"service one unnamed port", &corev1.Service{}, `spec: {clusterIP: 10.96.0.1, ports: [{port: 80, targetPort: 8080}]}`, nil},
		{"headless without ports", &corev1.Service{}, `spec: {clusterIP: None}`, nil},
		{"external name", &corev1.Service{}, `spec: {type: ExternalName, externalName: db.example.com.}`, nil},
		{"external name missing", &corev1.Service{}, `spec: {type: ExternalName}`, []string{"spec.externalName: Required value"}},
		{"no ports", &corev1.Service{}, `spec: {}`, []string{"spec.ports: Required value"}},
		{"bad cluster IP", &corev1.Service{}, `spec: {clusterIP: 10.0.0, ports: [{port: 80}]}`, []string{`spec.clusterIP: Invalid value: "10.0.0": must be a valid IP address`}},
		{"unnamed ports", &corev1.Service{}, `spec: {ports: [{port: 80}, {name: b, port: 81}]}`, []string{"spec.ports[0].name: Required value"}},
		{"duplicate names and ports", &corev1.Service{}, `spec: {ports: [{name: a, port: 80}, {name: a, port: 80, protocol: TCP}]}`,
			[]string{`spec.ports[1].name: Duplicate value: "a"`, `spec.ports[1]: Duplicate value: "80/TCP"`}},
		{"port range", &corev1.Service{}, `spec: {ports: [{port: 0}]}`, []string{"spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"}},
		{"target port", &corev1.Service{}, `spec: {ports: [{port: 80, targetPort: 70000}]}`, []string{"spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive"}},
		{"target port name", &corev1.Service{}, `spec: {ports: [{port: 80, targetPort: Web_Port}]}`, []string{`spec.ports[0].targetPort: Invalid value: "Web_Port"`}},
		{"protocol", &corev1.Service{}, `spec: {ports: [{port: 80, protocol: HTTP}]}`, []string{`spec.ports[0].protocol: Unsupported value: "HTTP"`}},
		{"type", &corev1.Service{}, `spec: {type: Ingress, ports: [{port: 80}]}`, []string{`spec.type: Unsupported value: "Ingress"`}},
		{"slice ok", &discoveryv1.EndpointSlice{}, `{addressType: IPv6, endpoints: [{addresses: ["fd00::1"]}], ports: [{name: "", port: 80}]}`, nil},
		{"slice fqdn", &discoveryv1.EndpointSlice{}, `{addressType: FQDN, endpoints: [{addresses: [db.example.com]}]}`, nil},
		{"slice family", &discoveryv1.EndpointSlice{}, `{addressType: IPv4, endpoints: [{addresses: ["fd00::1"]}]}`, []string{`endpoints[0].addresses[0]: Invalid value: "fd00::1": must be an IPv4 address`}},
		{"slice address", &discoveryv1.EndpointSlice{}, `{addressType: IPv4, endpoints: [{addresses: ["10.0.0.300"]}, {addresses: []}]}`,
			[]string{`endpoints[0].addresses[0]: Invalid value: "10.0.0.300": must be a valid IP address`, "endpoints[1].addresses: Required value"}},
		{"slice type", &discoveryv1.EndpointSlice{}, `{addressType: IP}`, []string{`addressType: Unsupported value: "IP"`}},
		{"slice port names", &discoveryv1.EndpointSlice{}, `{addressType: IPv4, ports: [{name: a, port: 80}, {name: a, port: 81}]}`, []string{`ports[1].name: Duplicate value: "a"`}},
		{"tls secret", &corev1.Secret{}, `{type: kubernetes.io/tls, data: {tls.crt: Zm9v}}`, []string{"data[tls.key]: Required value"}},
		{"opaque secret", &corev1.Secret{}, `{data: {ca.crt: Zm9v}}`, nil},
		{"secret key", &corev1.Secret{}, `{data: {"a b": Zm9v}}`, []string{`data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters`}},
		{"configmap keys", &corev1.ConfigMap{}, `{data: {a: "1"}, binaryData: {a: Zm9v}}`, []string{`binaryData[a]: Invalid value: "a": duplicate of key present in data`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := yaml.UnmarshalStrict([]byte(c.yaml), c.obj); err != nil {
				t.Fatal(err)
			}
			errs := Core(c.obj)
			if len(errs) != len(c.want) {
				t.Fatalf("errors %v, want %d: %q", errs, len(c.want), c.want)
			}
			for i, e := range errs {
				if !strings.HasPrefix(e.Error(), c.want[i]) {
					t.Errorf("error %d: %q, want it to begin %q", i, e.Error(), c.want[i])
				}
			}
		})
	}
}
