package conformance

// backendTests: which backend a route reaches across namespaces, and the
// 500 that invalid backendRefs answer (conformance/tests/
// httproute-cross-namespace.go, httproute-reference-grant.go,
// httproute-invalid-*.go, httproute-partially-invalid-via-invalid-reference-grant.go).
func backendTests() []upstreamTest {
	return []upstreamTest{{
		name:      "HTTPRouteCrossNamespace/Simple HTTP request should reach web-backend",
		manifests: []string{"tests/httproute-cross-namespace.yaml"},
		gateway:   infraNS + "/backend-namespaces",
		cases:     []expect{{sub: 0, req: request{path: "/"}, backend: "web-backend", namespace: webNS}},
	}, {
		name:      "HTTPRouteReferenceGrant/Simple HTTP request should reach web-backend",
		manifests: []string{"tests/httproute-reference-grant.yaml"},
		gateway:   sameNSGW,
		cases:     []expect{{sub: 0, req: request{method: "GET", path: "/"}, backend: "web-backend", namespace: webNS}},
	}, {
		name:      "HTTPRouteReferenceGrant/Simple HTTP request should return 500 after deleting the relevant reference grant",
		manifests: []string{"tests/httproute-reference-grant.yaml"},
		without:   []string{"ReferenceGrant " + webNS + "/reference-grant"},
		gateway:   sameNSGW,
		cases:     []expect{{sub: 0, req: request{method: "GET", path: "/"}, status: 500}},
	}, {
		name:      "HTTPRouteInvalidNonExistentBackendRef/HTTP Request to invalid nonexistent backend receive a 500",
		manifests: []string{"tests/httproute-invalid-nonexistent-backendref.yaml"},
		gateway:   sameNSGW,
		cases:     []expect{{sub: 0, req: request{method: "GET", path: "/"}, status: 500}},
	}, {
		name:      "HTTPRouteInvalidCrossNamespaceBackendRef/HTTP Request to invalid cross-namespace backend must receive a 500",
		manifests: []string{"tests/httproute-invalid-cross-namespace-backend-ref.yaml"},
		gateway:   sameNSGW,
		cases:     []expect{{sub: 0, req: request{method: "GET", path: "/"}, status: 500}},
	}, {
		name:      "HTTPRouteInvalidBackendRefUnknownKind/HTTP Request to invalid backend with invalid Kind receives a 500",
		manifests: []string{"tests/httproute-invalid-backendref-unknown-kind.yaml"},
		gateway:   sameNSGW,
		cases:     []expect{{sub: 0, req: request{method: "GET", path: "/v2"}, status: 500}},
	}, {
		name:      "HTTPRouteInvalidReferenceGrant/Simple HTTP request not should reach web-backend",
		manifests: []string{"tests/httproute-invalid-reference-grant.yaml"},
		gateway:   sameNSGW,
		cases:     []expect{{sub: 0, req: request{method: "GET", path: "/"}, status: 500, backend: "web-backend", namespace: webNS}},
	}, {
		name:      "HTTPRoutePartiallyInvalidViaInvalidReferenceGrant",
		manifests: []string{"tests/httproute-partially-invalid-via-invalid-reference-grant.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			// "HTTP Request to invalid backend with missing referenceGrant should receive a 500"
			{sub: 0, req: request{method: "GET", path: "/v2"}, status: 500},
			// "HTTP Request to valid sibling backend should succeed"
			{sub: 1, req: request{method: "GET", path: "/"}, backend: "app-backend-v1", namespace: appNS},
		},
	}}
}
