package ir

// BackendTLS is how the gateway connects to a cluster's endpoints when a
// BackendTLSPolicy applies to its Service port (Envoy's UpstreamTlsContext):
// TLS with SNI set to SNI, the server certificate verified against
// CACertificates (or the system trust store when WellKnownCACertificates is
// "System"), and its name checked against SubjectAltNames, or against SNI
// when there are none.
type BackendTLS struct {
	// Policy is the BackendTLSPolicy that applies, "namespace/name": the
	// one naming this port by sectionName, else the one naming the whole
	// Service; among several for the same target, the oldest, then the
	// first by name.
	Policy string `json:"policy"`
	// SNI is validation.hostname: the server name sent to the backend.
	SNI string `json:"sni"`
	// CACertificates are the CA bundles that resolved and parse, in the
	// order written. References that do not resolve are left out (the
	// policy's findings say why).
	CACertificates []CACertificate `json:"caCertificates,omitempty"`
	// WellKnownCACertificates is "System" when the backend's certificate
	// is verified against the system trust store.
	WellKnownCACertificates string `json:"wellKnownCACertificates,omitempty"`
	// SubjectAltNames, when set, replace SNI for authentication: the
	// backend's certificate must carry one of them.
	SubjectAltNames []SubjectAltName `json:"subjectAltNames,omitempty"`
	// Options are the policy's implementation-specific options, as written.
	Options map[string]string `json:"options,omitempty"`
	// ClientCertificate is the Secret ("namespace/name", keys tls.crt and
	// tls.key) whose certificate the gateway presents to the backend, from
	// the Gateway's spec.tls.backend.clientCertificateRef; empty when the
	// Gateway sets none or it is invalid.
	ClientCertificate string `json:"clientCertificate,omitempty"`
	// Invalid, when set, is why no connection to this cluster can be
	// verified (NoValidCACertificate: every CA reference is invalid;
	// Invalid: an unknown wellKnownCACertificates). The spec then makes
	// every connection fail, and requests forwarded here get a 5xx.
	Invalid string `json:"invalid,omitempty"`
	// Unloadable, when set, says why the data plane cannot load the CA
	// bundles of a policy its controller accepts (Envoy Gateway does not
	// parse them; Envoy refuses a bundle without a certificate that
	// parses): connections fail all the same, though no status says so.
	Unloadable string `json:"unloadable,omitempty"`
}

// CACertificate is one resolved CA bundle: the key ca.crt of a ConfigMap
// or Secret, holding one or more PEM certificates.
type CACertificate struct {
	Kind string `json:"kind"`
	// Name is "namespace/name".
	Name string `json:"name"`
	Key  string `json:"key"`
	// Certificates is how many certificates the bundle holds.
	Certificates int `json:"certificates"`
}

// SubjectAltName is a name the backend's certificate must carry: Type is
// Hostname or URI, Value the DNS name or the URI.
type SubjectAltName struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// FrontendValidation is the client certificate validation of an HTTPS
// listener (mutual TLS; Envoy's require_client_certificate and
// validation_context), from the Gateway's spec.tls.frontend: the perPort
// entry for the listener's port, else the default.
type FrontendValidation struct {
	// Mode is AllowValidOnly (a client without a certificate that verifies
	// against CACertificates is refused) or AllowInsecureFallback (every
	// client is accepted; validation is left to the backend).
	Mode string `json:"mode"`
	// CACertificates are the CA bundles that resolved and parse; a
	// listener with none is not accepted (NoValidCACertificate) and so is
	// not in the IR.
	CACertificates []CACertificate `json:"caCertificates"`
}
