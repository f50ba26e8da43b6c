package conformance

// hostnameTests: route and listener hostname intersection, listener
// hostname and port matching, and listener isolation
// (conformance/tests/httproute-hostname-intersection.go,
// httproute-listener-hostname-matching.go,
// httproute-listener-port-matching.go, gateway-http-listener-isolation.go).
func hostnameTests() []upstreamTest {
	intersection := []string{"tests/httproute-hostname-intersection.yaml"}
	isolation := []string{"tests/gateway-http-listener-isolation.yaml", "tests/gateway-http-listener-isolation-with-hostname-intersection.yaml"}
	return []upstreamTest{{
		name:      "HTTPRouteHostnameIntersection/HTTPRoutes that do intersect with listener hostnames",
		manifests: intersection,
		gateway:   infraNS + "/httproute-hostname-intersection",
		cases: []expect{
			{sub: 0, req: request{host: "very.specific.com", path: "/s1"}, backend: v1},
			{sub: 1, req: request{host: "very.specific.com:1234", path: "/s1"}, backend: v1},
			{sub: 2, req: request{host: "non.matching.com", path: "/s1"}, status: 404},
			{sub: 3, req: request{host: "foo.nonmatchingwildcard.io", path: "/s1"}, status: 404},
			{sub: 4, req: request{host: "foo.wildcard.io", path: "/s1"}, status: 404},
			{sub: 5, req: request{host: "very.specific.com", path: "/non-matching-prefix"}, status: 404},
			{sub: 6, req: request{host: "foo.wildcard.io", path: "/s2"}, backend: v2},
			{sub: 7, req: request{host: "bar.wildcard.io", path: "/s2"}, backend: v2},
			{sub: 8, req: request{host: "foo.bar.wildcard.io", path: "/s2"}, backend: v2},
			{sub: 9, req: request{host: "non.matching.com", path: "/s2"}, status: 404},
			{sub: 10, req: request{host: "wildcard.io", path: "/s2"}, status: 404},
			{sub: 11, req: request{host: "very.specific.com", path: "/s2"}, status: 404},
			{sub: 12, req: request{host: "foo.wildcard.io", path: "/non-matching-prefix"}, status: 404},
			{sub: 13, req: request{host: "very.specific.com", path: "/s3"}, backend: v3},
			{sub: 14, req: request{host: "non.matching.com", path: "/s3"}, status: 404},
			{sub: 15, req: request{host: "foo.specific.com", path: "/s3"}, status: 404},
			{sub: 16, req: request{host: "foo.wildcard.io", path: "/s3"}, status: 404},
			{sub: 17, req: request{host: "very.specific.com", path: "/non-matching-prefix"}, status: 404},
			{sub: 18, req: request{host: "foo.anotherwildcard.io", path: "/s4"}, backend: v1},
			{sub: 19, req: request{host: "bar.anotherwildcard.io", path: "/s4"}, backend: v1},
			{sub: 20, req: request{host: "foo.bar.anotherwildcard.io", path: "/s4"}, backend: v1},
			{sub: 21, req: request{host: "anotherwildcard.io", path: "/s4"}, status: 404},
			{sub: 22, req: request{host: "foo.wildcard.io", path: "/s4"}, status: 404},
			{sub: 23, req: request{host: "very.specific.com", path: "/s4"}, status: 404},
			{sub: 24, req: request{host: "foo.anotherwildcard.io", path: "/non-matching-prefix"}, status: 404},
		},
	}, {
		name:      "HTTPRouteHostnameIntersection/HTTPRoutes that do not intersect with listener hostnames",
		manifests: intersection,
		gateway:   infraNS + "/httproute-hostname-intersection",
		cases: []expect{
			{sub: 0, req: request{host: "specific.but.wrong.com", path: "/s5"}, status: 404},
			{sub: 1, req: request{host: "wildcard.io", path: "/s5"}, status: 404},
		},
	}, {
		name:      "HTTPRouteHostnameIntersection/HTTPRoutes intersects with an unspecified hostname listener",
		manifests: intersection,
		gateway:   infraNS + "/httproute-hostname-intersection-all",
		cases: []expect{
			{sub: 0, req: request{host: "first.com", path: "/"}, backend: v2},
			{sub: 1, req: request{host: "sub.first.com", path: "/"}, backend: v2},
			{sub: 2, req: request{host: "second.com", path: "/"}, backend: v2},
			{sub: 3, req: request{host: "sub.second.com", path: "/"}, backend: v2},
			{sub: 4, req: request{host: "third.com", path: "/"}, status: 404},
			{sub: 5, req: request{host: "sub.third.com", path: "/"}, status: 404},
		},
	}, {
		name:      "HTTPRouteListenerHostnameMatching",
		manifests: []string{"tests/httproute-listener-hostname-matching.yaml"},
		gateway:   infraNS + "/httproute-listener-hostname-matching",
		cases: []expect{
			{sub: 0, req: request{host: "bar.com", path: "/"}, backend: v1},
			{sub: 1, req: request{host: "foo.bar.com", path: "/"}, backend: v2},
			{sub: 2, req: request{host: "baz.bar.com", path: "/"}, backend: v3},
			{sub: 3, req: request{host: "boo.bar.com", path: "/"}, backend: v3},
			{sub: 4, req: request{host: "multiple.prefixes.bar.com", path: "/"}, backend: v3},
			{sub: 5, req: request{host: "multiple.prefixes.foo.com", path: "/"}, backend: v3},
			{sub: 6, req: request{host: "foo.com", path: "/"}, status: 404},
			{sub: 7, req: request{host: "no.matching.host", path: "/"}, status: 404},
		},
	}, {
		// The test sends each request to the gwAddr of the port in its Host.
		name:      "HTTPRouteListenerPortMatching",
		manifests: []string{"tests/httproute-listener-port-matching.yaml"},
		gateway:   infraNS + "/httproute-listener-port-matching",
		cases: []expect{
			{sub: 0, req: request{host: "foo.com", path: "/"}, backend: v1},
			{sub: 1, req: request{host: "foo.com:8080", path: "/", port: 8080}, backend: v2},
			{sub: 2, req: request{host: "bar.com:8080", path: "/", port: 8080}, backend: v2},
			{sub: 3, req: request{host: "foo.com:8090", path: "/", port: 8090}, backend: v3},
			{sub: 4, req: request{host: "bar.com:8090", path: "/", port: 8090}, status: 404},
		},
	}, {
		name:      "GatewayHTTPListenerIsolation/hostnames are configured only in listeners",
		manifests: isolation,
		gateway:   infraNS + "/http-listener-isolation",
		cases:     listenerIsolationCases(),
	}, {
		name:      "GatewayHTTPListenerIsolation/intersecting hostnames are configured in listeners and HTTPRoutes",
		manifests: isolation,
		gateway:   infraNS + "/http-listener-isolation-with-hostname-intersection",
		cases:     listenerIsolationCases(),
	}}
}

