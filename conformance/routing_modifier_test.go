package conformance

// modifierTests: URLRewrite (path and host) and the request and response
// header modifiers (conformance/tests/httproute-rewrite-*.go,
// httproute-request-header-modifier.go,
// httproute-response-header-modifier.go).
func modifierTests() []upstreamTest {
	// Both rewrite tests combine a rewrite with this header modifier.
	modifyReq := hs{"X-Header-Remove": "remove-val", "X-Header-Add-Append": "append-val-1", "X-Header-Set": "set-val"}
	modified := hs{"X-Header-Add": "header-val-1", "X-Header-Add-Append": "append-val-1,header-val-2", "X-Header-Set": "set-overwrites-values"}
	removed := []string{"X-Header-Remove"}
	return []upstreamTest{{
		name:      "HTTPRouteRewritePath",
		manifests: []string{"tests/httproute-rewrite-path.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{path: "/prefix/one/two"}, forwarded: &forwarded{path: "/one/two"}, backend: v1},
			{sub: 1, req: request{path: "/strip-prefix/three"}, forwarded: &forwarded{path: "/three"}, backend: v1},
			{sub: 2, req: request{path: "/strip-prefix"}, forwarded: &forwarded{path: "/"}, backend: v1},
			{sub: 3, req: request{path: "/full/one/two"}, forwarded: &forwarded{path: "/one"}, backend: v1},
			{sub: 4, req: request{path: "/full/rewrite-path-and-modify-headers/test", headers: modifyReq},
				forwarded: &forwarded{path: "/test", headers: headers{set: modified, absent: removed}}, backend: v1},
			{sub: 5, req: request{path: "/prefix/rewrite-path-and-modify-headers/one", headers: modifyReq},
				forwarded: &forwarded{path: "/prefix/one", headers: headers{set: modified, absent: removed}}, backend: v1},
		},
	}, {
		name:      "HTTPRouteRewriteHost",
		manifests: []string{"tests/httproute-rewrite-host.yaml"},
		gateway:   sameNSGW,
		cases: []expect{
			{sub: 0, req: request{host: "rewrite.example", path: "/one"}, forwarded: &forwarded{path: "/one", host: "one.example.org"}, backend: v1},
			{sub: 1, req: request{host: "rewrite.example", path: "/two"}, forwarded: &forwarded{path: "/two", host: "example.org"}, backend: v2},
			{sub: 2, req: request{host: "rewrite.example", path: "/rewrite-host-and-modify-headers", headers: hs{"X-Header-Remove": "remove-val", "X-Header-Add-Append": "append-val-1"}},
				forwarded: &forwarded{path: "/rewrite-host-and-modify-headers", host: "test.example.org", headers: headers{set: modified, absent: removed}}, backend: v2},
		},
	}, {
		name:      "HTTPRouteRequestHeaderModifier",
		manifests: []string{"tests/httproute-request-header-modifier.yaml"},
		gateway:   sameNSGW,
		cases:     requestHeaderModifierCases(),
	}, {
		// The same testCases, with the filters on the backendRefs.
		name:      "HTTPRouteBackendRequestHeaderModifier",
		manifests: []string{"tests/httproute-request-header-modifier-backend.yaml"},
		gateway:   sameNSGW,
		cases:     requestHeaderModifierCases(),
	}, {
		name:      "HTTPRouteResponseHeaderModifier",
		manifests: []string{"tests/httproute-response-header-modifier.yaml"},
		gateway:   sameNSGW,
		cases:     responseHeaderModifierCases(),
	}}
}

// requestHeaderModifierCases are HTTPRouteRequestHeaderModifier's
// testCases, which HTTPRouteBackendRequestHeaderModifier runs too.
func requestHeaderModifierCases() []expect {
	return []expect{
		{sub: 0, req: request{path: "/set", headers: hs{"Some-Other-Header": "val"}},
			forwarded: &forwarded{path: "/set", headers: headers{set: hs{"Some-Other-Header": "val", "X-Header-Set": "set-overwrites-values"}}}, backend: v1},
		{sub: 1, req: request{path: "/set", headers: hs{"Some-Other-Header": "val", "X-Header-Set": "some-other-value"}},
			forwarded: &forwarded{path: "/set", headers: headers{set: hs{"Some-Other-Header": "val", "X-Header-Set": "set-overwrites-values"}}}, backend: v1},
		{sub: 2, req: request{path: "/add", headers: hs{"Some-Other-Header": "val"}},
			forwarded: &forwarded{path: "/add", headers: headers{set: hs{"Some-Other-Header": "val", "X-Header-Add": "add-appends-values"}}}, backend: v1},
		{sub: 3, req: request{path: "/add", headers: hs{"Some-Other-Header": "val", "X-Header-Add": "some-other-value"}},
			forwarded: &forwarded{path: "/add", headers: headers{set: hs{"Some-Other-Header": "val", "X-Header-Add": "some-other-value,add-appends-values"}}}, backend: v1},
		{sub: 4, req: request{path: "/remove", headers: hs{"X-Header-Remove": "val"}},
			forwarded: &forwarded{path: "/remove", headers: headers{absent: []string{"X-Header-Remove"}}}, backend: v1},
		{sub: 5, req: request{path: "/multiple", headers: hs{"X-Header-Set-2": "set-val-2", "X-Header-Add-2": "add-val-2", "X-Header-Remove-2": "remove-val-2", "Another-Header": "another-header-val"}},
			forwarded: &forwarded{path: "/multiple", headers: headers{
				set: hs{
					"X-Header-Set-1": "header-set-1", "X-Header-Set-2": "header-set-2",
					"X-Header-Add-1": "header-add-1", "X-Header-Add-2": "add-val-2,header-add-2", "X-Header-Add-3": "header-add-3",
					"Another-Header": "another-header-val",
				},
				absent: []string{"X-Header-Remove-1", "X-Header-Remove-2"},
			}}, backend: v1},
		{sub: 6, req: request{path: "/case-insensitivity", headers: hs{"x-header-set": "original-val-set", "x-header-add": "original-val-add", "x-header-remove": "original-val-remove", "Another-Header": "another-header-val"}},
			forwarded: &forwarded{path: "/case-insensitivity", headers: headers{
				set:    hs{"X-Header-Set": "header-set", "X-Header-Add": "original-val-add,header-add", "Another-Header": "another-header-val"},
				absent: []string{"x-header-remove", "X-Header-Remove"},
			}}, backend: v1},
	}
}

