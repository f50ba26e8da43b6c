package validate

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// BenchmarkCompile is the one-time cost of a kind and version: parsing its
// embedded CRD and building the structural schema, the schema validator
// and the CEL programs.
func BenchmarkCompile(b *testing.B) {
	for _, kind := range []string{"HTTPRoute", "Gateway", "GatewayClass"} {
		gvk := schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: kind}
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				if _, err := (&Validator{channel: Standard, compiles: &compileCache{entries: map[schema.GroupVersionKind]*entry{}}}).compiled(gvk); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
