package translate

import (
	"math/rand/v2"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
