package egpolicy

import (
	"fmt"
	"slices"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// A ClientTrafficPolicy is translated listener by listener (EG's
// ProcessClientTrafficPolicies), so whether EG refuses it depends on the
// listener as well as the spec: a plain HTTP listener that shares its
// port with another one cannot take settings of its own (Envoy serves
// both from one filter chain), and the HTTP and TLS settings apply only
// where the listener serves HTTP or terminates TLS.

// clientListener is one listener a ClientTrafficPolicy may be translated
// for.
type clientListener struct {
	gw   types.NamespacedName
	ls   *ListenerSet // nil for the Gateway's own listener
	name string
	spec ListenerSpec
}

// irName is the listener's name in EG's IR, which its messages quote.
func (l clientListener) irName() string {
	if l.ls != nil {
		return fmt.Sprintf("%s/%s/%s/%s/%s", l.gw.Namespace, l.gw.Name, l.ls.Namespace, l.ls.Name, l.name)
	}
	return fmt.Sprintf("%s/%s/%s", l.gw.Namespace, l.gw.Name, l.name)
}

// sectionKey is how a ClientTrafficPolicy claims the listener.
func (l clientListener) sectionKey() string {
	if l.ls != nil {
		return l.ls.Namespace + "/" + l.ls.Name + "/" + l.name
	}
	return l.name
}

// target and level name the listener as a policy on it would.
func (l clientListener) target() Target {
	if l.ls != nil {
		return Target{Kind: "ListenerSet", Namespace: l.ls.Namespace, Name: l.ls.Name, Section: l.name}
	}
	return Target{Kind: "Gateway", Namespace: l.gw.Namespace, Name: l.gw.Name, Section: l.name}
}

func (l clientListener) level() Level {
	if l.ls != nil {
		return LevelListenerSetListener
	}
	return LevelListener
}

// plainHTTP reports whether the listener is an HTTP listener without TLS,
// which Envoy tells apart from others on its port by nothing.
func (l clientListener) plainHTTP() bool {
	return l.spec.Protocol == gwv1.HTTPProtocolType && !l.spec.Unserved
}

// listenersOf returns a Gateway's listeners: its own, then its
// ListenerSets'.
func (x *index) listenersOf(gw types.NamespacedName) []clientListener {
	g := x.gateways[gw]
	if g == nil {
		return nil
	}
	var out []clientListener
	for i, n := range g.Listeners {
		out = append(out, clientListener{gw: gw, name: n, spec: specAt(g.Specs, i)})
	}
	for i := range x.w.ListenerSets {
		ls := &x.w.ListenerSets[i]
		if ls.Gateway != gw || x.listenerSets[ls.Key()] == nil {
			continue
		}
		for j, n := range ls.Listeners {
			out = append(out, clientListener{gw: gw, ls: ls, name: n, spec: specAt(ls.Specs, j)})
		}
	}
	return out
}

func specAt(s []ListenerSpec, i int) ListenerSpec {
	if i < len(s) {
		return s[i]
	}
	return ListenerSpec{}
}

// sameEnvoy returns the listeners Envoy serves together with gw's: its
// own, or, when its class merges Gateways, those of every Gateway of the
// class.
func (x *index) sameEnvoy(gw types.NamespacedName) []clientListener {
	g := x.gateways[gw]
	if g == nil || !x.w.MergedClasses[g.Class] {
		return x.listenersOf(gw)
	}
	var out []clientListener
	for _, o := range x.w.Gateways {
		if o.Class == g.Class {
			out = append(out, x.listenersOf(o.Key())...)
		}
	}
	return out
}

// ctpScope is what a ClientTrafficPolicy names: one listener, a whole
// Gateway or a whole ListenerSet.
type ctpScope int

const (
	scopeSection ctpScope = iota
	scopeGateway
	scopeListenerSet
)

// portProblem is EG's refusal of a policy on a plain HTTP listener that
// shares its port with others it does not also cover
// (validatePortOverlapForClientTrafficPolicy). A policy on a whole
// Gateway or ListenerSet covers the listeners whose IR name has its
// prefix (the quirk of comparing "ns/name" as a bare prefix is EG's).
func (x *index) portProblem(l clientListener, s ctpScope) string {
	if !l.plainHTTP() {
		return ""
	}
	var same []string
	for _, o := range x.sameEnvoy(l.gw) {
		if o.plainHTTP() && o.spec.Port == l.spec.Port && o.irName() != l.irName() {
			same = append(same, o.irName())
		}
	}
	if len(same) == 0 {
		return ""
	}
	if s != scopeSection {
		prefix := l.gw.Namespace + "/" + l.gw.Name
		if s == scopeListenerSet && l.ls != nil {
			prefix += "/" + l.ls.Namespace + "/" + l.ls.Name + "/"
		}
		var conflicting []string
		for _, n := range same {
			if !strings.HasPrefix(n, prefix) {
				conflicting = append(conflicting, n)
			}
		}
		same = conflicting
		if len(same) == 0 {
			return ""
		}
	}
	return fmt.Sprintf("ClientTrafficPolicy is being applied to multiple http (non https) listeners (%s) on the same port, which is not allowed", strings.Join(same, ", "))
}

// clientProblems are the errors EG meets translating the policy for the
// listener; closed reports whether EG then fails closed there (its HTTP
// routes answer 500, its TCP routes are dropped) rather than leaving the
// listener as it was (a port shared with other listeners).
func (x *index) clientProblems(p *Policy, l clientListener, s ctpScope) (errs []string, closed bool) {
	if m := x.portProblem(l, s); m != "" {
		return []string{m}, false
	}
	o, ok := p.Object.(*egv1a1.ClientTrafficPolicy)
	if !ok || l.spec.Unserved {
		return nil, false
	}
	errs = clientCommonProblems(&o.Spec)
	switch l.spec.Protocol {
	case gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType:
		errs = append(errs, clientHTTPProblems(&o.Spec, x.http10Problem(o, l))...)
	case gwv1.TLSProtocolType, gwv1.TCPProtocolType:
	default:
		return nil, false // no listener EG configures from the policy
	}
	if l.spec.Terminates {
		if m := clientTLSProblem(&o.Spec); m != "" {
			errs = append(errs, m)
		} else if o.Spec.TLS != nil {
			if m := x.clientValidationProblem(p, o.Spec.TLS.ClientValidation, x.now); m != "" {
				errs = append(errs, "TLS: "+m)
			}
		}
	}
	return errs, len(errs) > 0
}

// http10Problem: an HTTP/1.0 request carries no Host, so to give it a
// default host EG needs one hostname for the listener: its own when it
// is not a wildcard, else that of the one route on it with an exact
// hostname (each match of each rule is a route of EG's IR).
func (x *index) http10Problem(o *egv1a1.ClientTrafficPolicy, l clientListener) string {
	h := o.Spec.HTTP1
	if h == nil || h.HTTP10 == nil || h.HTTP10.UseDefaultHost == nil || !*h.HTTP10.UseDefaultHost {
		return ""
	}
	if l.spec.Hostname != "" && !strings.Contains(l.spec.Hostname, "*") {
		return ""
	}
	n := 0
	for _, rt := range x.w.Routes {
		if !x.attachesTo(rt, l) {
			continue
		}
		for _, host := range rt.Hostnames {
			if !strings.Contains(host, "*") && hostCovered(l.spec.Hostname, host) {
				n += rt.Matches
			}
		}
	}
	switch {
	case n == 0:
		return "cannot set http10 default host on listener with only wildcard hostnames"
	case n > 1:
		return "cannot set http10 default host on listener with only wildcard hostnames and more than one possible default route"
	}
	return ""
}

// attachesTo reports whether a route attaches to the listener through
// one of its parentRefs.
func (x *index) attachesTo(rt Route, l clientListener) bool {
	for _, par := range rt.Parents {
		key := types.NamespacedName{Namespace: par.Namespace, Name: par.Name}
		own := par.Kind != "ListenerSet" && l.ls == nil && key == l.gw
		viaSet := par.Kind == "ListenerSet" && l.ls != nil && key == l.ls.Key()
		if (own || viaSet) && slices.Contains(par.Listeners, l.name) {
			return true
		}
	}
	return false
}

// hostCovered reports whether a listener hostname ("" for any, or a
// wildcard) covers an exact host.
func hostCovered(listener, host string) bool {
	if listener == "" {
		return true
	}
	suffix, ok := strings.CutPrefix(listener, "*")
	return ok && strings.HasSuffix(host, suffix) && len(host) > len(suffix)
}
