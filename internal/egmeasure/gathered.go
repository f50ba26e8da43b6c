package egmeasure

// EG's translator test hands the translator every Backend of a case, and
// the translator gives each its status (internal/gatewayapi/backend.go
// ProcessBackends). EG's Kubernetes provider, which runs in a cluster and
// in standalone mode alike, hands it only the Backends that something it
// reads names: routes' backendRefs, the telemetry of an EnvoyProxy a class
// or Gateway takes as parameters, policies' backendRefs
// (internal/provider/kubernetes/controller.go processBackendRefs,
// processEnvoyProxy). A Backend nothing names keeps no status there, so
// the measure drops EG's status of such a Backend, as it completes the
// rest of EG's side the way its provider does.

// WithoutUnnamedBackends returns want without the Backends that no object
// of in names. A Backend counts as named when another object of the case
// holds a reference to it (kind Backend of EG's group and its name, the
// namespace the reference names or else the referring object's),
// wherever the reference sits: this keeps more Backends than EG's
// provider reads, never fewer, so the measure stays as strict.
func WithoutUnnamedBackends(want map[Key]Status, in Input) map[Key]Status {
	named := map[Key]bool{}
	for _, o := range in.Objects {
		k := KeyOf(o)
		if k.Kind == "Backend" {
			continue
		}
		backendRefs(o, k.Namespace, named)
	}
	out := make(map[Key]Status, len(want))
	for k, s := range want {
		if k.Kind != "Backend" || named[k] {
			out[k] = s
		}
	}
	return out
}

// backendRefs adds to named every reference to an EG Backend inside v,
// whose namespace defaults to ns.
func backendRefs(v any, ns string, named map[Key]bool) {
	switch x := v.(type) {
	case map[string]any:
		kind, _ := x["kind"].(string)
		group, _ := x["group"].(string)
		name, _ := x["name"].(string)
		if kind == "Backend" && group == "gateway.envoyproxy.io" && name != "" {
			refNS := ns
			if n, ok := x["namespace"].(string); ok && n != "" {
				refNS = n
			}
			named[Key{Kind: "Backend", Namespace: refNS, Name: name}] = true
		}
		for _, c := range x {
			backendRefs(c, ns, named)
		}
	case []any:
		for _, c := range x {
			backendRefs(c, ns, named)
		}
	}
}
