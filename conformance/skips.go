package conformance

import "strings"

// SkipCategory is why the harness does not run an upstream test. The list
// is short and fixed on purpose: a test is either run, or skipped for one
// of these reasons, stated in the report.
type SkipCategory string

const (
	// SkipMesh: the test checks a service mesh (GAMMA), which gwsim does
	// not simulate; it is a gateway simulator.
	SkipMesh SkipCategory = "mesh"
	// SkipRawSocket: the test opens TCP, UDP or TLS connections itself
	// (utils/tcp, utils/udp, tls.Dial) instead of going through the suite's
	// round-tripper, so nothing in-process can answer it.
	SkipRawSocket SkipCategory = "raw socket"
	// SkipNeedsEmulation: the test goes through a client the harness does
	// not emulate yet (gRPC client, mirror logs read through a clientset,
	// client certificates in the TLS handshake, h2c, WebSocket, timing).
	SkipNeedsEmulation SkipCategory = "needs emulation not built yet"
)

// Skip is one skipped test: its category and what exactly is missing.
type Skip struct {
	Category SkipCategory
	Detail   string
}

func (s Skip) String() string { return string(s.Category) + ": " + s.Detail }

// skips returns every upstream test the harness does not run. Mesh tests
// are found by feature (every test whose features include Mesh), the rest
// are listed by name.
func skips() map[string]Skip {
	rawTCP := Skip{SkipRawSocket, "dials the Gateway over TCP (utils/tcp)"}
	rawUDP := Skip{SkipRawSocket, "sends UDP datagrams to the Gateway (utils/udp)"}
	rawTLS := Skip{SkipRawSocket, "opens TLS connections itself (tls.Dialer) to check the handshake"}
	grpc := Skip{SkipNeedsEmulation, "sends gRPC calls through suite.GRPCClient, which the harness does not provide yet"}
	mirror := Skip{SkipNeedsEmulation, "reads the mirror backend's logs through suite.Clientset, which the harness does not provide yet"}
	clientCert := Skip{SkipNeedsEmulation, "needs the client certificate exchange of a TLS handshake (GetClientCertificateHook)"}
	return map[string]Skip{
		"TCPRouteMultipleRoutesAttachment":      rawTCP,
		"TCPRouteParentRefAttachAll":            rawTCP,
		"TCPRouteParentRefPortAndSectionName":   rawTCP,
		"TCPRouteReferenceGrant":                rawTCP,
		"TCPRouteWeightedRouting":               rawTCP,
		"TLSRouteMixedTerminationSameNamespace": rawTCP,
		"TLSRouteSimpleSameNamespace":           rawTCP,
		"TLSRouteTerminateSimpleSameNamespace":  rawTCP,
		"TLSRouteHostnameIntersection":          rawTLS,
		"TLSRouteInvalidBackendRefNonexistent":  rawTLS,
		"TLSRouteInvalidBackendRefUnknownKind":  rawTLS,
		"UDPRoute":                              {SkipRawSocket, "sends a DNS query over UDP to the Gateway (miekg/dns)"},
		"UDPRouteMultipleRoutesAttachment":      rawUDP,
		"UDPRouteParentRefAttachAllListeners":   rawUDP,
		"UDPRouteParentRefPortAndSectionName":   rawUDP,
		"UDPRouteReferenceGrant":                rawUDP,
		"UDPRouteWeightedRouting":               rawUDP,

		"GRPCExactMethodMatching":                                    grpc,
		"GRPCRouteHeaderMatching":                                    grpc,
		"GRPCRouteListenerHostnameMatching":                          grpc,
		"GRPCRouteNamedRule":                                         grpc,
		"GRPCRouteWeight":                                            grpc,
		"HTTPRouteRequestMirror":                                     mirror,
		"HTTPRouteRequestMultipleMirrors":                            mirror,
		"HTTPRouteRequestPercentageMirror":                           mirror,
		"GatewayFrontendClientCertificateValidation":                 clientCert,
		"GatewayFrontendClientCertificateValidationInsecureFallback": clientCert,
		"GatewayFrontendInvalidDefaultClientCertificateValidation":   clientCert,
		"GatewayInfrastructureMetadata":                              {SkipNeedsEmulation, "lists the Gateway's own Pods, Services and ServiceAccounts through suite.Clientset; gwsim deploys no infrastructure"},
		"HTTPRouteBackendProtocolH2C":                                {SkipNeedsEmulation, "needs an h2c (HTTP/2 prior knowledge) round trip"},
		"HTTPRouteBackendProtocolWebSocket":                          {SkipNeedsEmulation, "needs a WebSocket dialer (suite.WebSocketDialer)"},
		"HTTPRouteTimeoutBackendRequest":                             {SkipNeedsEmulation, "needs a model of backend latency (the echo server's ?delay=)"},
		"HTTPRouteTimeoutRequest":                                    {SkipNeedsEmulation, "needs a model of backend latency (the echo server's ?delay=)"},
		"HTTPRouteRetry":                                             {SkipNeedsEmulation, "needs a model of backend failures and retries"},
	}
}

// skipFor returns why the harness skips the test with this short name and
// features, if it does.
func skipFor(name string, features []string) (Skip, bool) {
	for _, f := range features {
		if f == "Mesh" {
			return Skip{SkipMesh, "checks a service mesh (GAMMA), which gwsim does not simulate"}, true
		}
	}
	if strings.HasPrefix(name, "Mesh") {
		return Skip{SkipMesh, "checks a service mesh (GAMMA), which gwsim does not simulate"}, true
	}
	s, ok := skips()[name]
	return s, ok
}
