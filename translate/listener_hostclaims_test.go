package translate

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestClaimIndexMatchesScan checks the index against its definition: the
// first claim, in order, whose hostnames intersect (hostnamesIntersect).
// Names come from a small alphabet so that equal names, covering wildcards,
// odd wildcards, "*" and mixed case all occur often.
func TestClaimIndexMatchesScan(t *testing.T) {
	parts := []string{"*", "a", "b", "A", "x.a", "b.x", "*.a", "*.x.a", "*.b", "*a", "a.b.x"}
	rng := rand.New(rand.NewPCG(7, 11))
	name := func() string {
		n := parts[rng.IntN(len(parts))]
		if rng.IntN(2) == 0 && n != "*" {
			n += "." + parts[1+rng.IntN(2)]
		}
		return n
	}
	names := func() []string {
		out := make([]string, rng.IntN(3))
		for i := range out {
			out[i] = name()
		}
		return out
	}
	check := func(round int, ix *claimIndex, claims []hostClaim, hosts []string) {
		t.Helper()
		want := -1
		for i, c := range claims {
			if _, ok := hostnamesIntersect(c.hostnames, hosts); ok {
				want = i
				break
			}
		}
		got, ok := ix.firstIntersecting(hosts)
		switch {
		case want < 0 && ok:
			t.Fatalf("round %d: claims %v, hosts %v: index found %v, scan found none", round, claims, hosts, got.hostnames)
		case want >= 0 && !ok:
			t.Fatalf("round %d: claims %v, hosts %v: index found none, scan found claim %d", round, claims, hosts, want)
		case want >= 0 && got.route.meta.Name != claims[want].route.meta.Name || want >= 0 && !sameStrings(got.hostnames, claims[want].hostnames):
			t.Fatalf("round %d: claims %v, hosts %v: index found %v, scan found claim %d %v", round, claims, hosts, got.hostnames, want, claims[want].hostnames)
		}
	}
	for round := range 5000 {
		var ix claimIndex
		var claims []hostClaim
		for range rng.IntN(12) {
			c := hostClaim{hostnames: names()}
			c.route.meta = &metav1.ObjectMeta{Name: name()}
			claims = append(claims, c)
			ix.add(c)
			// Questions between claims, as resolveKindConflicts asks
			// them: the index builds parts of itself on first use.
			if rng.IntN(3) == 0 {
				check(round, &ix, claims, names())
			}
		}
		check(round, &ix, claims, names())
	}
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestConflictCandidatesKeepTheOutcome checks that resolveKindConflicts,
// which orders only the routes conflictCandidates marks (found on one to
// three workers), refuses the same attachments with the same messages and
// findings as the ordered pass over every HTTPRoute and GRPCRoute, on
// random routes of both kinds attached to a few listeners with names from
// a small alphabet (so that exact names, wildcards and "*" meet often).
func TestConflictCandidatesKeepTheOutcome(t *testing.T) {
	hosts := []string{"*", "a.x", "b.x", "*.x", "c.a.x", "*.a.x", "y", "A.X"}
	refusing, filtered := 0, 0 // seeds where a route was refused, or left out of the ordered pass
	for seed := range uint64(300) {
		build := func() ([]*routeResult, [][]*parentResult) {
			rng := rand.New(rand.NewPCG(seed, 3))
			gw := &gatewayResult{nsName: "infra/gw"}
			listeners := make([]*listenerResult, 1+rng.IntN(3))
			for i := range listeners {
				listeners[i] = &listenerResult{spec: gwv1.Listener{Name: gwv1.SectionName("l" + strconv.Itoa(i))}}
			}
			var routes []*routeResult
			var parents [][]*parentResult
			for i := range rng.IntN(14) {
				kind := gwv1.Kind("HTTPRoute")
				if rng.IntN(2) == 0 {
					kind = "GRPCRoute"
				}
				meta := &metav1.ObjectMeta{Namespace: "ns", Name: "r" + strconv.Itoa(i), CreationTimestamp: metav1.Unix(int64(rng.IntN(3)), 0)}
				routes = append(routes, &routeResult{info: routeInfo{kind: kind, meta: meta}})
				var ps []*parentResult
				for j := range 1 + rng.IntN(2) {
					p := &parentResult{index: j, gateway: gw}
					for _, l := range listeners {
						if rng.IntN(3) > 0 {
							names := make([]string, 1+rng.IntN(2))
							for k := range names {
								names[k] = hosts[rng.IntN(len(hosts))]
							}
							p.attached = append(p.attached, attachment{listener: l, hostnames: names})
						}
					}
					ps = append(ps, p)
				}
				parents = append(parents, ps)
			}
			return routes, parents
		}
		w := &world{}
		routes, parents := build()
		if slices.Contains(conflictCandidates(routes, parents, 1+int(seed%3)), false) {
			filtered++
		}
		got := w.resolveKindConflicts(routes, parents, 1+int(seed%3))
		allRoutes, allParents := build()
		all := make([]bool, len(allRoutes))
		for i := range all {
			all[i] = true
		}
		want := w.resolveKindConflictsAmong(allRoutes, allParents, all)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: findings differ:\n got %v\nwant %v", seed, got, want)
		}
		for i := range parents {
			for j := range parents[i] {
				g, x := parents[i][j], allParents[i][j]
				if x.accepted.Reason != "" { // set only where an attachment was refused
					refusing++
				}
				if g.accepted != x.accepted || len(g.attached) != len(x.attached) {
					t.Fatalf("seed %d, route %d parent %d: got %v %d attachments, want %v %d", seed, i, j, g.accepted, len(g.attached), x.accepted, len(x.attached))
				}
				for k := range g.attached {
					if g.attached[k].listener.spec.Name != x.attached[k].listener.spec.Name {
						t.Fatalf("seed %d, route %d parent %d: attachment %d differs", seed, i, j, k)
					}
				}
			}
		}
	}
	if refusing < 30 || filtered < 30 {
		t.Fatalf("%d refused parents and %d filtered sets in 300 seeds: the test no longer exercises the filter", refusing, filtered)
	}
}
