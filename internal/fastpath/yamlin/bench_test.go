package yamlin

import (
	"testing"

	"sigs.k8s.io/yaml"
)

// The benchmarks convert every document of a generated set of 1000 routes
// once per iteration, so their ns/op compare directly.

func BenchmarkConvert(b *testing.B) {
	docs := synthDocs(nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, doc := range docs {
			if _, ok := Convert(doc); !ok {
				b.Fatalf("fast path bailed on\n%s", doc)
			}
		}
	}
}

func BenchmarkYAMLToJSONStrict(b *testing.B) {
	docs := synthDocs(nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, doc := range docs {
			if _, err := yaml.YAMLToJSONStrict(doc); err != nil {
				b.Fatal(err)
			}
		}
	}
}
