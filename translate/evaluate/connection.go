package evaluate

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// ConnectionFailed means the gateway takes no HTTP request on the
// connection: a TLS ClientHello reaches an HTTP listener, a plain client
// reaches listeners that expect TLS, the listener refuses the client's
// certificate, or an L4 listener rejects the connection. The client sees
// no HTTP status.
const ConnectionFailed Outcome = "ConnectionFailed"

// ClientCertificate is what a client's certificate proved in the TLS
// handshake with a listener that validates client certificates
// (ConnectionResult.ClientValidation names the CA bundles): the caller's
// TLS library verifies the chain, the evaluator decides what the gateway
// does with the verdict.
type ClientCertificate struct {
	// Verified is set when the client presented a certificate that
	// verifies against the listener's CA bundles, with its private key.
	Verified bool
	// Alert is the TLS alert a server that requires a valid certificate
	// sends otherwise ("certificate required" when none was presented,
	// "unknown certificate authority", "expired certificate", ...), and
	// Why the verification error behind it.
	Alert, Why string
}

// connect runs the connection stage of an HTTP request whose scheme is
// known: https opens with a ClientHello whose SNI (Host when empty) picks
// the listener, http sends the request in plaintext. It returns the port
// and the listener that take the request, or, with ok false, the result of
// a connection that carries no HTTP request to route:
//   - a plain request to a port whose listeners all expect TLS, and a TLS
//     client that meets an HTTP listener (it answers the ClientHello in
//     plaintext), fail the connection;
//   - a TLS or TCP listener forwards the stream to its route's backend
//     without reading a request (Forwarded), or rejects it;
//   - an HTTPS listener that validates client certificates refuses a
//     client whose certificate does not verify (AllowValidOnly);
//   - a request on a TLS connection whose Host belongs to another listener
//     than the SNI's is misdirected (421): Envoy-based gateways, and the
//     conformance suite's GatewayHTTPSListenerDetectMisdirectedRequests,
//     answer so, because the connection's certificate and settings are
//     the SNI listener's.
func connect(model ir.IR, req Request) (res Result, port *ir.Listener, listener string, ok bool) {
	tls := strings.EqualFold(req.Scheme, "https")
	c := Connection{Gateway: req.Gateway, Port: req.Port, Protocol: "TCP", Seed: req.Seed, ClientCertificate: req.ClientCertificate}
	if tls {
		c.Protocol, c.SNI = "TLS", req.SNI
		if c.SNI == "" {
			c.SNI = req.Host
		}
	}
	conn, port, l := evaluateConnection(model, c)
	res = Result{Gateway: conn.Gateway, Listener: conn.Listener, Connection: &conn, Reason: conn.Reason}
	switch conn.Outcome {
	case HTTPListener:
	case NoGateway:
		res.Outcome = NoGateway
		return res, nil, "", false
	case NoListener:
		res.Outcome = ConnectionFailed
		if tls {
			res.Outcome = NoListener // no listener, so no certificate: the handshake fails
		}
		return res, nil, "", false
	case Forwarded:
		res.Outcome, res.Reason = Forwarded, fmt.Sprintf("listener %s forwards the connection to %s; the backend answers", l.Name, conn.Backend.Cluster)
		return res, nil, "", false
	default:
		res.Outcome = ConnectionFailed
		return res, nil, "", false
	}
	res.Status, res.Reason = 404, ""
	if !tls {
		host, found := selectListener(port, req.Host)
		if !found {
			return noListener(res, port, req.Host), nil, "", false
		}
		return res, port, host, true
	}
	if host, _ := selectListener(port, req.Host); host != l.Name {
		res.Outcome, res.Status = Misdirected, 421
		res.Reason = fmt.Sprintf("the TLS connection belongs to listener %s (SNI %s), but Host %s does not: 421 Misdirected Request", l.Name, c.SNI, req.Host)
		if host != "" {
			res.Reason = fmt.Sprintf("the TLS connection belongs to listener %s (SNI %s), but Host %s belongs to listener %s: 421 Misdirected Request", l.Name, c.SNI, req.Host, host)
		}
		return res, nil, "", false
	}
	return res, port, l.Name, true
}

// handshake decides the TLS handshake of a TLS client with listener l,
// whose settings on the port are t (nil when l does not terminate TLS): an
// HTTP listener answers the ClientHello in plaintext, and a listener that
// validates client certificates in AllowValidOnly mode refuses a client
// whose certificate does not verify. It returns why the handshake fails,
// or "".
func handshake(l *ir.GatewayListener, t *ir.TLS, cert *ClientCertificate) string {
	if l.Protocol == string(gwv1.HTTPProtocolType) {
		return fmt.Sprintf("listener %s is HTTP: it answers the ClientHello in plaintext, so the TLS handshake fails (tls: first record does not look like a TLS handshake)", l.Name)
	}
	if t == nil || t.FrontendValidation == nil || cert == nil || cert.Verified {
		return ""
	}
	if t.FrontendValidation.Mode == string(gwv1.AllowInsecureFallback) {
		return ""
	}
	return fmt.Sprintf("remote error: tls: %s (listener %s validates client certificates: %s)", cert.Alert, l.Name, cert.Why)
}

// tlsOf returns the TLS settings of the listener named listener on port.
func tlsOf(port *ir.Listener, listener string) *ir.TLS {
	for i := range port.TLS {
		if port.TLS[i].Listener == listener {
			return &port.TLS[i]
		}
	}
	return nil
}