// responseHeaderModifierCases are HTTPRouteResponseHeaderModifier's
// testCases: the echo backend sets backendSets on its response, and the
// client must see response.
func responseHeaderModifierCases() []expect {
	return []expect{
		{sub: 0, req: request{path: "/set"}, backendSets: hs{"Some-Other-Header": "val"},
			response: &headers{set: hs{"Some-Other-Header": "val", "X-Header-Set": "set-overwrites-values"}}, backend: v1},
		{sub: 1, req: request{path: "/set"}, backendSets: hs{"Some-Other-Header": "val", "X-Header-Set": "some-other-value"},
			response: &headers{set: hs{"Some-Other-Header": "val", "X-Header-Set": "set-overwrites-values"}}, backend: v1},
		{sub: 2, req: request{path: "/add"}, backendSets: hs{"Some-Other-Header": "val"},
			response: &headers{set: hs{"Some-Other-Header": "val", "X-Header-Add": "add-appends-values"}}, backend: v1},
		{sub: 3, req: request{path: "/add"}, backendSets: hs{"Some-Other-Header": "val", "X-Header-Add": "some-other-value"},
			response: &headers{set: hs{"Some-Other-Header": "val", "X-Header-Add": "some-other-value,add-appends-values"}}, backend: v1},
		{sub: 4, req: request{path: "/remove"}, backendSets: hs{"X-Header-Remove": "val"},
			response: &headers{absent: []string{"X-Header-Remove"}}, backend: v1},
		{sub: 5, req: request{path: "/multiple"},
			backendSets: hs{"X-Header-Set-2": "set-val-2", "X-Header-Add-2": "add-val-2", "X-Header-Remove-2": "remove-val-2", "Another-Header": "another-header-val", "X-Header-Remove-1": "val"},
			response: &headers{
				set: hs{
					"X-Header-Set-1": "header-set-1", "X-Header-Set-2": "header-set-2",
					"X-Header-Add-1": "header-add-1", "X-Header-Add-2": "add-val-2,header-add-2", "X-Header-Add-3": "header-add-3",
					"Another-Header": "another-header-val",
				},
				absent: []string{"X-Header-Remove-1", "X-Header-Remove-2"},
			}, backend: v1},
		{sub: 6, req: request{path: "/case-insensitivity"},
			backendSets: hs{"x-header-set": "original-val-set", "x-header-add": "original-val-add", "x-header-remove": "original-val-remove", "Another-Header": "another-header-val"},
			response: &headers{
				set: hs{
					"X-Header-Set": "header-set", "X-Header-Add": "original-val-add,header-add",
					"X-Lowercase-Add": "lowercase-add", "X-Mixedcase-Add-1": "mixedcase-add-1", "X-Mixedcase-Add-2": "mixedcase-add-2",
					"X-Uppercase-Add": "uppercase-add", "Another-Header": "another-header-val",
				},
				absent: []string{"x-header-remove", "X-Header-Remove"},
			}, backend: v1},
		{sub: 7, req: request{path: "/response-and-request-header-modifiers", headers: hs{"X-Header-Remove": "remove-val", "X-Header-Add-Append": "append-val-1", "X-Header-Echo": "echo"}},
			backendSets: hs{"X-Header-Set-2": "set-val-2", "X-Header-Add-2": "add-val-2", "X-Header-Remove-2": "remove-val-2", "Another-Header": "another-header-val", "X-Header-Remove-1": "remove-val-1", "X-Header-Echo": "echo"},
			forwarded: &forwarded{path: "/response-and-request-header-modifiers", headers: headers{
				set:    hs{"X-Header-Add": "header-val-1", "X-Header-Set": "set-overwrites-values", "X-Header-Add-Append": "append-val-1,header-val-2", "X-Header-Echo": "echo"},
				absent: []string{"X-Header-Remove"},
			}},
			response: &headers{
				set: hs{
					"X-Header-Set-1": "header-set-1", "X-Header-Set-2": "header-set-2",
					"X-Header-Add-1": "header-add-1", "X-Header-Add-2": "add-val-2,header-add-2",
					"Another-Header": "another-header-val", "X-Header-Echo": "echo",
				},
				absent: []string{"X-Header-Remove-1", "X-Header-Remove-2"},
			}, backend: v1},
	}
}
