package egmeasure

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// Fixtures returns the objects EG's translator test adds to every case
// (translator_test.go, TestTranslate), as facts of that test:
//   - the Secrets of testdata/base/base.yaml (base);
//   - Services default/service-1 … service-4 (ClusterIP 1.1.1.1; TCP ports
//     http 8080, https 8443, tcp 8163 and UDP port udp 8162), each with an
//     EndpointSlice of one ready endpoint, 7.7.7.7;
//   - default/mirror-service (2.2.2.2, http 8080; endpoint 7.6.5.4);
//   - monitoring/otel-collector (3.3.3.3; grpc 4317 with appProtocol grpc,
//     zipkin 9411; endpoint 8.7.6.5);
//   - the Namespaces envoy-gateway and default, without labels.
//
// The test also adds the Service of each Gateway's Envoy deployment in
// envoy-gateway-system; that Service feeds EG's infrastructure and the
// Gateway's addresses, which the measure does not compare, so it is left
// out. The test appends its fixtures after the case's objects and EG keeps
// the last object of a name, so a fixture replaces a case's object of the
// same identity (see Input.Manifests).
func Fixtures(base []byte) ([]map[string]any, error) {
	var b struct {
		Secrets []map[string]any `json:"secrets"`
	}
	if err := yaml.Unmarshal(base, &b); err != nil {
		return nil, fmt.Errorf("base.yaml: %w", err)
	}
	out := append([]map[string]any{}, b.Secrets...)
	for i := 1; i <= 4; i++ {
		name := fmt.Sprintf("service-%d", i)
		out = append(out,
			service("default", name, "1.1.1.1",
				port{"http", 8080, "TCP", ""}, port{"https", 8443, "TCP", ""},
				port{"tcp", 8163, "TCP", ""}, port{"udp", 8162, "UDP", ""}),
			endpointSlice("default", fmt.Sprintf("endpointslice-%d", i), name, "7.7.7.7",
				port{"http", 8080, "TCP", ""}, port{"https", 8443, "TCP", ""},
				port{"tcp", 8163, "TCP", ""}, port{"udp", 8162, "UDP", ""}))
	}
	out = append(out,
		service("default", "mirror-service", "2.2.2.2", port{"http", 8080, "TCP", ""}),
		endpointSlice("default", "mirror-service-endpointslice", "mirror-service", "7.6.5.4", port{"http", 8080, "TCP", ""}),
		service("monitoring", "otel-collector", "3.3.3.3", port{"grpc", 4317, "TCP", "grpc"}, port{"zipkin", 9411, "TCP", ""}),
		endpointSlice("monitoring", "otel-collector-endpointslice", "otel-collector", "8.7.6.5",
			port{"grpc", 4317, "TCP", ""}, port{"zipkin", 9411, "TCP", ""}),
		namespace("envoy-gateway"),
		namespace("default"),
	)
	return out, nil
}

type port struct {
	name        string
	number      int
	protocol    string
	appProtocol string
}

func service(ns, name, clusterIP string, ports ...port) map[string]any {
	var ps []any
	for _, p := range ports {
		sp := map[string]any{"name": p.name, "port": p.number, "targetPort": p.number, "protocol": p.protocol}
		if p.appProtocol != "" {
			sp["appProtocol"] = p.appProtocol
		}
		ps = append(ps, sp)
	}
	return map[string]any{
		"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"namespace": ns, "name": name},
		"spec":     map[string]any{"clusterIP": clusterIP, "ports": ps},
	}
}

func endpointSlice(ns, name, svc, addr string, ports ...port) map[string]any {
	var ps []any
	for _, p := range ports {
		ps = append(ps, map[string]any{"name": p.name, "port": p.number, "protocol": p.protocol})
	}
	return map[string]any{
		"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
		"metadata": map[string]any{
			"namespace": ns, "name": name,
			"labels": map[string]any{"kubernetes.io/service-name": svc},
		},
		"addressType": "IPv4",
		"ports":       ps,
		"endpoints": []any{map[string]any{
			"addresses":  []any{addr},
			"conditions": map[string]any{"ready": true},
		}},
	}
}

func namespace(name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}
}
