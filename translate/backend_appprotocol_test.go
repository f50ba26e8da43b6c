package translate

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestUnsupportedAppProtocol(t *testing.T) {
	tests := []struct {
		proto      string
		kind       gwv1.Kind
		backendTLS bool
		supported  bool
	}{
		{"", "HTTPRoute", false, true},
		{"http", "HTTPRoute", false, true},
		{"HTTPS", "HTTPRoute", false, true},
		{"grpc", "GRPCRoute", false, true},
		{appProtocolH2C, "HTTPRoute", false, true},
		{appProtocolH2C, "GRPCRoute", false, true},
		{appProtocolH2C, "TCPRoute", false, true},
		{appProtocolWS, "HTTPRoute", false, true},
		{appProtocolWS, "GRPCRoute", false, false},
		{appProtocolWSS, "GRPCRoute", true, false},
		{appProtocolWSS, "HTTPRoute", false, false},
		{appProtocolWSS, "HTTPRoute", true, true},
		{appProtocolWSS, "TLSRoute", false, true},
		{"kubernetes.io/h3", "HTTPRoute", false, false},
		{"example.com/custom", "HTTPRoute", false, false},
		{"example.com/custom", "TCPRoute", false, false},
	}
	for _, tt := range tests {
		msg := unsupportedAppProtocol(tt.proto, tt.kind, tt.backendTLS)
		if got := msg == ""; got != tt.supported {
			t.Errorf("unsupportedAppProtocol(%q, %s, tls=%v) = %q, want supported=%v", tt.proto, tt.kind, tt.backendTLS, msg, tt.supported)
		}
	}
}
