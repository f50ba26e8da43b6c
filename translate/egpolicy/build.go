package egpolicy

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Objects are the typed objects a World is built from.
type Objects struct {
	Gateways     []*gwv1.Gateway
	ListenerSets []*gwv1.ListenerSet
	// Routes are routes of any kind (*gwv1.HTTPRoute, ...).
	Routes     []client.Object
	Namespaces []*corev1.Namespace
	Grants     []*gwv1.ReferenceGrant
	// MergedClasses names the GatewayClasses whose EnvoyProxy merges
	// their Gateways.
	MergedClasses map[string]bool
	// DynamicModules are, per Gateway, the dynamic modules the EnvoyProxy
	// it runs with allows.
	DynamicModules map[types.NamespacedName][]string
	// Services, Secrets and ConfigMaps are what policy specs may name.
	Services   []*corev1.Service
	Secrets    []*corev1.Secret
	ConfigMaps []*corev1.ConfigMap
}

// Judge says what only the controller knows: whether Envoy Gateway's
// translator takes a Gateway (of its class, not refused as a whole), and
// whether it handles a route's parentRef (it names such a Gateway, or a
// ListenerSet of one, and the route got a parent status for it).
type Judge struct {
	TakesGateway func(*gwv1.Gateway) bool
	Handles      func(route client.Object, ref gwv1.ParentReference) bool
	// Serves reports whether EG configures a Gateway's own listener
	// (it is Programmed); nil takes every listener as served.
	Serves func(g *gwv1.Gateway, listener gwv1.SectionName) bool
}

// BuildWorld builds the World of o as j judges it.
func BuildWorld(o Objects, j Judge) *World {
	w := &World{NamespaceLabels: map[string]map[string]string{}, Grants: o.Grants, MergedClasses: o.MergedClasses,
		Refs: &Refs{Services: map[types.NamespacedName]*corev1.Service{}, Secrets: map[types.NamespacedName]bool{},
			SecretData: map[types.NamespacedName]map[string]string{}, ConfigMaps: map[types.NamespacedName]map[string]string{}}}
	for _, s := range o.Services {
		w.Refs.Services[types.NamespacedName{Namespace: s.Namespace, Name: s.Name}] = s
	}
	for _, s := range o.Secrets {
		key := types.NamespacedName{Namespace: s.Namespace, Name: s.Name}
		w.Refs.Secrets[key] = true
		data := map[string]string{}
		for k, v := range s.Data {
			data[k] = string(v)
		}
		for k, v := range s.StringData {
			data[k] = v
		}
		w.Refs.SecretData[key] = data
	}
	for _, c := range o.ConfigMaps {
		w.Refs.ConfigMaps[types.NamespacedName{Namespace: c.Namespace, Name: c.Name}] = c.Data
	}
	for _, n := range o.Namespaces {
		w.NamespaceLabels[n.Name] = n.Labels
	}
	taken := map[types.NamespacedName]bool{}
	gwByKey := map[types.NamespacedName]*gwv1.Gateway{}
	setByKey := map[types.NamespacedName]*gwv1.ListenerSet{}
	for _, g := range o.Gateways {
		if !j.TakesGateway(g) {
			continue
		}
		gw := Gateway{Object: objectOf(g), Class: string(g.Spec.GatewayClassName)}
		gw.DynamicModules = o.DynamicModules[gw.Key()]
		for _, l := range g.Spec.Listeners {
			gw.Listeners = append(gw.Listeners, string(l.Name))
			spec := specOf(l.Protocol, l.Port, l.Hostname, l.TLS)
			spec.Unserved = j.Serves != nil && !j.Serves(g, l.Name)
			gw.Specs = append(gw.Specs, spec)
		}
		taken[gw.Key()] = true
		gwByKey[gw.Key()] = g
		w.Gateways = append(w.Gateways, gw)
	}
	takenSets := map[types.NamespacedName]bool{}
	for _, s := range o.ListenerSets {
		ns := s.Namespace
		if s.Spec.ParentRef.Namespace != nil {
			ns = string(*s.Spec.ParentRef.Namespace)
		}
		ls := ListenerSet{Object: objectOf(s), Gateway: types.NamespacedName{Namespace: ns, Name: string(s.Spec.ParentRef.Name)}}
		if !taken[ls.Gateway] {
			continue
		}
		for _, l := range s.Spec.Listeners {
			ls.Listeners = append(ls.Listeners, string(l.Name))
			ls.Specs = append(ls.Specs, specOf(l.Protocol, l.Port, l.Hostname, l.TLS))
		}
		takenSets[ls.Key()] = true
		setByKey[ls.Key()] = s
		w.ListenerSets = append(w.ListenerSets, ls)
	}
	for _, ro := range o.Routes {
		kind, refs, rules := routeParts(ro)
		if kind == "" {
			continue
		}
		rt := Route{Object: objectOf(ro), Kind: kind, RuleNames: rules, Rules: ruleCount(ro)}
		rt.Hostnames, rt.Matches = hostMatches(ro)
		for _, ref := range refs {
			if !j.Handles(ro, ref) {
				continue
			}
			par := Parent{Kind: "Gateway", Namespace: ro.GetNamespace(), Name: string(ref.Name), SectionName: ref.SectionName}
			if ref.Kind != nil && *ref.Kind != "" {
				par.Kind = string(*ref.Kind)
			}
			if ref.Namespace != nil && *ref.Namespace != "" {
				par.Namespace = string(*ref.Namespace)
			}
			pkey := types.NamespacedName{Namespace: par.Namespace, Name: par.Name}
			if par.Kind == "Gateway" && !taken[pkey] || par.Kind == "ListenerSet" && !takenSets[pkey] {
				continue // a parent of another implementation's
			}
			par.Listeners = attachedListeners(kind, ref, par, gwByKey, setByKey)
			rt.Parents = append(rt.Parents, par)
		}
		if len(rt.Parents) > 0 {
			w.Routes = append(w.Routes, rt)
		}
	}
	return w
}

