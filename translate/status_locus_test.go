package translate

import "testing"

func TestConditionLocus(t *testing.T) {
	tests := []struct{ at, msg, want string }{
		// A route parent's condition names the backendRef first.
		{"spec.parentRefs[0]", "spec.rules[0].backendRefs[1]: Service default/ghost does not exist; spec.rules[1].backendRefs[0]: Service default/search does not exist", "spec.rules[0].backendRefs[1]"},
		{"spec.parentRefs[1]", "listener selected does not select namespace dev (selector env=prod)", "spec.parentRefs[1]"},
		// A listener's message is relative to the listener.
		{"spec.listeners[2]", "tls.certificateRefs[0]: Secret infra/missing-cert does not exist", "spec.listeners[2].tls.certificateRefs[0]"},
		{"spec.listeners[0]", "spec.tls.frontend.perPort[4].tls.validation.caCertificateRefs[0]: ConfigMap infra/missing-ca does not exist", "spec.tls.frontend.perPort[4].tls.validation.caCertificateRefs[0]"},
		// A dropped rule's reason in parentheses.
		{"spec.parentRefs[0]", "Dropped Rule(s): rule 1 (spec.rules[1].filters: RequestRedirect and URLRewrite filters may not be combined)", "spec.rules[1].filters"},
		{"", "no CA certificate reference is valid (spec.validation.caCertificateRefs[0]: ConfigMap app/x does not exist)", "spec.validation.caCertificateRefs[0]"},
		// A path the message starts with, or gives after a colon.
		{"", "spec.parametersRef names ConfigMap infra/nowhere, which does not exist", "spec.parametersRef"},
		{"", "address type not supported (gwsim supports IPAddress and Hostname): spec.addresses[0] (x)", "spec.addresses[0]"},
		{"", "address value is not valid for its type: spec.addresses[1]", "spec.addresses[1]"},
		// Text that is no path stays at the entry, and so does a path in
		// parentheses with no colon after it (another object's field).
		{"spec.listeners[1]", "protocol \"example.com/custom\" is not supported; use HTTP: or HTTPS", "spec.listeners[1]"},
		{"spec.parentRef", "Gateway infra/edge does not select namespace team-b (spec.allowedListeners.namespaces.selector gateway-access=true)", "spec.parentRef"},
		{"", "see spec.rules for more", ""},
		{"spec.parentRefs[0]", "Hostname: (spec.rules x", "spec.parentRefs[0]"},
	}
	for _, tt := range tests {
		if got := conditionLocus(tt.at, tt.msg); got != tt.want {
			t.Errorf("conditionLocus(%q, %q) = %q, want %q", tt.at, tt.msg, got, tt.want)
		}
	}
}
