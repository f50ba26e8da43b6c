package conformance

import (
	"github.com/gwsim/gwsim/internal/corpus"

	"bytes"
	"fmt"
	"io/fs"

	upstream "sigs.k8s.io/gateway-api/conformance"
)

const (
	// DefaultGatewayClassName is the GatewayClass the upstream Gateways are
	// given when Setup names none (the suite's --gateway-class flag).
	DefaultGatewayClassName = "gwsim-conformance"
	// DefaultControllerName owns that GatewayClass; it is gwsim's default
	// controller name, as in the CLI.
	DefaultControllerName = "gwsim.dev/gateway-controller"
	// BaseManifests is the suite's default ConformanceOptions.BaseManifests:
	// the namespaces, Gateways and backends that most tests share.
	BaseManifests = "base/manifests.yaml"
)

// Setup says what the suite applies before one upstream test runs.
//
// Run prepares it as the suite's Applier does (conformance/utils/kubernetes
// apply.go and the suite's Setup in utils/suite/suite.go):
//   - every Gateway gets spec.gatewayClassName = GatewayClassName and every
//     GatewayClass spec.controllerName = ControllerName; in the YAML these
//     are the {GATEWAY_CLASS_NAME} and {GATEWAY_CONTROLLER_NAME}
//     placeholders;
//   - a Gateway's addresses are replaced by its "test/fake-invalid-type"
//     ones plus the address pools its PLACEHOLDER_USABLE_ADDRS and
//     PLACEHOLDER_UNUSABLE_ADDRS entries ask for; the pools are empty here
//     (the suite's default), so only the fake-type addresses stay;
//   - the GatewayClass is created, as the suite's caller does before a run;
//   - the TLS Secrets that the suite creates in code are added
//     (SuiteSecrets).
//
// Not done (yet): namespace labels and annotations from the suite's options
// (empty by default), the ConfigMaps with CA bundles that the suite creates
// for BackendTLSPolicy and client-certificate tests, the mesh manifests, and
// manifests fetched over https.
type Setup struct {
	// Manifests are the test's manifests, as in a ConformanceTest's
	// Manifests field ("tests/httproute-matching.yaml"); they are applied
	// after BaseManifests, in order.
	Manifests []string
	// FS holds the manifests; nil means the upstream conformance.Manifests.
	FS fs.FS
	// GatewayClassName is empty for DefaultGatewayClassName.
	GatewayClassName string
	// ControllerName is empty for DefaultControllerName.
	ControllerName string
	// Without names objects to leave out: the state after a test deleted
	// them (HTTPRouteReferenceGrant deletes its ReferenceGrant and expects
	// a 500). Each entry is "Kind namespace/name" (diag.ObjectRef's
	// String form), "Kind name" when cluster-scoped.
	Without []string
}

func (s Setup) withDefaults() Setup {
	if s.FS == nil {
		s.FS = upstream.Manifests
	}
	if s.GatewayClassName == "" {
		s.GatewayClassName = DefaultGatewayClassName
	}
	if s.ControllerName == "" {
		s.ControllerName = DefaultControllerName
	}
	return s
}

// YAML returns the manifests Run loads: BaseManifests and then s.Manifests,
// one stream separated by `---`, with the placeholders substituted, and the
// GatewayClass the suite expects to exist appended last.
func (s Setup) YAML() ([]byte, error) {
	s = s.withDefaults()
	var buf bytes.Buffer
	for _, name := range append([]string{BaseManifests}, s.Manifests...) {
		data, err := fs.ReadFile(s.FS, name)
		if err != nil {
			return nil, fmt.Errorf("conformance manifests: %w", err)
		}
		fmt.Fprintf(&buf, "---\n# %s\n", name)
		buf.Write(data)
		buf.WriteString("\n")
	}
	text := string(corpus.Applied(buf.Bytes(), s.GatewayClassName, s.ControllerName))
	text += fmt.Sprintf(gatewayClassYAML, s.GatewayClassName, s.ControllerName)
	return []byte(text), nil
}

// gatewayClassYAML is the GatewayClass that a conformance run is pointed at
// (the suite expects it to exist and be Accepted); it takes the class and
// controller names.
const gatewayClassYAML = `---
# created by the suite's caller
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: %q
spec:
  controllerName: %q
`
