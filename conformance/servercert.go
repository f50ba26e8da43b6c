package conformance

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"time"

	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// verifyServerCertificate checks the certificate the listener that takes
// an https call serves, exactly as the suite's DefaultRoundTripper does:
// with Protocol HTTPS or H2 its client trusts only ServerCertificate and
// checks the certificate against ServerName (createTLSClientConfig, which
// refuses a call without either); otherwise it is Go's default client,
// which trusts the system roots and checks the URL's host. The listener's
// side is the certificates the evaluator says it serves (a terminating
// listener's certificateRefs), offered by a crypto/tls server that picks
// one by the SNI as a gateway does; the handshake runs in memory. A
// passed-through listener serves the backend's certificate, which is not
// emulated: nil.
func (dp *dataPlane) verifyServerCertificate(c *call) error {
	conn := evaluate.EvaluateConnection(dp.model, evaluate.Connection{Gateway: c.gateway, Port: c.port, Protocol: "TLS", SNI: c.sni})
	if len(conn.Certificates) == 0 {
		return nil // not terminated here: the evaluator decides what happens
	}
	client, err := suiteClientConfig(c)
	if err != nil {
		return err
	}
	server, err := dp.listenerTLS(conn.Certificates)
	if err != nil {
		return err
	}
	return handshake(server, client)
}

// suiteClientConfig is the TLS configuration of the suite's client for
// the call.
func suiteClientConfig(c *call) (*tls.Config, error) {
	switch c.req.Protocol {
	case roundtripper.HTTPSProtocol, roundtripper.H2Protocol:
	default:
		return &tls.Config{ServerName: c.req.URL.Hostname()}, nil // http.Transport's default
	}
	if c.req.ServerName == "" {
		return nil, errors.New("https request has no server name configured")
	}
	if len(c.req.ServerCertificate) == 0 {
		return nil, errors.New("https request has no trusted certificates configured")
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(c.req.ServerCertificate) {
		return nil, errors.New("unexpected error adding trusted certificates failed")
	}
	return &tls.Config{ServerName: c.req.ServerName, RootCAs: roots}, nil
}

// handshake runs a TLS handshake between server and client over a
// loopback TCP connection (whose buffers let the client stop reading and
// send its alert, where a synchronous in-memory pipe would deadlock) and
// returns the client's error: what a real client reports when the
// certificate does not verify.
func handshake(server, client *tls.Config) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	deadline := time.Now().Add(handshakeTimeout)
	done := make(chan struct{})
	go func() {
		defer close(done)
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		s := tls.Server(conn, server)
		_ = s.SetDeadline(deadline)
		_ = s.Handshake() // the client's verdict is what counts
		s.Close()
	}()
	raw, err := net.DialTimeout("tcp", ln.Addr().String(), handshakeTimeout)
	if err != nil {
		ln.Close()
		<-done
		return err
	}
	tc := tls.Client(raw, client)
	_ = tc.SetDeadline(deadline)
	err = tc.Handshake()
	tc.Close()
	<-done
	return err
}

// handshakeTimeout bounds one certificate check.
const handshakeTimeout = 10 * time.Second
