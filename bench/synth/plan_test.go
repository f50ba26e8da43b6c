package synth

import "testing"

// TestPlanShares checks the mix the benchmarks rely on: route kinds, splits
// and cross-namespace backends in roughly the stated shares.
func TestPlanShares(t *testing.T) {
	const n = 5000
	p := newPlan(Options{Routes: n, Seed: 3}.withDefaults())
	kinds := map[routeKind]int{}
	splits, cross := 0, 0
	for _, r := range p.routes {
		kinds[r.kind]++
		if r.other != nil {
			splits++
			if r.other.ns != r.ns {
				cross++
			}
		}
	}
	for _, tc := range []struct {
		what     string
		got      int
		min, max float64
	}{
		{"HTTPRoutes", kinds[httpRoute], 0.80 * n, 0.90 * n},
		{"GRPCRoutes", kinds[grpcRoute], 0.07 * n, 0.13 * n},
		{"TLSRoutes", kinds[tlsRoute], 0.03 * n, 0.07 * n},
		{"splits", splits, 0.90 * n, 0.95 * n},
		{"cross-namespace splits", cross, 0.07 * float64(splits), 0.13 * float64(splits)},
	} {
		if float64(tc.got) < tc.min || float64(tc.got) > tc.max {
			t.Errorf("%s: %d, want between %.0f and %.0f", tc.what, tc.got, tc.min, tc.max)
		}
	}
}
