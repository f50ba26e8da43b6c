package synth_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/bench/synth"
	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/translate"
)

func TestGenerateIsDeterministic(t *testing.T) {
	opts := synth.Options{Routes: 500, Gateways: 3, Namespaces: 7, TLS: true, Seed: 42}
	a, b := synth.Generate(opts), synth.Generate(opts)
	if len(a.Files) != len(b.Files) {
		t.Fatalf("%d files, then %d", len(a.Files), len(b.Files))
	}
	for i := range a.Files {
		if a.Files[i].Name != b.Files[i].Name || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
			t.Errorf("file %d (%s) differs between two runs", i, a.Files[i].Name)
		}
	}
	opts.Seed++
	c := synth.Generate(opts)
	if bytes.Equal(a.Files[1].Data, c.Files[1].Data) {
		t.Errorf("seeds %d and %d gave the same %s", opts.Seed-1, opts.Seed, a.Files[1].Name)
	}
}

func TestGenerateCounts(t *testing.T) {
	for _, tc := range []struct {
		opts                                  synth.Options
		gateways, secrets, namespaces, grants int
	}{
		{opts: synth.Options{Routes: 1000}, gateways: 10, namespaces: 101, grants: 100},
		{opts: synth.Options{Routes: 300, Gateways: 2, Namespaces: 5, TLS: true}, gateways: 2, secrets: 2, namespaces: 6, grants: 5},
		{opts: synth.Options{Routes: 3, Gateways: 1, Namespaces: 1}, gateways: 1, namespaces: 2},
	} {
		t.Run(fmt.Sprint(tc.opts), func(t *testing.T) {
			c := synth.Generate(tc.opts).Counts
			routes := c["HTTPRoute"] + c["GRPCRoute"] + c["TLSRoute"]
			want := map[string]int{
				"routes": tc.opts.Routes, "Service": tc.opts.Routes, "EndpointSlice": tc.opts.Routes,
				"Gateway": tc.gateways, "Secret": tc.secrets, "Namespace": tc.namespaces,
				"ReferenceGrant": tc.grants, "GatewayClass": 1,
			}
			got := map[string]int{"routes": routes}
			for k := range want {
				if k != "routes" {
					got[k] = c[k]
				}
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%s: got %d, want %d", k, got[k], n)
				}
			}
		})
	}
}

// TestGeneratedSetIsClean runs small sets through the same pipeline as the
// CLI and checks that nothing is reported and that every route is accepted
// with resolved references by every parent: the benchmarks must measure
// the path a healthy repository takes.
func TestGeneratedSetIsClean(t *testing.T) {
	for _, opts := range []synth.Options{
		{Routes: 400, Gateways: 3, Namespaces: 10, TLS: true, Seed: 7},
		{Routes: 200, Gateways: 2, Namespaces: 4, Seed: 8},
	} {
		t.Run(fmt.Sprintf("tls=%v", opts.TLS), func(t *testing.T) {
			dir := t.TempDir()
			if err := synth.Generate(opts).WriteDir(dir); err != nil {
				t.Fatal(err)
			}
			loaded := load.Load(load.Options{Paths: []string{dir}})
			if len(loaded.Errors)+len(loaded.Findings) > 0 {
				t.Fatalf("loading: %v %v", loaded.Errors, loaded.Findings)
			}
			objs, assumed := load.AssumeMissing(loaded.Objects, "gwsim.dev/gateway-controller")
			if len(assumed) > 0 {
				t.Errorf("gwsim had to assume: %v", assumed)
			}
			res, err := offline.Run(context.Background(), objs, loaded.Sources, offline.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range append(res.Output.Findings, translate.ConditionFindings(res.Objects, loaded.Sources)...) {
				if f.Severity >= diag.Warning {
					t.Errorf("finding: %s", f)
				}
			}
			if n := checkRoutes(t, res.Objects); n != opts.Routes {
				t.Errorf("checked %d routes, want %d", n, opts.Routes)
			}
		})
	}
}

// checkRoutes checks that every route has one parent status, Accepted and
// ResolvedRefs, and returns the number of routes.
func checkRoutes(t *testing.T, objs []client.Object) int {
	t.Helper()
	n := 0
	for _, o := range objs {
		var parents []gwv1.RouteParentStatus
		switch r := o.(type) {
		case *gwv1.HTTPRoute:
			parents = r.Status.Parents
		case *gwv1.GRPCRoute:
			parents = r.Status.Parents
		case *gwv1.TLSRoute:
			parents = r.Status.Parents
		default:
			continue
		}
		n++
		if len(parents) != 1 {
			t.Errorf("%s/%s: %d parent statuses, want 1", o.GetNamespace(), o.GetName(), len(parents))
			continue
		}
		for _, c := range []gwv1.RouteConditionType{gwv1.RouteConditionAccepted, gwv1.RouteConditionResolvedRefs} {
			if !meta.IsStatusConditionTrue(parents[0].Conditions, string(c)) {
				t.Errorf("%s/%s: %s is not True: %v", o.GetNamespace(), o.GetName(), c, conditions(parents[0].Conditions))
			}
		}
	}
	return n
}

func conditions(cs []metav1.Condition) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason))
	}
	return out
}
