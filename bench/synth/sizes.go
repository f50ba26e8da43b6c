package synth

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// SizesEnv names the environment variable that chooses the route counts
// the benchmarks run at, comma-separated ("1000,10000,100000"). Without it
// they run at 1k and 10k, so that a plain `make bench` stays short; 100k
// takes minutes per benchmark.
const SizesEnv = "GWSIM_BENCH_SIZES"

// Standard is the set the benchmarks and bench/run.sh measure at a given
// number of routes: 10 Gateways with TLS, 100 namespaces, seed 1. Fixing
// everything but the route count is what makes cost per route comparable
// across sizes (a stage that is quadratic in routes per Gateway shows).
func Standard(routes int) Options {
	return Options{Routes: routes, Gateways: 10, Namespaces: 100, TLS: true, Seed: 1}
}

// Sizes returns the route counts from SizesEnv, or 1k and 10k.
func Sizes() ([]int, error) {
	v := os.Getenv(SizesEnv)
	if v == "" {
		return []int{1000, 10000}, nil
	}
	var out []int
	for f := range strings.SplitSeq(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s=%q: %q is not a positive route count", SizesEnv, v, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// SizeName is a sub-benchmark name for n routes: "routes=10k".
func SizeName(n int) string {
	switch {
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("routes=%dk", n/1000)
	default:
		return fmt.Sprintf("routes=%d", n)
	}
}
