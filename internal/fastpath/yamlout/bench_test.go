package yamlout

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// benchValue is every golden IR and status document, repeated: about 7 MB
// of the shapes gwsim prints.
func benchValue(b *testing.B) any {
	b.Helper()
	files, _ := filepath.Glob("../../../golden/*/*.yaml")
	var docs []any
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		var v any
		if yaml.Unmarshal(data, &v) == nil && v != nil {
			docs = append(docs, v)
		}
	}
	if len(docs) == 0 {
		b.Fatal("no golden documents")
	}
	var all []any
	for range 20 {
		all = append(all, docs...)
	}
	return map[string]any{"items": all}
}

func BenchmarkMarshal(b *testing.B) {
	v := benchValue(b)
	b.ReportAllocs()
	for b.Loop() {
		out, err := Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(out)))
	}
}

func BenchmarkEncode(b *testing.B) {
	v := benchValue(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := Encode(io.Discard, v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSigsYAML(b *testing.B) {
	v := benchValue(b)
	b.ReportAllocs()
	for b.Loop() {
		out, err := yaml.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(out)))
	}
}

// BenchmarkJSONToYAML and BenchmarkSigsJSONToYAML compare the YAML half
// alone, on the JSON that both Marshal functions start from.
func BenchmarkJSONToYAML(b *testing.B) {
	j := benchJSON(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := convert(j); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSigsJSONToYAML(b *testing.B) {
	j := benchJSON(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := yaml.JSONToYAML(j); err != nil {
			b.Fatal(err)
		}
	}
}

func benchJSON(b *testing.B) []byte {
	j, err := json.Marshal(benchValue(b))
	if err != nil {
		b.Fatal(err)
	}
	return j
}
