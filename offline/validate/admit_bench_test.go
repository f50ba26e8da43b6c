package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/gwsim/gwsim/bench/synth"
	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// BenchmarkAdmitHTTPRoute is gwsim's cost of admitting one HTTPRoute of
// the generated 1k set (bench/synth), one object at a time on one
// goroutine: the fast walk (prune, default, schema and list types),
// metadata validation and CEL, compiled once beforehand. Decoding the
// objects is not timed. BenchmarkAdmitHTTPRouteLibrary is the same work
// through the library alone; the two are issue 12's ratio.
func BenchmarkAdmitHTTPRoute(b *testing.B) {
	benchmarkAdmit(b, (*compiled).admit)
}

// BenchmarkAdmitHTTPRouteLibrary is the straightforward use of
// apiextensions-apiserver that issue 12 measured, and the baseline of
// BenchmarkAdmitHTTPRoute: prune, default, schema, list types and CEL
// through the library, compiled once beforehand.
func BenchmarkAdmitHTTPRouteLibrary(b *testing.B) {
	benchmarkAdmit(b, (*compiled).admitLibrary)
}

func benchmarkAdmit(b *testing.B, admit func(*compiled, map[string]any) Result) {
	routes := synthRoutes(b, 1000)
	c, err := New(Standard).compiled(httpRouteV1)
	if err != nil {
		b.Fatal(err)
	}
	originals := make([]map[string]any, len(routes))
	for i, r := range routes {
		originals[i] = object(b, r)
	}
	// The library's CEL programs are compiled on first use: not timed.
	admit(c, admission.CopyJSONValue(originals[0]).(map[string]any))
	benchmarkCopies(b, originals, func(obj map[string]any) {
		if res := admit(c, obj); len(res.Errors) > 0 {
			b.Fatalf("Admit: %v", res.Errors)
		}
	})
}

// synthRoutes returns the HTTPRoute documents of the standard generated set
// of size n.
func synthRoutes(b *testing.B, n int) []string {
	dir := b.TempDir()
	if err := synth.Generate(synth.Standard(n)).WriteDir(dir); err != nil {
		b.Fatal(err)
	}
	var routes []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, doc := range strings.Split(string(data), "\n---\n") {
			if strings.Contains(doc, "\nkind: HTTPRoute\n") {
				routes = append(routes, doc)
			}
		}
		return nil
	})
	if err != nil || len(routes) == 0 {
		b.Fatalf("no HTTPRoutes in the generated set (%v)", err)
	}
	return routes
}

// BenchmarkAdmitHTTPRouteStages splits BenchmarkAdmitHTTPRoute into its
// parts, to show where the time goes: admission without the CEL rules
// (gwsim's and the library's), the fast walk alone, metadata validation
// alone, and the CEL rules alone (on admitted objects).
func BenchmarkAdmitHTTPRouteStages(b *testing.B) {
	routes := synthRoutes(b, 1000)
	c, err := New(Standard).compiled(httpRouteV1)
	if err != nil {
		b.Fatal(err)
	}
	originals := make([]map[string]any, len(routes))
	admitted := make([]map[string]any, len(routes))
	for i, r := range routes {
		originals[i] = object(b, r)
		admitted[i] = object(b, r)
		c.admit(admitted[i])
	}
	// Everything but CEL, both ways: the part the fast walk replaces.
	noCEL := &compiled{structural: c.structural, schemaValidator: c.schemaValidator, namespaced: c.namespaced, walk: c.walk, defaults: c.defaults}
	b.Run("noCEL", func(b *testing.B) {
		benchmarkCopies(b, originals, func(obj map[string]any) { noCEL.admit(obj) })
	})
	b.Run("noCELLibrary", func(b *testing.B) {
		benchmarkCopies(b, originals, func(obj map[string]any) { noCEL.admitLibrary(obj) })
	})
	b.Run("walk", func(b *testing.B) {
		benchmarkCopies(b, originals, func(obj map[string]any) {
			if _, at, ok := admission.Walk(c.walk, obj); !ok {
				b.Fatalf("the fast walk declined a generated route at %q", at)
			}
		})
	})
	b.Run("meta", func(b *testing.B) {
		benchmarkCopies(b, admitted, func(obj map[string]any) {
			if errs := c.validateMeta(obj, true); len(errs) > 0 {
				b.Fatal(errs)
			}
		})
	})
	b.Run("cel", func(b *testing.B) {
		benchmarkCopies(b, admitted, func(obj map[string]any) {
			if errs, _ := c.cel.Validate(context.TODO(), nil, c.structural, obj, nil, celconfig.RuntimeCELCostBudget); len(errs) > 0 {
				b.Fatal(errs)
			}
		})
	})
}

// benchmarkCopies times f on fresh copies of objs, one per call, made
// with the timer stopped.
func benchmarkCopies(b *testing.B, objs []map[string]any, f func(map[string]any)) {
	batch := make([]map[string]any, len(objs))
	refill := func() {
		for i, o := range objs {
			batch[i] = admission.CopyJSONValue(o).(map[string]any)
		}
	}
	refill()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if n == len(batch) {
			b.StopTimer()
			refill()
			n = 0
			b.StartTimer()
		}
		f(batch[n])
		n++
	}
}
