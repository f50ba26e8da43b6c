package controller

import (
	"bufio"
	"crypto/sha256"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// settledSlices remembers, per Gateway, the fingerprint of the slice its
// last reconcile left behind (after its own writes). The zero value is
// ready to use and safe for concurrent reconciles.
type settledSlices struct {
	mu   sync.Mutex
	last map[types.NamespacedName]sliceFingerprint
}

// sliceFingerprint is the SHA-256 of a slice's description (see
// fingerprint): a few bytes to keep per Gateway instead of a string that
// names every object of its slice.
type sliceFingerprint [sha256.Size]byte

// unchanged reports whether the Gateway's slice is as its last reconcile
// left it.
func (m *settledSlices) unchanged(gw types.NamespacedName, fingerprint sliceFingerprint) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	last, ok := m.last[gw]
	return ok && last == fingerprint
}

func (m *settledSlices) record(gw types.NamespacedName, fingerprint sliceFingerprint) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil {
		m.last = map[types.NamespacedName]sliceFingerprint{}
	}
	m.last[gw] = fingerprint
}

// fingerprint names every object the slice holds, in gather order, with
// its resourceVersion. Objects the reconcile wrote carry the version the
// write returned, so a fingerprint taken after the writes describes the
// slice as the next reconcile will gather it if nobody else writes. Every
// []*T field of translate.Input whose T is a client.Object counts, so a kind
// added to Input is covered without a change here. The description is
// hashed as it is written, so that no string of it is built: SHA-256 makes
// two different slices with the same fingerprint a practical impossibility.
func (s *slice) fingerprint() sliceFingerprint {
	h := sha256.New()
	b := bufio.NewWriterSize(h, 4096)
	add := func(o client.Object) {
		b.WriteString(o.GetNamespace())
		b.WriteByte('/')
		b.WriteString(o.GetName())
		b.WriteByte('@')
		b.WriteString(o.GetResourceVersion())
		b.WriteByte(' ')
	}
	in := reflect.ValueOf(s.in)
	for i := range in.NumField() {
		f := in.Field(i)
		if f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Pointer {
			continue
		}
		b.WriteString(in.Type().Field(i).Name)
		b.WriteByte(':')
		for j := range f.Len() {
			if o, ok := f.Index(j).Interface().(client.Object); ok {
				add(o)
			}
		}
	}
	b.WriteString("ancestors:")
	for _, p := range s.ancestorPolicies {
		add(p)
	}
	b.Flush() // writing to a hash never fails
	var out sliceFingerprint
	h.Sum(out[:0])
	return out
}
