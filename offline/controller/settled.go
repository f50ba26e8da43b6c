package controller

import (
	"reflect"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// settledSlices remembers, per Gateway, the fingerprint of the slice its
// last reconcile left behind (after its own writes). The zero value is
// ready to use and safe for concurrent reconciles.
type settledSlices struct {
	mu   sync.Mutex
	last map[types.NamespacedName]string
}

// unchanged reports whether the Gateway's slice is as its last reconcile
// left it.
func (m *settledSlices) unchanged(gw types.NamespacedName, fingerprint string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	last, ok := m.last[gw]
	return ok && last == fingerprint
}

func (m *settledSlices) record(gw types.NamespacedName, fingerprint string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil {
		m.last = map[types.NamespacedName]string{}
	}
	m.last[gw] = fingerprint
}

// fingerprint names every object the slice holds, in gather order, with
// its resourceVersion. Objects the reconcile wrote carry the version the
// write returned, so a fingerprint taken after the writes describes the
// slice as the next reconcile will gather it if nobody else writes. Every
// []*T field of translate.Input whose T is a client.Object counts, so a kind
// added to Input is covered without a change here.
func (s *slice) fingerprint() string {
	var b strings.Builder
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
	return b.String()
}
