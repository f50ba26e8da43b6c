package egpolicy

import (
	"slices"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// A SecurityPolicy whose authorization matches on the client's
// geolocation needs, on each HTTP listener it covers, the client IP that
// the listener's ClientTrafficPolicy detects (EG's
// validateAuthorizationGeoIP, in internal/gatewayapi/securitypolicy.go):
// EG refuses the policy, and answers 500 on that listener's routes, where
// no ClientTrafficPolicy sets clientIPDetection, where it sets other than
// exactly one way, or where it trusts X-Forwarded-For by CIDR. (EG then
// also needs the EnvoyProxy's geoIP provider; gwsim does not check it.)

// ListenerAt is one listener of a Gateway, directly or through a
// ListenerSet.
type ListenerAt struct {
	Gateway     types.NamespacedName
	ListenerSet *types.NamespacedName
	Name        string
}

func (l ListenerAt) point() Point {
	return Point{Gateway: l.Gateway, ListenerSet: l.ListenerSet, Listener: l.Name}
}

// usesGeoLocation reports whether an authorization rule matches on the
// client's geolocation.
func usesGeoLocation(sp *egv1a1.SecurityPolicy) bool {
	a := sp.Spec.Authorization
	return a != nil && slices.ContainsFunc(a.Rules, func(r egv1a1.AuthorizationRule) bool {
		return r.Principal != nil && len(r.Principal.ClientIPGeoLocations) > 0
	})
}

// geoProblem is the error EG finds for the listener's client IP
// detection, "" when there is none.
func (a *attacher) geoProblem(l ListenerAt) string {
	var d *egv1a1.ClientIPDetectionSettings
	for _, ap := range a.r.Effective(l.point()) {
		if ctp, ok := ap.Policy.Object.(*egv1a1.ClientTrafficPolicy); ok && (ap.Invalid == "" || ap.FailsClosed) {
			d = ctp.Spec.ClientIPDetection
		}
	}
	if d == nil {
		return "Authorization: authorization clientIPGeoLocations requires ClientTrafficPolicy.spec.clientIPDetection to be configured"
	}
	n := 0
	for _, set := range []bool{d.XForwardedFor != nil, d.CustomHeader != nil, d.DirectSourceIP != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return "Authorization: authorization clientIPGeoLocations requires exactly one of ClientTrafficPolicy.spec.clientIPDetection.{xForwardedFor,customHeader,directSourceIP}"
	}
	if d.XForwardedFor != nil && len(d.XForwardedFor.TrustedCIDRs) > 0 {
		return "Authorization: authorization clientIPGeoLocations does not support ClientIPDetection.XForwardedFor.TrustedCIDRs"
	}
	return ""
}

// coveredListeners are the HTTP listeners a target reaches: a route's
// through its parentRefs, a Gateway's or ListenerSet's own (one when it
// names a section).
func (a *attacher) coveredListeners(t Target) []ListenerAt {
	key := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	var out []ListenerAt
	switch t.Kind {
	case "Gateway", "ListenerSet":
		var ls *ListenerSet
		gw := key
		if t.Kind == "ListenerSet" {
			if ls = a.x.listenerSets[key]; ls == nil {
				return nil
			}
			gw = ls.Gateway
		}
		for _, l := range a.x.listenersOf(gw) {
			if l.ls != ls || t.Section != "" && l.name != t.Section ||
				l.spec.Protocol != gwv1.HTTPProtocolType && l.spec.Protocol != gwv1.HTTPSProtocolType {
				continue
			}
			at := ListenerAt{Gateway: gw, Name: l.name}
			if ls != nil {
				k := ls.Key()
				at.ListenerSet = &k
			}
			out = append(out, at)
		}
	default:
		rt := a.x.routes[routeKey{t.Kind, key}]
		if rt == nil {
			return nil
		}
		for _, par := range rt.Parents {
			pkey := types.NamespacedName{Namespace: par.Namespace, Name: par.Name}
			for _, n := range par.Listeners {
				at := ListenerAt{Gateway: pkey, Name: n}
				if par.Kind == "ListenerSet" {
					ls := a.x.listenerSets[pkey]
					if ls == nil {
						continue
					}
					at.Gateway, at.ListenerSet = ls.Gateway, &pkey
				}
				out = append(out, at)
			}
		}
	}
	return out
}

// geoProblems returns EG's error for a SecurityPolicy matching on
// geolocation, and the listeners where it fails.
func (a *attacher) geoProblems(p *Policy, t Target) (msg string, failing []ListenerAt) {
	sp, ok := p.Object.(*egv1a1.SecurityPolicy)
	if !ok || !usesGeoLocation(sp) {
		return "", nil
	}
	for _, l := range a.coveredListeners(t) {
		if m := a.geoProblem(l); m != "" {
			if msg == "" {
				msg = m
			}
			failing = append(failing, l)
		}
	}
	return msg, failing
}
