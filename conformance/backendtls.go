package conformance

import (
	"cmp"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// backendHandshake plays the TLS handshake between the gateway (the client,
// with the cluster's BackendTLSPolicy settings t) and the echo-basic Pod
// behind an endpoint on port (the server), and returns the client
// certificates the Pod sees, PEM-encoded as echo-basic reports them. An
// error is a failed handshake, which Envoy reports as a 503:
//   - the Pod serves TLS on its HTTPS_PORT (8443 by default) when
//     TLS_SERVER_CERT and TLS_SERVER_PRIVKEY name files of its volumes;
//     any other port, or a Pod without them, answers in plaintext;
//   - the gateway verifies the Pod's certificate chain against the CA
//     bundles of t (the system roots for WellKnownCACertificates System)
//     for server authentication, and its names against t's
//     subjectAltNames (a DNS name or a URI SAN equal to one), or against
//     the SNI (validation.hostname) when there are none;
//   - the gateway presents the client certificate of t (the Gateway's
//     spec.tls.backend), if any; a Pod with TLS_CLIENT_CACERTS verifies a
//     presented certificate against those CAs for client authentication,
//     and accepts a connection without one (echo-basic's
//     VerifyClientCertIfGiven).
func (dp *dataPlane) backendHandshake(pod *corev1.Pod, port int32, t *ir.BackendTLS) ([]string, error) {
	certFile, keyFile := podEnv(pod, "TLS_SERVER_CERT"), podEnv(pod, "TLS_SERVER_PRIVKEY")
	httpsPort, _ := strconv.Atoi(cmp.Or(podEnv(pod, "HTTPS_PORT"), "8443"))
	if certFile == "" || keyFile == "" || int32(httpsPort) != port {
		return nil, fmt.Errorf("Pod %s/%s does not serve TLS on port %d", pod.Namespace, pod.Name, port)
	}
	serverPEM, err := dp.podFile(pod, certFile)
	if err != nil {
		return nil, err
	}
	server, err := parseChain(serverPEM)
	if err != nil {
		return nil, fmt.Errorf("Pod %s/%s serving certificate: %w", pod.Namespace, pod.Name, err)
	}
	if err := dp.verifyBackend(server, t); err != nil {
		return nil, fmt.Errorf("Pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	if t.ClientCertificate == "" {
		return nil, nil
	}
	s := dp.secrets[t.ClientCertificate]
	if s == nil {
		return nil, fmt.Errorf("client certificate Secret %s is gone", t.ClientCertificate)
	}
	client, err := parseChain(s.Data[corev1.TLSCertKey])
	if err != nil {
		return nil, fmt.Errorf("client certificate %s: %w", t.ClientCertificate, err)
	}
	if caFile := podEnv(pod, "TLS_CLIENT_CACERTS"); caFile != "" {
		caPEM, err := dp.podFile(pod, caFile)
		if err != nil {
			return nil, err
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(caPEM) {
			return nil, fmt.Errorf("Pod %s/%s: %s holds no CA certificate", pod.Namespace, pod.Name, caFile)
		}
		opts := x509.VerifyOptions{Roots: roots, Intermediates: pool(client[1:]), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
		if _, err := client[0].Verify(opts); err != nil {
			return nil, fmt.Errorf("Pod %s/%s rejects the client certificate: %w", pod.Namespace, pod.Name, err)
		}
	}
	var peers []string
	for _, c := range client {
		peers = append(peers, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})))
	}
	return peers, nil
}

// verifyBackend checks the backend's chain as the gateway does (see
// backendHandshake).
func (dp *dataPlane) verifyBackend(chain []*x509.Certificate, t *ir.BackendTLS) error {
	opts := x509.VerifyOptions{Intermediates: pool(chain[1:]), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	if len(t.CACertificates) > 0 {
		roots, _, err := dp.caPool(t.CACertificates)
		if err != nil {
			return err
		}
		opts.Roots = roots
	}
	leaf := chain[0]
	if _, err := leaf.Verify(opts); err != nil {
		return fmt.Errorf("the gateway rejects the serving certificate: %w", err)
	}
	if len(t.SubjectAltNames) == 0 {
		if err := leaf.VerifyHostname(t.SNI); err != nil {
			return fmt.Errorf("the gateway rejects the serving certificate: %w", err)
		}
		return nil
	}
	for _, san := range t.SubjectAltNames {
		switch san.Type {
		case "Hostname":
			if leaf.VerifyHostname(san.Value) == nil {
				return nil
			}
		case "URI":
			if slices.ContainsFunc(leaf.URIs, func(u *url.URL) bool { return u.String() == san.Value }) {
				return nil
			}
		}
	}
	return errors.New("the gateway rejects the serving certificate: it carries none of the policy's subjectAltNames")
}

// podFile reads a file of the Pod from the Secret or ConfigMap volume
// mounted at its directory: the key that the volume's items map to the
// file's name, or the key of that name.
func (dp *dataPlane) podFile(pod *corev1.Pod, file string) ([]byte, error) {
	dir, name := path.Split(file)
	for _, ctr := range pod.Spec.Containers {
		for _, m := range ctr.VolumeMounts {
			if path.Clean(m.MountPath) != path.Clean(dir) {
				continue
			}
			for _, v := range pod.Spec.Volumes {
				if v.Name != m.Name {
					continue
				}
				switch {
				case v.Secret != nil:
					if s := dp.secrets[pod.Namespace+"/"+v.Secret.SecretName]; s != nil {
						if data, ok := s.Data[itemKey(v.Secret.Items, name)]; ok {
							return data, nil
						}
					}
				case v.ConfigMap != nil:
					if cm := dp.configMaps[pod.Namespace+"/"+v.ConfigMap.Name]; cm != nil {
						if data, ok := cm.Data[itemKey(v.ConfigMap.Items, name)]; ok {
							return []byte(data), nil
						}
					}
				}
			}
		}
	}
	return nil, fmt.Errorf("Pod %s/%s has no file %s", pod.Namespace, pod.Name, file)
}

// itemKey is the key a volume's items project to the file name.
func itemKey(items []corev1.KeyToPath, name string) string {
	for _, it := range items {
		if it.Path == name {
			return it.Key
		}
	}
	return name
}

// parseChain parses the PEM certificates of a chain, leaf first.
func parseChain(data []byte) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("no PEM certificate")
	}
	return out, nil
}

func pool(certs []*x509.Certificate) *x509.CertPool {
	p := x509.NewCertPool()
	for _, c := range certs {
		p.AddCert(c)
	}
	return p
}
