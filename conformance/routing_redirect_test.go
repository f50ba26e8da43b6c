package conformance

// redirectTests: RequestRedirect's hostname, status, path, port and scheme
// (conformance/tests/httproute-redirect-*.go, httproute-30x-redirect.go).
func redirectTests() []upstreamTest {
	portAndScheme := []string{"tests/httproute-redirect-port-and-scheme.yaml"}
	return []upstreamTest{{
		name:      "HTTPRouteRedirectHostAndStatus",
		manifests: []string{"tests/httproute-redirect-host-and-status.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/hostname-redirect"}, status: 302, redirect: &redirect{host: "example.org"}},
			{sub: 1, req: request{path: "/host-and-status"}, status: 301, redirect: &redirect{host: "example.org"}},
		},
	}, {
		name:      "HTTPRouteRedirectPath",
		manifests: []string{"tests/httproute-redirect-path.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/original-prefix/lemon"}, status: 302, redirect: &redirect{path: "/replacement-prefix/lemon"}},
			{sub: 1, req: request{path: "/full/path/original"}, status: 302, redirect: &redirect{path: "/full-path-replacement"}},
			{sub: 2, req: request{path: "/path-and-host"}, status: 302, redirect: &redirect{host: "example.org", path: "/replacement-prefix"}},
			{sub: 3, req: request{path: "/path-and-status"}, status: 301, redirect: &redirect{path: "/replacement-prefix"}},
			{sub: 4, req: request{path: "/full-path-and-host"}, status: 302, redirect: &redirect{host: "example.org", path: "/replacement-full"}},
			{sub: 5, req: request{path: "/full-path-and-status"}, status: 301, redirect: &redirect{path: "/replacement-full"}},
		},
	}, {
		name:      "HTTPRouteRedirectPort",
		manifests: []string{"tests/httproute-redirect-port.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/port"}, status: 302, redirect: &redirect{port: "8083"}},
			{sub: 1, req: request{path: "/port-and-host"}, status: 302, redirect: &redirect{host: "example.org", port: "8083"}},
			{sub: 2, req: request{path: "/port-and-status"}, status: 301, redirect: &redirect{port: "8083"}},
			{sub: 3, req: request{path: "/port-and-host-and-status"}, status: 302, redirect: &redirect{host: "example.org", port: "8083"}},
		},
	}, {
		name:      "HTTPRouteRedirectScheme",
		manifests: []string{"tests/httproute-redirect-scheme.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/scheme"}, status: 302, redirect: &redirect{scheme: "https"}},
			{sub: 1, req: request{path: "/scheme-and-host"}, status: 302, redirect: &redirect{scheme: "https", host: "example.org"}},
			{sub: 2, req: request{path: "/scheme-and-status"}, status: 301, redirect: &redirect{scheme: "https"}},
			{sub: 3, req: request{path: "/scheme-and-host-and-status"}, status: 302, redirect: &redirect{scheme: "https", host: "example.org"}},
		},
	}, {
		name:      "HTTPRouteRedirectPortAndScheme/http-listener-on-80",
		manifests: portAndScheme,
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/scheme-nil-and-port-nil"}, status: 302, redirect: &redirect{scheme: "http", host: "example.org"}},
			{sub: 1, req: request{path: "/scheme-nil-and-port-80"}, status: 302, redirect: &redirect{scheme: "http", host: "example.org"}},
			{sub: 2, req: request{path: "/scheme-nil-and-port-8080"}, status: 302, redirect: &redirect{scheme: "http", port: "8080", host: "example.org"}},
			{sub: 3, req: request{path: "/scheme-https-and-port-nil"}, status: 302, redirect: &redirect{scheme: "https", host: "example.org"}},
			{sub: 4, req: request{path: "/scheme-https-and-port-443"}, status: 302, redirect: &redirect{scheme: "https", host: "example.org"}},
			{sub: 5, req: request{path: "/scheme-https-and-port-8443"}, status: 302, redirect: &redirect{scheme: "https", port: "8443", host: "example.org"}},
		},
	}, {
		name:      "HTTPRouteRedirectPortAndScheme/http-listener-on-8080",
		manifests: portAndScheme,
		gateway:   infraNS + "/same-namespace-with-http-listener-on-8080",
		port:      8080,
		cases: []expect{
			{sub: 0, req: request{path: "/scheme-nil-and-port-nil"}, status: 302, redirect: &redirect{scheme: "http", port: "8080", host: "example.org"}},
			{sub: 1, req: request{path: "/scheme-nil-and-port-80"}, status: 302, redirect: &redirect{scheme: "http", host: "example.org"}},
			{sub: 2, req: request{path: "/scheme-https-and-port-nil"}, status: 302, redirect: &redirect{scheme: "https", host: "example.org"}},
		},
	}, {
		// Sent over TLS with SNI example.org to the 443 listener.
		name:      "HTTPRouteRedirectPortAndScheme/https-listener-on-443",
		manifests: portAndScheme,
		gateway:   infraNS + "/same-namespace-with-https-listener",
		port:      443,
		scheme:    "https",
		cases: []expect{
			{sub: 0, req: request{host: "example.org", path: "/scheme-nil-and-port-nil"}, status: 302, redirect: &redirect{scheme: "https", host: "example.org"}},
			{sub: 1, req: request{host: "example.org", path: "/scheme-nil-and-port-443"}, status: 302, redirect: &redirect{scheme: "https", host: "example.org"}},
			{sub: 2, req: request{host: "example.org", path: "/scheme-nil-and-port-8443"}, status: 302, redirect: &redirect{scheme: "https", port: "8443", host: "example.org"}},
			{sub: 3, req: request{host: "example.org", path: "/scheme-http-and-port-nil"}, status: 302, redirect: &redirect{scheme: "http", host: "example.org"}},
			{sub: 4, req: request{host: "example.org", path: "/scheme-http-and-port-80"}, status: 302, redirect: &redirect{scheme: "http", host: "example.org"}},
			{sub: 5, req: request{host: "example.org", path: "/scheme-http-and-port-8080"}, status: 302, redirect: &redirect{scheme: "http", port: "8080", host: "example.org"}},
		},
	}, {
		name:      "HTTPRoute303Redirect",
		manifests: []string{"tests/httproute-303-redirect.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{method: "POST", path: "/see-other"}, status: 303, redirect: &redirect{path: "/see-other"}},
		},
	}, {
		name:      "HTTPRoute307Redirect",
		manifests: []string{"tests/httproute-307-redirect.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/temporary"}, status: 307, redirect: &redirect{path: "/temporary"}},
		},
	}, {
		name:      "HTTPRoute308Redirect",
		manifests: []string{"tests/httproute-308-redirect.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/permanent"}, status: 308, redirect: &redirect{path: "/permanent"}},
		},
	}}
}
