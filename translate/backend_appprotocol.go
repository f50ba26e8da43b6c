package translate

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The Kubernetes standard application protocols (KEP-3726) that GEP-1911
// requires Gateway implementations to recognize.
const (
	appProtocolH2C = "kubernetes.io/h2c"
	appProtocolWS  = "kubernetes.io/ws"
	appProtocolWSS = "kubernetes.io/wss"
)

// unsupportedAppProtocol says why a route of kind cannot send traffic to a
// Service port with appProtocol proto, or "" when it can; the backend is
// then invalid with ResolvedRefs=False/UnsupportedProtocol (GEP-1911,
// "Supporting Protocols"). hasBackendTLS says whether a BackendTLSPolicy
// applies to the port. The rules:
//
//   - unset, or an IANA service name (no "/", such as http, https or grpc):
//     supported; gwsim passes the value through to the IR and infers
//     nothing from it;
//   - kubernetes.io/h2c: supported for every kind (HTTP/2 in cleartext
//     carries HTTP and gRPC; TCP and TLS routes forward bytes);
//   - kubernetes.io/ws and kubernetes.io/wss: not for GRPCRoute, whose
//     requests need HTTP/2; kubernetes.io/wss on an HTTPRoute only with a
//     BackendTLSPolicy (the GEP's "Conditional" row: the gateway must
//     originate the TLS);
//   - any other domain-prefixed value (example.com/custom, or another
//     kubernetes.io/ name): unsupported, as gwsim's data plane knows no
//     implementation-specific protocol.
func unsupportedAppProtocol(proto string, kind gwv1.Kind, hasBackendTLS bool) string {
	switch {
	case !strings.Contains(proto, "/"), proto == appProtocolH2C:
		return ""
	case proto != appProtocolWS && proto != appProtocolWSS:
		return fmt.Sprintf("appProtocol %q is not supported; use %s, %s, %s or an IANA service name such as http",
			proto, appProtocolH2C, appProtocolWS, appProtocolWSS)
	case kind == "GRPCRoute":
		return fmt.Sprintf("appProtocol %q cannot carry a GRPCRoute, which needs HTTP/2; use %s", proto, appProtocolH2C)
	case proto == appProtocolWSS && kind == "HTTPRoute" && !hasBackendTLS:
		return fmt.Sprintf("appProtocol %q needs a BackendTLSPolicy for the port, so that the gateway connects over TLS", proto)
	}
	return ""
}