// listenerIsolationCases are the testCases that GatewayHTTPListenerIsolation
// runs against both of its Gateways.
func listenerIsolationCases() []expect {
	return []expect{
		{sub: 0, req: request{host: "bar.com", path: "/empty-hostname"}, backend: v1},
		{sub: 1, req: request{host: "bar.com", path: "/wildcard-example-com"}, status: 404},
		{sub: 2, req: request{host: "bar.com", path: "/wildcard-foo-example-com"}, status: 404},
		{sub: 3, req: request{host: "bar.com", path: "/abc-foo-example-com"}, status: 404},
		{sub: 4, req: request{host: "bar.example.com", path: "/empty-hostname"}, status: 404},
		{sub: 5, req: request{host: "bar.example.com", path: "/wildcard-example-com"}, backend: v1},
		{sub: 6, req: request{host: "bar.example.com", path: "/wildcard-foo-example-com"}, status: 404},
		{sub: 7, req: request{host: "bar.example.com", path: "/abc-foo-example-com"}, status: 404},
		{sub: 8, req: request{host: "bar.foo.example.com", path: "/empty-hostname"}, status: 404},
		{sub: 9, req: request{host: "bar.foo.example.com", path: "/wildcard-example-com"}, status: 404},
		{sub: 10, req: request{host: "bar.foo.example.com", path: "/wildcard-foo-example-com"}, backend: v1},
		{sub: 11, req: request{host: "bar.foo.example.com", path: "/abc-foo-example-com"}, status: 404},
		{sub: 12, req: request{host: "abc.foo.example.com", path: "/empty-hostname"}, status: 404},
		{sub: 13, req: request{host: "abc.foo.example.com", path: "/wildcard-example-com"}, status: 404},
		{sub: 14, req: request{host: "abc.foo.example.com", path: "/wildcard-foo-example-com"}, status: 404},
		{sub: 15, req: request{host: "abc.foo.example.com", path: "/abc-foo-example-com"}, backend: v1},
	}
}
