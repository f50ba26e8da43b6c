package load

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// mergeStringData does what the API server does with a Secret's
// stringData, a write-only convenience field: each key is copied into data
// (a stringData value wins over a data value of the same key) and
// stringData is cleared. Manifests often write certificates and CA bundles
// as stringData; without the merge they would look empty.
func mergeStringData(obj client.Object) {
	s, ok := obj.(*corev1.Secret)
	if !ok || len(s.StringData) == 0 {
		return
	}
	if s.Data == nil {
		s.Data = make(map[string][]byte, len(s.StringData))
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
}
