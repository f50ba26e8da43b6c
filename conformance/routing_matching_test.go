package conformance

// hs is a header map as the upstream tests write them.
type hs = map[string]string

// upstreamTests lists every transcribed upstream test, in the order of the
// files that hold them.
func upstreamTests() []upstreamTest {
	var all []upstreamTest
	all = append(all, matchingTests()...)
	all = append(all, hostnameTests()...)
	all = append(all, redirectTests()...)
	all = append(all, modifierTests()...)
	all = append(all, backendTests()...)
	return all
}

// matchingTests: path, header, query parameter and method matching and
// their precedence (conformance/tests/httproute-*matching*.go,
// httproute-path-match-order.go, httproute-simple-same-namespace.go).
func matchingTests() []upstreamTest {
	return []upstreamTest{{
		name:      "HTTPRouteSimpleSameNamespace/Simple HTTP request should reach infra-backend",
		manifests: []string{"tests/httproute-simple-same-namespace.yaml"},
		gateway:   sameNSGW,
		cases:     []expect{{sub: 0, req: request{path: "/"}, backend: v1}},
	}, {
		name:      "HTTPRouteMatching",
		manifests: []string{"tests/httproute-matching.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/"}, backend: v1},
			{sub: 1, req: request{path: "/example"}, backend: v1},
			{sub: 2, req: request{path: "/", headers: hs{"Version": "one"}}, backend: v1},
			{sub: 3, req: request{path: "/v2"}, backend: v2},
			{sub: 4, req: request{path: "/v2/example"}, backend: v2},
			{sub: 5, req: request{path: "/", headers: hs{"Version": "two"}}, backend: v2},
			{sub: 6, req: request{path: "/v2/"}, backend: v2},
			{sub: 7, req: request{path: "/v2example"}, backend: v1},
			{sub: 8, req: request{path: "/foo/v2/example"}, backend: v1},
		},
	}, {
		name:      "HTTPRouteMatchingAcrossRoutes",
		manifests: []string{"tests/httproute-matching-across-routes.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{host: "example.com", path: "/"}, backend: v1},
			{sub: 1, req: request{host: "example.com", path: "/example"}, backend: v1},
			{sub: 2, req: request{host: "example.net", path: "/example"}, backend: v1},
			{sub: 3, req: request{host: "example.com", path: "/example", headers: hs{"Version": "one"}}, backend: v1},
			{sub: 4, req: request{host: "example.com", path: "/v2"}, backend: v2},
			{sub: 5, req: request{host: "example.net", path: "/v2"}, backend: v1},
			{sub: 6, req: request{host: "example.com", path: "/v2/example"}, backend: v2},
			{sub: 7, req: request{host: "example.com", path: "/", headers: hs{"Version": "two"}}, backend: v2},
		},
	}, {
		name:      "HTTPRouteExactPathMatching",
		manifests: []string{"tests/httproute-exact-path-matching.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/one"}, backend: v1},
			{sub: 1, req: request{path: "/two"}, backend: v2},
			{sub: 2, req: request{path: "/"}, status: 404},
			{sub: 3, req: request{path: "/one/example"}, status: 404},
			{sub: 4, req: request{path: "/two/"}, status: 404},
			{sub: 5, req: request{path: "/Two"}, status: 404},
		},
	}, {
		name:      "HTTPRouteHeaderMatching",
		manifests: []string{"tests/httproute-header-matching.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/", headers: hs{"Version": "one"}}, backend: v1},
			{sub: 1, req: request{path: "/", headers: hs{"Version": "two"}}, backend: v2},
			{sub: 2, req: request{path: "/", headers: hs{"Version": "two", "Color": "orange"}}, backend: v1},
			{sub: 3, req: request{path: "/", headers: hs{"Version": "two", "Color": "blue"}}, backend: v2},
			{sub: 4, req: request{path: "/", headers: hs{"Color": "orange"}}, status: 404},
			{sub: 5, req: request{path: "/", headers: hs{"Some-Other-Header": "one"}}, status: 404},
			{sub: 6, req: request{path: "/", headers: hs{"Color": "blue"}}, backend: v1},
			{sub: 7, req: request{path: "/", headers: hs{"Color": "green"}}, backend: v1},
			{sub: 8, req: request{path: "/", headers: hs{"Color": "red"}}, backend: v2},
			{sub: 9, req: request{path: "/", headers: hs{"Color": "yellow"}}, backend: v2},
			{sub: 10, req: request{path: "/", headers: hs{"Color": "purple"}}, status: 404},
		},
	}, {
		name:      "HTTPRouteQueryParamMatching",
		manifests: []string{"tests/httproute-query-param-matching.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/?animal=whale"}, backend: v1},
			{sub: 1, req: request{path: "/?animal=dolphin"}, backend: v2},
			{sub: 2, req: request{path: "/?animal=dolphin&color=blue"}, backend: v3},
			{sub: 3, req: request{path: "/?ANIMAL=Whale"}, backend: v3},
			{sub: 4, req: request{path: "/?animal=whale&otherparam=irrelevant"}, backend: v1},
			{sub: 5, req: request{path: "/?animal=dolphin&color=yellow"}, backend: v2},
			{sub: 6, req: request{path: "/?color=blue"}, status: 404},
			{sub: 7, req: request{path: "/?animal=dog"}, status: 404},
			{sub: 8, req: request{path: "/?animal=whaledolphin"}, status: 404},
			{sub: 9, req: request{path: "/"}, status: 404},
			{sub: 10, req: request{path: "/path1?animal=whale"}, backend: v1},
			{sub: 11, req: request{path: "/?animal=whale", headers: hs{"version": "one"}}, backend: v2},
			{sub: 12, req: request{path: "/path2?animal=whale", headers: hs{"version": "two"}}, backend: v3},
			{sub: 13, req: request{path: "/path3?animal=shark"}, backend: v1},
			{sub: 14, req: request{path: "/path4?animal=kraken", headers: hs{"version": "three"}}, backend: v1},
			{sub: 15, req: request{path: "/?animal=shark"}, status: 404},
			{sub: 16, req: request{path: "/path4?animal=kraken"}, status: 404},
			{sub: 17, req: request{path: "/path5?animal=hydra"}, backend: v1},
			{sub: 18, req: request{path: "/?animal=hydra", headers: hs{"version": "four"}}, backend: v3},
		},
	}, {
		name:      "HTTPRouteMethodMatching",
		manifests: []string{"tests/httproute-method-matching.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{method: "POST", path: "/"}, backend: v1},
			{sub: 1, req: request{method: "GET", path: "/"}, backend: v2},
			{sub: 2, req: request{method: "HEAD", path: "/"}, status: 404},
			{sub: 3, req: request{method: "GET", path: "/path1"}, backend: v1},
			{sub: 4, req: request{method: "PUT", path: "/", headers: hs{"version": "one"}}, backend: v2},
			{sub: 5, req: request{method: "POST", path: "/path2", headers: hs{"version": "two"}}, backend: v3},
			{sub: 6, req: request{method: "PATCH", path: "/path3"}, backend: v1},
			{sub: 7, req: request{method: "DELETE", path: "/path4", headers: hs{"version": "three"}}, backend: v1},
			{sub: 8, req: request{method: "PUT", path: "/"}, status: 404},
			{sub: 9, req: request{method: "DELETE", path: "/path4"}, status: 404},
			{sub: 10, req: request{method: "PATCH", path: "/path5"}, backend: v1},
			{sub: 11, req: request{method: "PATCH", path: "/", headers: hs{"version": "four"}}, backend: v2},
		},
	}, {
		name:      "HTTPRoutePathMatchOrder",
		manifests: []string{"tests/httproute-path-match-order.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/match/exact/one"}, backend: v3},
			{sub: 1, req: request{path: "/match/exact"}, backend: v2},
			{sub: 2, req: request{path: "/match"}, backend: v1},
			{sub: 3, req: request{path: "/match/prefix/one/any"}, backend: v2},
			{sub: 4, req: request{path: "/match/prefix/any"}, backend: v1},
			{sub: 5, req: request{path: "/match/any"}, backend: v3},
		},
	}}
}
