package egmeasure

import (
	"strings"
)

// EG's Kubernetes provider resolves a Gateway's
// spec.infrastructure.parametersRef before translation
// (internal/provider/kubernetes/controller.go processGatewayParamsRef) and
// refuses the Gateway (Accepted False, InvalidParameters) when the
// reference does not name an EnvoyProxy that exists, or when the class's
// EnvoyProxy merges Gateways; the translator then skips a Gateway already
// refused (translator.go, status.GatewayNotAccepted): no listener status,
// no route parent status for it. EG's test hands the translator its
// objects without the provider, so its output keeps such a Gateway
// accepted; the measure completes EG's side as the provider does.

// WithProviderRefusals returns want with the Gateways EG's provider
// refuses for their parametersRef refused as the provider and translator
// leave them.
func WithProviderRefusals(want map[Key]Status, in Input) map[Key]Status {
	refused := providerRefusedGateways(in)
	if len(refused) == 0 {
		return want
	}
	out := make(map[Key]Status, len(want))
	for k, s := range want {
		switch {
		case k.Kind == "Gateway" && refused[k]:
			s = Status{Conditions: []Condition{{Type: "Accepted", Status: "False", Reason: "InvalidParameters"}}}
		case len(s.Entries) > 0 && k.Kind != "BackendTLSPolicy":
			s.Entries = withoutParents(s.Entries, refused)
		}
		out[k] = s
	}
	return out
}

// providerRefusedGateways returns the Gateways of EG's class whose
// parametersRef EG's provider refuses.
func providerRefusedGateways(in Input) map[Key]bool {
	proxies := map[Key]bool{}
	for _, o := range in.Objects {
		if k := KeyOf(o); k.Kind == "EnvoyProxy" {
			proxies[k] = true
		}
	}
	merged := false
	if p := in.ClassProxy; p != nil {
		spec, _ := p["spec"].(map[string]any)
		merged, _ = spec["mergeGateways"].(bool)
	}
	out := map[Key]bool{}
	for _, o := range in.Objects {
		k := KeyOf(o)
		spec, _ := o["spec"].(map[string]any)
		if k.Kind != "Gateway" || spec["gatewayClassName"] != ClassName {
			continue
		}
		infra, _ := spec["infrastructure"].(map[string]any)
		ref, _ := infra["parametersRef"].(map[string]any)
		if ref == nil {
			continue
		}
		name, _ := ref["name"].(string)
		if merged || ref["group"] != "gateway.envoyproxy.io" || ref["kind"] != "EnvoyProxy" || name == "" ||
			!proxies[Key{Kind: "EnvoyProxy", Namespace: k.Namespace, Name: name}] {
			out[k] = true
		}
	}
	return out
}

// withoutParents drops the entries whose parentRef names one of the
// Gateways (refKey's form: group/Kind ns/name, then section and port).
func withoutParents(entries map[string][]Condition, gateways map[Key]bool) map[string][]Condition {
	out := make(map[string][]Condition, len(entries))
	for ref, cs := range entries {
		if !namesGateway(ref, gateways) {
			out[ref] = cs
		}
	}
	return out
}

func namesGateway(ref string, gateways map[Key]bool) bool {
	rest, ok := strings.CutPrefix(ref, "gateway.networking.k8s.io/Gateway ")
	if !ok {
		return false
	}
	nsName, _, _ := strings.Cut(rest, " ")
	ns, name, _ := strings.Cut(nsName, "/")
	return gateways[Key{Kind: "Gateway", Namespace: ns, Name: name}]
}
