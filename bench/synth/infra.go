package synth

import (
	"encoding/base64"
	"fmt"
)

const (
	gatewayGroupVersion = "gateway.networking.k8s.io/v1"
	infraNamespace      = "infra"
	className           = "gwsim"
	controllerName      = "gwsim.dev/gateway-controller"
)

// infra writes the shared file: the GatewayClass, the infra Namespace, and
// each Gateway with its certificate Secret when opts.TLS is set.
func (w *writer) infra(opts Options) []byte {
	w.doc(gatewayGroupVersion, "GatewayClass")
	fmt.Fprintf(&w.buf, "metadata:\n  name: %s\nspec:\n  controllerName: %s\n", className, controllerName)
	w.namespace(infraNamespace)
	for g := range opts.Gateways {
		w.gateway(g, opts.TLS)
		if opts.TLS {
			w.secret(g)
		}
	}
	return w.take()
}

func (w *writer) namespace(name string) {
	w.doc("v1", "Namespace")
	fmt.Fprintf(&w.buf, "metadata:\n  name: %s\n  labels:\n    tier: %s\n", name, tierOf(name))
}

func tierOf(ns string) string {
	if ns == infraNamespace {
		return "platform"
	}
	return "apps"
}

// gateway writes a Gateway with an HTTP listener, an HTTPS one when tls is
// set, and a TLS passthrough listener, all open to routes of every
// namespace.
func (w *writer) gateway(g int, tls bool) {
	w.doc(gatewayGroupVersion, "Gateway")
	fmt.Fprintf(&w.buf, `metadata:
  name: %s
  namespace: %s
spec:
  gatewayClassName: %s
  listeners:
  - name: http
    protocol: HTTP
    port: 80
    allowedRoutes:
      namespaces:
        from: All
`, gatewayName(g), infraNamespace, className)
	if tls {
		fmt.Fprintf(&w.buf, `  - name: https
    protocol: HTTPS
    port: 443
    tls:
      mode: Terminate
      certificateRefs:
      - name: %s-cert
    allowedRoutes:
      namespaces:
        from: All
`, gatewayName(g))
	}
	w.buf.WriteString(`  - name: tls
    protocol: TLS
    port: 8443
    tls:
      mode: Passthrough
    allowedRoutes:
      namespaces:
        from: All
`)
}

func (w *writer) secret(g int) {
	w.doc("v1", "Secret")
	fmt.Fprintf(&w.buf, `metadata:
  name: %s-cert
  namespace: %s
type: kubernetes.io/tls
data:
  tls.crt: %s
  tls.key: %s
`, gatewayName(g), infraNamespace,
		base64.StdEncoding.EncodeToString([]byte(benchCertPEM)),
		base64.StdEncoding.EncodeToString([]byte(benchKeyPEM)))
}
