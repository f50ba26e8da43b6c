package conformance

import (
	"bufio"
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/miekg/dns"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/gateway-api/conformance/echo-basic/tcpserver"
	"sigs.k8s.io/gateway-api/conformance/echo-basic/udpechoserver"
)

// maxEchoLines bounds the commands one stream sends the TCP echo.
const maxEchoLines = 1024

// serveStream plays the process of pod on a stream the gateway opened to
// its port, as echo-basic's TCP server (TCP_ECHO_SERVER) does: plain on
// TCP_PORT (3000), over TLS on TLS_PORT (8443) with the certificate of
// TLS_SERVER_CERT and TLS_SERVER_PRIV_KEY. It writes the welcome line,
// then answers PING with PONG, IS_TLS with whether the stream is TLS, and
// TEST with the JSON of its context (namespace, Pod, ports, the TLS state).
// false means nothing listens there: the connection is refused.
func (dp *dataPlane) serveStream(ctx context.Context, pod *corev1.Pod, port int32, conn net.Conn) bool {
	if podEnv(pod, "TCP_ECHO_SERVER") == "" {
		return false
	}
	tcpPort, tlsPort := cmp.Or(podEnv(pod, "TCP_PORT"), "3000"), cmp.Or(podEnv(pod, "TLS_PORT"), "8443")
	a := tcpserver.TCPAssertions{Context: tcpserver.Context{
		Namespace: podEnv(pod, "NAMESPACE"), Ingress: podEnv(pod, "INGRESS_NAME"), Service: podEnv(pod, "SERVICE_NAME"),
		Pod: podEnv(pod, "POD_NAME"), TCPPort: tcpPort, TLSPort: tlsPort,
	}}
	switch strconv.Itoa(int(port)) {
	case tcpPort:
	case tlsPort:
		cfg, err := dp.podServerTLS(pod)
		if err != nil {
			return false
		}
		tc := tls.Server(conn, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return true
		}
		state := tc.ConnectionState()
		a.IsTLS, conn = true, tc
		a.TLSAssertion = &tcpserver.TLSAssertions{
			NegotiatedProtocol: state.NegotiatedProtocol, ServerName: state.ServerName,
			Version: tls.VersionName(state.Version), CipherSuite: tls.CipherSuiteName(state.CipherSuite),
			Curves: state.CurveID.String(),
		}
	default:
		return false
	}
	payload, err := json.Marshal(a)
	if err != nil {
		panic(fmt.Sprintf("bug: encoding the TCP echo payload: %v", err))
	}
	fmt.Fprint(conn, tcpserver.WelcomeMessage)
	scanner := bufio.NewScanner(conn)
	for i := 0; i < maxEchoLines && scanner.Scan(); i++ {
		switch scanner.Text() {
		case "TEST":
			fmt.Fprintf(conn, "%s\n", payload)
		case "IS_TLS":
			fmt.Fprintf(conn, "%t\n", a.IsTLS)
		case "PING":
			fmt.Fprint(conn, "PONG\n")
		}
	}
	return true
}

// podServerTLS is the TLS server side of the echo's TLS port.
func (dp *dataPlane) podServerTLS(pod *corev1.Pod) (*tls.Config, error) {
	certFile, keyFile := podEnv(pod, "TLS_SERVER_CERT"), podEnv(pod, "TLS_SERVER_PRIV_KEY")
	if certFile == "" || keyFile == "" {
		return nil, fmt.Errorf("Pod %s/%s serves no TLS", pod.Namespace, pod.Name)
	}
	certPEM, err := dp.podFile(pod, certFile)
	if err != nil {
		return nil, err
	}
	keyPEM, err := dp.podFile(pod, keyFile)
	if err != nil {
		return nil, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("Pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// answerDatagram plays the process of pod on a datagram sent to its port
// by the gateway at gatewayIP, and returns its answer (nil: none):
//   - echo-basic's UDP echo (UDP_ECHO_SERVER, on UDP_PORT, 8080) answers
//     the JSON of the request and its context;
//   - CoreDNS (its image) on 53 answers a query as its Corefile says.
func (dp *dataPlane) answerDatagram(pod *corev1.Pod, port int32, payload []byte, gatewayIP net.IP) []byte {
	if podEnv(pod, "UDP_ECHO_SERVER") != "" {
		if strconv.Itoa(int(port)) != cmp.Or(podEnv(pod, "UDP_PORT"), "8080") {
			return nil
		}
		out, err := json.Marshal(udpechoserver.EchoResponse{Request: string(payload), Context: udpechoserver.Context{
			Namespace: podEnv(pod, "NAMESPACE"), Ingress: podEnv(pod, "INGRESS_NAME"),
			Service: podEnv(pod, "SERVICE_NAME"), Pod: podEnv(pod, "POD_NAME"),
		}})
		if err != nil {
			panic(fmt.Sprintf("bug: encoding the UDP echo payload: %v", err))
		}
		return out
	}
	for _, ctr := range pod.Spec.Containers {
		if strings.Contains(ctr.Image, "/coredns:") && port == 53 {
			return dp.coreDNS(pod, ctr, payload, gatewayIP)
		}
	}
	return nil
}

// coreDNS answers a DNS query as CoreDNS with the Corefile of ctr (its
// -conf argument) does: a name in a zone served by the whoami plugin gets
// the querier's address (the gateway's, which forwards the datagram; the
// SRV record of its source port is left out, the in-process gateway has
// none); any other name gets SERVFAIL, as when the forward plugin's
// upstreams do not answer (the harness reaches nothing outside loopback).
// A datagram that is no DNS query gets no answer.
func (dp *dataPlane) coreDNS(pod *corev1.Pod, ctr corev1.Container, payload []byte, gatewayIP net.IP) []byte {
	var q dns.Msg
	if err := q.Unpack(payload); err != nil || len(q.Question) != 1 {
		return nil
	}
	var conf []byte
	for i, arg := range ctr.Args {
		if arg == "-conf" && i+1 < len(ctr.Args) {
			conf, _ = dp.podFile(pod, ctr.Args[i+1])
		}
	}
	m := new(dns.Msg)
	m.SetReply(&q)
	name := q.Question[0].Name
	if !slices.ContainsFunc(whoamiZones(string(conf)), func(z string) bool { return dns.IsSubDomain(z, name) }) {
		m.Rcode = dns.RcodeServerFailure
	} else {
		m.Answer = []dns.RR{&dns.A{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeA, Class: dns.ClassINET}, A: gatewayIP.To4()}}
	}
	out, err := m.Pack()
	if err != nil {
		return nil
	}
	return out
}

// corefileBlock is the opening line of a Corefile server block: its zone,
// with an optional port.
var corefileBlock = regexp.MustCompile(`^\s*([^\s{]+?)(?::\d+)?\s*\{\s*$`)

// whoamiZones lists the zones (fully qualified) of the server blocks of a
// Corefile that use the whoami plugin.
func whoamiZones(corefile string) []string {
	var zones []string
	zone := ""
	for line := range strings.Lines(corefile) {
		switch {
		case corefileBlock.MatchString(line):
			zone = dns.Fqdn(corefileBlock.FindStringSubmatch(line)[1])
		case strings.TrimSpace(line) == "}":
			zone = ""
		case strings.TrimSpace(line) == "whoami" && zone != "":
			zones = append(zones, zone)
		}
	}
	return zones
}