func specOf(p gwv1.ProtocolType, port gwv1.PortNumber, host *gwv1.Hostname, tls *gwv1.ListenerTLSConfig) ListenerSpec {
	s := ListenerSpec{Protocol: p, Port: port}
	if host != nil {
		s.Hostname = string(*host)
	}
	switch p {
	case gwv1.HTTPSProtocolType:
		s.Terminates = true
	case gwv1.TLSProtocolType:
		s.Terminates = tls != nil && (tls.Mode == nil || *tls.Mode == gwv1.TLSModeTerminate)
	}
	return s
}

func objectOf(o client.Object) Object {
	return Object{Namespace: o.GetNamespace(), Name: o.GetName(), Labels: o.GetLabels(), Created: o.GetCreationTimestamp()}
}

// routeParts returns a route's kind, parentRefs and rule names.
func routeParts(o client.Object) (kind string, refs []gwv1.ParentReference, rules []string) {
	add := func(n *gwv1.SectionName) {
		if n != nil {
			rules = append(rules, string(*n))
		}
	}
	switch r := o.(type) {
	case *gwv1.HTTPRoute:
		for _, x := range r.Spec.Rules {
			add(x.Name)
		}
		return "HTTPRoute", r.Spec.ParentRefs, rules
	case *gwv1.GRPCRoute:
		for _, x := range r.Spec.Rules {
			add(x.Name)
		}
		return "GRPCRoute", r.Spec.ParentRefs, rules
	case *gwv1.TLSRoute:
		for _, x := range r.Spec.Rules {
			add(x.Name)
		}
		return "TLSRoute", r.Spec.ParentRefs, rules
	case *gwv1.TCPRoute:
		for _, x := range r.Spec.Rules {
			add(x.Name)
		}
		return "TCPRoute", r.Spec.ParentRefs, rules
	case *gwv1.UDPRoute:
		for _, x := range r.Spec.Rules {
			add(x.Name)
		}
		return "UDPRoute", r.Spec.ParentRefs, rules
	}
	return "", nil, nil
}

// attachedListeners approximates the listeners a route attaches to
// through a parentRef: the one its sectionName names, else those whose
// protocol carries the route's kind and whose port matches the
// parentRef's. Hostnames and allowedRoutes are not looked at.
func attachedListeners(kind string, ref gwv1.ParentReference, par Parent, gws map[types.NamespacedName]*gwv1.Gateway, sets map[types.NamespacedName]*gwv1.ListenerSet) []string {
	if par.SectionName != nil {
		return []string{string(*par.SectionName)}
	}
	type l struct {
		name     string
		protocol gwv1.ProtocolType
		port     gwv1.PortNumber
	}
	var ls []l
	key := types.NamespacedName{Namespace: par.Namespace, Name: par.Name}
	if par.Kind == "ListenerSet" {
		if s := sets[key]; s != nil {
			for _, e := range s.Spec.Listeners {
				ls = append(ls, l{string(e.Name), e.Protocol, e.Port})
			}
		}
	} else if g := gws[key]; g != nil {
		for _, e := range g.Spec.Listeners {
			ls = append(ls, l{string(e.Name), e.Protocol, e.Port})
		}
	}
	var out []string
	for _, e := range ls {
		if ref.Port != nil && *ref.Port != e.port || !carries(e.protocol, kind) {
			continue
		}
		out = append(out, e.name)
	}
	return out
}

func carries(p gwv1.ProtocolType, kind string) bool {
	switch kind {
	case "HTTPRoute", "GRPCRoute":
		return p == gwv1.HTTPProtocolType || p == gwv1.HTTPSProtocolType
	case "TLSRoute":
		return p == gwv1.TLSProtocolType
	case "TCPRoute":
		return p == gwv1.TCPProtocolType || p == gwv1.TLSProtocolType
	case "UDPRoute":
		return p == gwv1.UDPProtocolType
	}
	return false
}

func ruleCount(o client.Object) int {
	switch r := o.(type) {
	case *gwv1.HTTPRoute:
		return len(r.Spec.Rules)
	case *gwv1.GRPCRoute:
		return len(r.Spec.Rules)
	case *gwv1.TLSRoute:
		return len(r.Spec.Rules)
	case *gwv1.TCPRoute:
		return len(r.Spec.Rules)
	case *gwv1.UDPRoute:
		return len(r.Spec.Rules)
	}
	return 0
}

// hostMatches returns an HTTPRoute's or GRPCRoute's hostnames and the
// number of matches of its rules (a rule without matches counts one).
func hostMatches(o client.Object) (hosts []string, matches int) {
	switch r := o.(type) {
	case *gwv1.HTTPRoute:
		for _, h := range r.Spec.Hostnames {
			hosts = append(hosts, string(h))
		}
		for _, x := range r.Spec.Rules {
			matches += max(1, len(x.Matches))
		}
	case *gwv1.GRPCRoute:
		for _, h := range r.Spec.Hostnames {
			hosts = append(hosts, string(h))
		}
		for _, x := range r.Spec.Rules {
			matches += max(1, len(x.Matches))
		}
	}
	return hosts, matches
}
