package explain

import (
	"cmp"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// ConnectionStep is how the Gateway took the client's connection, before
// any request is read: the transport, and for a listener that speaks TLS,
// what it does with it.
type ConnectionStep struct {
	// Protocol is what the client sends: TCP (plain), TLS or UDP.
	Protocol string `json:"protocol"`
	// TLSMode is Terminate or Passthrough for a listener that speaks TLS.
	TLSMode string `json:"tlsMode,omitempty"`
	// Certificates are the certificates the listener serves (Terminate).
	Certificates []CertificateStep `json:"certificates,omitempty"`
	// ClientValidation is set when the listener asks for a client
	// certificate; gwsim assumes the client presents one that verifies.
	ClientValidation *ir.FrontendValidation `json:"clientValidation,omitempty"`
	// Route is the TLSRoute, TCPRoute or UDPRoute that took a connection.
	Route *L4RouteStep `json:"route,omitempty"`
}

// CertificateStep is one certificate a listener serves.
type CertificateStep struct {
	Secret Ref `json:"secret"`
	// Parsed is set when the Secret is in the input and its certificate
	// parses; DNSNames are then its DNS subject alternative names, and
	// CommonName its subject's CN (which clients no longer check).
	Parsed bool `json:"parsed"`
	// Encrypted is set when the Secret's values are encrypted in the
	// input (SOPS), so that its names cannot be known.
	Encrypted  bool     `json:"encrypted,omitempty"`
	DNSNames   []string `json:"dnsNames,omitempty"`
	CommonName string   `json:"commonName,omitempty"`
	// CoversSNI tells whether a DNS name covers the client's SNI (set only
	// when the certificate parsed and the client sent an SNI).
	CoversSNI *bool `json:"coversSNI,omitempty"`
}

// L4RouteStep is the route that took a connection.
type L4RouteStep struct {
	Object Ref `json:"object"`
	// SNI is the server name pattern a TLSRoute matched on the listener.
	SNI string `json:"sni,omitempty"`
}

// isConnection reports whether a scheme names a connection rather than an
// HTTP request: tcp, udp or tls.
func isConnection(scheme string) bool {
	return scheme == "tcp" || scheme == "udp" || scheme == "tls"
}

// connect evaluates a tcp://, udp:// or tls:// request as a connection.
func connect(in Input, req Request) evaluate.Result {
	c := evaluate.Connection{Gateway: req.Gateway, Port: req.Port, Protocol: strings.ToUpper(req.Scheme), SNI: req.SNI}
	conn := evaluate.EvaluateConnection(in.IR, c)
	res := evaluate.Result{Outcome: conn.Outcome, Gateway: conn.Gateway, Listener: conn.Listener, Reason: conn.Reason, Connection: &conn}
	if conn.Outcome == evaluate.Forwarded {
		res.Reason = fmt.Sprintf("forwarded to %s; the backend answers", conn.Backend.Cluster)
	}
	return res
}

// connectionStep describes the connection stage the evaluator went
// through, nil when it did not get to a listener.
func (w *world) connectionStep(s *scene) *ConnectionStep {
	conn := s.res.Connection
	if conn == nil || conn.Listener == "" {
		return nil
	}
	step := &ConnectionStep{Protocol: "TCP", TLSMode: conn.TLSMode, ClientValidation: conn.ClientValidation}
	switch {
	case s.req.Scheme == "udp":
		step.Protocol = "UDP"
	case s.req.Scheme == "https" || s.req.Scheme == "tls":
		step.Protocol = "TLS"
	}
	for _, name := range conn.Certificates {
		step.Certificates = append(step.Certificates, w.certificate(name, s.req.SNI))
	}
	if r := conn.Route; r != nil {
		step.Route = &L4RouteStep{Object: w.ref(originRef(r.Origin)), SNI: r.SNI}
	}
	if step.TLSMode == "" && step.Route == nil && step.Protocol == "TCP" {
		return nil // plain HTTP: the listener step says it all
	}
	return step
}

// certificate describes a served certificate from its Secret.
func (w *world) certificate(name, sni string) CertificateStep {
	ns, n := splitName(name)
	step := CertificateStep{Secret: w.objectRef("Secret", ns, n)}
	s := w.secrets[name]
	if s == nil {
		return step
	}
	if diag.Encrypted(s.Annotations) {
		step.Encrypted = true
		return step
	}
	block, _ := pem.Decode(s.Data[corev1.TLSCertKey])
	if block == nil {
		return step
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return step
	}
	step.Parsed, step.DNSNames, step.CommonName = true, slices.Clone(cert.DNSNames), cert.Subject.CommonName
	if sni != "" {
		covers := slices.ContainsFunc(step.DNSNames, func(d string) bool { return evaluate.HostMatches(d, sni) })
		step.CoversSNI = &covers
	}
	return step
}

// l4Backends lists the backends of the L4 route that took a connection.
func (w *world) l4Backends(s *scene) []BackendStep {
	conn := s.res.Connection
	if conn == nil || conn.Route == nil {
		return nil
	}
	bs := conn.Route.Backends
	out := make([]BackendStep, 0, len(bs))
	for i := range bs {
		b := &bs[i]
		step := BackendStep{Cluster: b.Cluster, Weight: b.Weight, Invalid: b.Invalid, Chosen: conn.Backend == b}
		step.Percent = share(bs, b.Weight)
		if cl := clusterOf(s.gw, b.Cluster); cl != nil {
			ns, name := splitName(cl.Service)
			ref := w.objectRef(clusterKind(*cl), ns, name)
			step.BackendRef, step.Port, step.Endpoints, step.NoReadyEndpoints = &ref, cl.Port, cl.Endpoints, cl.NoReadyEndpoints
			step.Address = cl.Address
		}
		out = append(out, step)
	}
	return out
}

// clusterKind is the kind of the object behind a cluster, as a backendRef
// names it: Service, or the kind of ir.Cluster.Kind's group/Kind.
func clusterKind(c ir.Cluster) string {
	if c.Kind == "" {
		return "Service"
	}
	_, kind, _ := strings.Cut(c.Kind, "/")
	return kind
}

// l4NearMisses lists, for a connection no route took, the L4 routes of
// the Gateway that could have: those of the listener whose SNI pattern
// does not cover the client's, those attached to another port, those
// that another route supersedes, and the routes of the connection's kind
// that the loader left out (see leftout.go).
func (w *world) l4NearMisses(s *scene) []NearMiss {
	if s.res.Outcome == evaluate.Forwarded {
		return nil
	}
	out := w.leftOutMisses(l4Kinds[s.req.Scheme])
	if s.gw == nil {
		return out
	}
	for _, port := range s.gw.Listeners {
		for _, r := range slices.Concat(port.TLSRoutes, port.Forward) {
			if m, ok := w.l4Miss(s, port, r); ok {
				out = append(out, m)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b NearMiss) int {
		return cmp.Or(cmp.Compare(len(a.Failed), len(b.Failed)), cmp.Compare(a.Object.Kind, b.Object.Kind),
			cmp.Compare(a.Object.Namespace, b.Object.Namespace), cmp.Compare(a.Object.Name, b.Object.Name))
	})
	return out
}

// l4Miss says why route r (on port) did not take the connection.
func (w *world) l4Miss(s *scene, port ir.Listener, r ir.L4Route) (NearMiss, bool) {
	wantKind := map[string]string{"tls": "TLSRoute", "tcp": "TCPRoute", "udp": "UDPRoute", "https": "TLSRoute"}[s.req.Scheme]
	if r.Origin.Kind != wantKind {
		return NearMiss{}, false
	}
	m := NearMiss{Object: w.ref(originRef(r.Origin)), Listener: r.Listener}
	if port.Port != s.req.Port {
		m.Failed = append(m.Failed, Miss{Condition: CondPort, Message: fmt.Sprintf("attached to listener %s on port %d; the connection is to port %d", r.Listener, port.Port, s.req.Port)})
	} else if s.res.Listener != "" && r.Listener != s.res.Listener {
		m.Failed = append(m.Failed, Miss{Condition: CondListener, Message: fmt.Sprintf("attached to listener %s; the connection was taken by listener %s", r.Listener, s.res.Listener)})
	}
	if r.SNI != "" && !evaluate.HostMatches(r.SNI, s.req.SNI) {
		m.Failed = append(m.Failed, Miss{Condition: CondSNI, Message: fmt.Sprintf("matches SNI %s, which does not cover %q%s", r.SNI, s.req.SNI, didYouMean(s.req.SNI, r.SNI))})
	}
	if r.SupersededBy != nil {
		m.Failed = append(m.Failed, Miss{Condition: CondSuperseded, Message: fmt.Sprintf("%s %s/%s takes every connection this route would (the older route wins)", r.SupersededBy.Kind, r.SupersededBy.Namespace, r.SupersededBy.Name)})
	}
	return m, len(m.Failed) > 0
}

// secretsByName indexes Secrets by "namespace/name".
func secretsByName(list []*corev1.Secret) map[string]*corev1.Secret {
	out := make(map[string]*corev1.Secret, len(list))
	for _, s := range list {
		out[s.Namespace+"/"+s.Name] = s
	}
	return out
}

// clusterOf returns gw's cluster of that name, nil if there is none.
func clusterOf(gw *ir.Gateway, name string) *ir.Cluster {
	if gw == nil {
		return nil
	}
	for i := range gw.Clusters {
		if gw.Clusters[i].Name == name {
			return &gw.Clusters[i]
		}
	}
	return nil
}
