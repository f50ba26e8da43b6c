package egpolicy

import (
	"fmt"
	"slices"
	"testing"
	"time"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func nn(ns, name string) types.NamespacedName { return types.NamespacedName{Namespace: ns, Name: name} }

func world() *World {
	sec := gwv1.SectionName("http")
	return &World{
		Gateways: []Gateway{{Object: Object{Namespace: "ns", Name: "gw", Labels: map[string]string{"team": "a"}}, Listeners: []string{"http", "https"}}},
		Routes: []Route{
			{Object: Object{Namespace: "ns", Name: "r1"}, Kind: "HTTPRoute", RuleNames: []string{"a", "b"},
				Parents: []Parent{{Kind: "Gateway", Namespace: "ns", Name: "gw", SectionName: &sec}}},
			{Object: Object{Namespace: "ns", Name: "r2"}, Kind: "HTTPRoute",
				Parents: []Parent{{Kind: "Gateway", Namespace: "ns", Name: "gw"}}},
		},
	}
}

func ref(kind, name, section string) gwv1.LocalPolicyTargetReferenceWithSectionName {
	r := gwv1.LocalPolicyTargetReferenceWithSectionName{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{
		Group: gwv1.GroupName, Kind: gwv1.Kind(kind), Name: gwv1.ObjectName(name)}}
	if section != "" {
		s := gwv1.SectionName(section)
		r.SectionName = &s
	}
	return r
}

func policy(kind Kind, name string, age int, refs ...gwv1.LocalPolicyTargetReferenceWithSectionName) Policy {
	return Policy{Kind: kind, Namespace: "ns", Name: name, Created: metav1.NewTime(time.Unix(int64(1000-age), 0)),
		Targets: egv1a1.PolicyTargetReferences{TargetRefs: refs}}
}

// accepted sums a policy's ancestors as "ref:Type=Status/Reason" for the
// conditions Accepted and Overridden.
func summary(r *Result, kind Kind, name string) []string {
	var out []string
	for _, a := range r.Ancestors[kind][nn("ns", name)] {
		at := string(a.AncestorRef.Name)
		if a.AncestorRef.SectionName != nil {
			at += "/" + string(*a.AncestorRef.SectionName)
		}
		for _, typ := range []string{"Accepted", "Overridden"} {
			if c := meta.FindStatusCondition(a.Conditions, typ); c != nil {
				out = append(out, fmt.Sprintf("%s:%s=%s/%s", at, typ, c.Status, c.Reason))
			}
		}
	}
	return out
}

func TestAttachLevels(t *testing.T) {
	ps := []Policy{
		policy(BackendTraffic, "gw", 3, ref("Gateway", "gw", "")),
		policy(BackendTraffic, "listener", 2, ref("Gateway", "gw", "https")),
		policy(BackendTraffic, "route", 2, ref("HTTPRoute", "r1", "")),
		policy(BackendTraffic, "rule", 1, ref("HTTPRoute", "r1", "a")),
		policy(BackendTraffic, "no-rule", 1, ref("HTTPRoute", "r1", "zz")),
		policy(BackendTraffic, "no-listener", 1, ref("Gateway", "gw", "zz")),
		policy(BackendTraffic, "elsewhere", 1, ref("HTTPRoute", "missing", "")),
	}
	want := map[string][]string{
		"gw":          {"gw:Accepted=True/Accepted", "gw:Overridden=True/Overridden"},
		"listener":    {"gw/https:Accepted=True/Accepted"},
		"route":       {"gw/http:Accepted=True/Accepted", "gw/http:Overridden=True/Overridden"},
		"rule":        {"gw/http:Accepted=True/Accepted"},
		"no-rule":     {"gw/http:Accepted=False/TargetNotFound"},
		"no-listener": {"gw/zz:Accepted=False/TargetNotFound"},
		"elsewhere":   nil,
	}
	r := Attach(world(), ps, Options{ControllerName: "c"})
	for name, w := range want {
		if got := summary(r, BackendTraffic, name); !slices.Equal(got, w) {
			t.Errorf("%s: got %v, want %v", name, got, w)
		}
	}
	msg := r.Overridden[BackendTraffic][nn("ns", "gw")]
	if want := "This policy is being overridden by other backendTrafficPolicies for these gateway listeners: [ns/gw/https] and these routes: [ns/r1]"; msg != want {
		t.Errorf("gw overridden message:\n got %q\nwant %q", msg, want)
	}
}

// TestOldestWins checks that of two policies on one target the older is
// accepted and the younger Conflicted, whatever the input order, and by
// namespace/name when they are as old.
func TestOldestWins(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ageA, ageB int
		winner     string
	}{
		{"older wins", 1, 2, "b"},
		{"older wins, other way", 2, 1, "a"},
		{"same age: name", 1, 1, "a"},
	} {
		a := policy(Security, "a", tc.ageA, ref("HTTPRoute", "r2", ""))
		b := policy(Security, "b", tc.ageB, ref("HTTPRoute", "r2", ""))
		for _, order := range [][]Policy{{a, b}, {b, a}} {
			r := Attach(world(), order, Options{})
			for _, name := range []string{"a", "b"} {
				want := "gw:Accepted=False/Conflicted"
				if name == tc.winner {
					want = "gw:Accepted=True/Accepted"
				}
				if got := summary(r, Security, name); !slices.Equal(got, []string{want}) {
					t.Errorf("%s: %s: got %v, want %s", tc.name, name, got, want)
				}
			}
		}
	}
}

