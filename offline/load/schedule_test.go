package load

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestSniffKind(t *testing.T) {
	route := schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "HTTPRoute"}
	tests := []struct {
		name, doc string
		want      schema.GroupVersionKind
		ok        bool
	}{
		{"usual", "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n", route, true},
		{"kind first, CRLF, trailing spaces", "kind: HTTPRoute \r\napiVersion: gateway.networking.k8s.io/v1\r\n", route, true},
		{"core group", "apiVersion: v1\nkind: Service\n", schema.GroupVersionKind{Version: "v1", Kind: "Service"}, true},
		{"no kind", "apiVersion: v1\nmetadata: {}\n", schema.GroupVersionKind{}, false},
		{"quoted", "apiVersion: \"v1\"\nkind: Service\n", schema.GroupVersionKind{}, false},
		{"comment", "apiVersion: v1\nkind: Service # a comment\n", schema.GroupVersionKind{}, false},
		{"nested only", "spec:\n  kind: Service\n  apiVersion: v1\n", schema.GroupVersionKind{}, false},
		{"empty value", "apiVersion:\nkind: Service\n", schema.GroupVersionKind{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := sniffKind([]byte(tt.doc))
			if ok != tt.ok || got != tt.want {
				t.Errorf("sniffKind = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestDecodedDocsKeepsOrder(t *testing.T) {
	var ds decodedDocs
	const n = 2*decodedChunk + 5
	for i := n - 1; i >= 0; i-- {
		ds.set(i, decoded{ignored: make([]schema.GroupKind, i)})
	}
	i := 0
	for d := range ds.all() {
		if len(d.ignored) != i {
			t.Fatalf("document %d holds the result of %d", i, len(d.ignored))
		}
		i++
	}
	if i != n {
		t.Errorf("yielded %d documents, want %d", i, n)
	}
}
