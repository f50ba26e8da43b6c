package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/bench/synth"
)

// BenchmarkAdmitHTTPRoute is the library's cost per HTTPRoute of the
// generated 1k set (bench/synth), one object at a time on one goroutine:
// prune, default, schema, list types and CEL, compiled once beforehand.
// This is the straightforward use of apiextensions-apiserver that issue
// 12 measured; gwsim's loader does exactly this work per object, spread
// over GOMAXPROCS workers (see BenchmarkDecode in bench/).
func BenchmarkAdmitHTTPRoute(b *testing.B) {
	routes := synthRoutes(b, 1000)
	v := New(Standard)
	if _, err := v.compiled(httpRouteV1); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		obj := object(b, routes[n%len(routes)])
		n++
		res, err := v.Admit(httpRouteV1, obj)
		if err != nil || len(res.Errors) > 0 {
			b.Fatalf("Admit: %v %v", err, res.Errors)
		}
	}
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