func TestSelectors(t *testing.T) {
	p := policy(ClientTraffic, "sel", 1)
	p.Targets.TargetSelectors = []egv1a1.TargetSelector{{Kind: "Gateway", MatchLabels: map[string]string{"team": "a"}}}
	q := policy(ClientTraffic, "none", 1)
	q.Targets.TargetSelectors = []egv1a1.TargetSelector{{Kind: "Gateway", MatchLabels: map[string]string{"team": "b"}}}
	r := Attach(world(), []Policy{p, q}, Options{})
	if got := summary(r, ClientTraffic, "sel"); !slices.Equal(got, []string{"gw:Accepted=True/Accepted"}) {
		t.Errorf("selected: %v", got)
	}
	if got := summary(r, ClientTraffic, "none"); got != nil {
		t.Errorf("selecting nothing: %v", got)
	}
}

func TestClientTrafficSections(t *testing.T) {
	ps := []Policy{
		policy(ClientTraffic, "whole", 2, ref("Gateway", "gw", "")),
		policy(ClientTraffic, "http", 1, ref("Gateway", "gw", "http")),
		policy(ClientTraffic, "http-again", 0, ref("Gateway", "gw", "http")),
	}
	r := Attach(world(), ps, Options{})
	for name, want := range map[string][]string{
		"whole":      {"gw:Accepted=True/Accepted", "gw:Overridden=True/Overridden"},
		"http":       {"gw/http:Accepted=True/Accepted"},
		"http-again": {"gw/http:Accepted=False/Conflicted"},
	} {
		if got := summary(r, ClientTraffic, name); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
}

func TestEffective(t *testing.T) {
	ps := []Policy{
		policy(BackendTraffic, "gw", 3, ref("Gateway", "gw", "")),
		policy(BackendTraffic, "rule", 1, ref("HTTPRoute", "r1", "a")),
		policy(Security, "listener", 1, ref("Gateway", "gw", "http")),
	}
	r := Attach(world(), ps, Options{})
	pt := Point{Gateway: nn("ns", "gw"), Listener: "http", RouteKind: "HTTPRoute", Route: nn("ns", "r1")}
	names := func(as []Applied) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.Policy.Name+"@"+a.Level.String())
		}
		return out
	}
	pt.Rule = "a"
	if got, want := names(r.Effective(pt)), []string{"rule@route rule", "listener@Gateway listener"}; !slices.Equal(got, want) {
		t.Errorf("rule a: got %v, want %v", got, want)
	}
	pt.Rule = "b"
	if got, want := names(r.Effective(pt)), []string{"gw@Gateway", "listener@Gateway listener"}; !slices.Equal(got, want) {
		t.Errorf("rule b: got %v, want %v", got, want)
	}
}

func TestAncestorCap(t *testing.T) {
	w := &World{}
	var refs []gwv1.LocalPolicyTargetReferenceWithSectionName
	for i := range 20 {
		name := fmt.Sprintf("gw%02d", i)
		w.Gateways = append(w.Gateways, Gateway{Object: Object{Namespace: "ns", Name: name}})
		refs = append(refs, ref("Gateway", name, ""))
	}
	r := Attach(w, []Policy{policy(BackendTraffic, "wide", 1, refs...)}, Options{})
	as := r.Ancestors[BackendTraffic][nn("ns", "wide")]
	if len(as) != MaxAncestors {
		t.Fatalf("got %d ancestors, want %d", len(as), MaxAncestors)
	}
	if !meta.IsStatusConditionTrue(as[MaxAncestors-1].Conditions, string(egv1a1.PolicyConditionAggregated)) {
		t.Errorf("last ancestor is not Aggregated: %+v", as[MaxAncestors-1])
	}
}

// TestSpecReferences checks that a policy whose extAuth Service is
// missing, or lacks the port, is Invalid where it attaches, and one whose
// Service has the port is accepted.
func TestSpecReferences(t *testing.T) {
	port := gwv1.PortNumber(9000)
	for _, tc := range []struct {
		name     string
		services map[types.NamespacedName]*corev1.Service
		want     string
	}{
		{"missing", nil, "gw:Accepted=False/Invalid"},
		{"no such port", map[types.NamespacedName]*corev1.Service{nn("ns", "auth"): {Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}}, "gw:Accepted=False/Invalid"},
		{"present", map[types.NamespacedName]*corev1.Service{nn("ns", "auth"): {Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 9000}}}}}, "gw:Accepted=True/Accepted"},
	} {
		w := world()
		w.Refs = &Refs{Services: tc.services}
		p := policy(Security, "sp", 1, ref("HTTPRoute", "r2", ""))
		p.Object = &egv1a1.SecurityPolicy{Spec: egv1a1.SecurityPolicySpec{ExtAuth: &egv1a1.ExtAuth{HTTP: &egv1a1.HTTPExtAuthService{
			BackendCluster: egv1a1.BackendCluster{BackendRefs: []egv1a1.BackendRef{{BackendObjectReference: gwv1.BackendObjectReference{Name: "auth", Port: &port}}}}}}}}
		r := Attach(w, []Policy{p}, Options{})
		if got := summary(r, Security, "sp"); !slices.Equal(got, []string{tc.want}) {
			t.Errorf("%s: got %v, want %s", tc.name, got, tc.want)
		}
	}
}
