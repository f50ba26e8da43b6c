package validate

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/internal/fastpath/yamlin"
)

// crdFiles holds crds/<channel>/<group>_<plural>.yaml as gen_crds.go copies
// them from the gateway-api module, and crds/envoy-gateway/<group>_<plural>.yaml
// as it copies them from Envoy Gateway's CRD chart.
//
//go:embed crds
var crdFiles embed.FS

// Channel is a gateway-api release channel: the CRD set a cluster has
// installed.
type Channel string

// The channels gateway-api publishes.
const (
	Standard     Channel = "standard"
	Experimental Channel = "experimental"
)

// ParseChannel checks a channel name given by a user.
func ParseChannel(s string) (Channel, error) {
	switch c := Channel(s); c {
	case Standard, Experimental:
		return c, nil
	}
	return "", fmt.Errorf("unknown channel %q: want %q or %q", s, Standard, Experimental)
}

// plurals maps each kind gateway-api ships a CRD for to its resource
// name, which names the CRD's file. TestPluralsCoverEmbeddedCRDs checks it
// against the files.
var plurals = map[schema.GroupKind]string{
	{Group: "gateway.networking.k8s.io", Kind: "BackendTLSPolicy"}:        "backendtlspolicies",
	{Group: "gateway.networking.k8s.io", Kind: "GatewayClass"}:            "gatewayclasses",
	{Group: "gateway.networking.k8s.io", Kind: "Gateway"}:                 "gateways",
	{Group: "gateway.networking.k8s.io", Kind: "GRPCRoute"}:               "grpcroutes",
	{Group: "gateway.networking.k8s.io", Kind: "HTTPRoute"}:               "httproutes",
	{Group: "gateway.networking.k8s.io", Kind: "ListenerSet"}:             "listenersets",
	{Group: "gateway.networking.k8s.io", Kind: "ReferenceGrant"}:          "referencegrants",
	{Group: "gateway.networking.k8s.io", Kind: "TCPRoute"}:                "tcproutes",
	{Group: "gateway.networking.k8s.io", Kind: "TLSRoute"}:                "tlsroutes",
	{Group: "gateway.networking.k8s.io", Kind: "UDPRoute"}:                "udproutes",
	{Group: "gateway.networking.x-k8s.io", Kind: "XBackend"}:              "xbackends",
	{Group: "gateway.networking.x-k8s.io", Kind: "XBackendTrafficPolicy"}: "xbackendtrafficpolicies",
	{Group: "gateway.networking.x-k8s.io", Kind: "XMesh"}:                 "xmeshes",

	{Group: EnvoyGatewayGroup, Kind: "Backend"}:              "backends",
	{Group: EnvoyGatewayGroup, Kind: "BackendTrafficPolicy"}: "backendtrafficpolicies",
	{Group: EnvoyGatewayGroup, Kind: "ClientTrafficPolicy"}:  "clienttrafficpolicies",
	{Group: EnvoyGatewayGroup, Kind: "EnvoyExtensionPolicy"}: "envoyextensionpolicies",
	{Group: EnvoyGatewayGroup, Kind: "EnvoyPatchPolicy"}:     "envoypatchpolicies",
	{Group: EnvoyGatewayGroup, Kind: "EnvoyProxy"}:           "envoyproxies",
	{Group: EnvoyGatewayGroup, Kind: "HTTPRouteFilter"}:      "httproutefilters",
	{Group: EnvoyGatewayGroup, Kind: "SecurityPolicy"}:       "securitypolicies",
}

// EnvoyGatewayGroup is the API group of Envoy Gateway's own kinds. Their
// CRDs come from the Envoy Gateway release go.mod requires and are the
// same in either Gateway API channel: a cluster installs them beside
// whichever channel it runs.
const EnvoyGatewayGroup = "gateway.envoyproxy.io"

// envoyGatewayDir is the directory of crdFiles holding Envoy Gateway's CRDs.
const envoyGatewayDir = "envoy-gateway"

// Handles reports whether gk is a kind gateway-api defines a CRD for (in
// any channel), that is, whether Admit has a schema to check it against.
func Handles(gk schema.GroupKind) bool {
	_, ok := plurals[gk]
	return ok
}

// crdFile is the embedded file of gk's CRD in channel.
func crdFile(channel Channel, gk schema.GroupKind) string {
	if gk.Group == EnvoyGatewayGroup {
		return path.Join("crds", envoyGatewayDir, gk.Group+"_"+plurals[gk]+".yaml")
	}
	return path.Join("crds", string(channel), gk.Group+"_"+plurals[gk]+".yaml")
}

// stripHelm turns one of Envoy Gateway's CRD chart templates into the
// plain CRD it wraps: the lines holding a Helm action (the condition that
// enables the CRD and its end) and the document marker are left out. gen_crds.go does the same.
func stripHelm(text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "{{") && line != "---\n" {
			b.WriteString(line)
		}
	}
	return b.String()
}

// isCRDFile says which files of the module's config/crd/<channel> are
// CRDs; gen_crds.go copies exactly those.
func isCRDFile(name string) bool {
	return strings.HasSuffix(name, ".yaml") && strings.HasPrefix(name, "gateway.networking.") && !strings.Contains(name, "_vap_")
}

// readCRD parses gk's CRD of channel; ok is false when the channel has none.
func readCRD(channel Channel, gk schema.GroupKind) (*apiextensionsv1.CustomResourceDefinition, bool, error) {
	data, err := crdFiles.ReadFile(crdFile(channel, gk))
	if err != nil {
		return nil, false, nil
	}
	crd, err := parseCRD(data)
	if err != nil {
		return nil, false, fmt.Errorf("bug: embedded CRD %s: %w", crdFile(channel, gk), err)
	}
	return crd, true, nil
}

// parseCRD is sigs.k8s.io/yaml.Unmarshal of a CRD, which is YAML to JSON
// and encoding/json. Package yamljson does the first step some ten times
// faster than the library (parsing HTTPRoute's CRD took about 25 ms of
// CPU, most of compiling its schema); TestParseCRDMatchesYAML checks that
// every embedded CRD parses to the same object both ways, and a document
// yamljson declines takes the library's way.
func parseCRD(data []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	var crd apiextensionsv1.CustomResourceDefinition
	if js, ok := yamlin.Convert(data); ok {
		if err := json.Unmarshal(js, &crd); err != nil {
			return nil, err
		}
		return &crd, nil
	}
	if err := yaml.Unmarshal(data, &crd); err != nil {
		return nil, err
	}
	return &crd, nil
}
