package validate

import (
	"strings"
	"testing"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// libraryMetaErrors is the API server's metadata validation, the
// reference admission.MetaValid answers for.
func libraryMetaErrors(meta *metav1.ObjectMeta, namespaced bool) field.ErrorList {
	return metavalidation.ValidateObjectMeta(meta, namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
}

// checkMetaValid fails t when admission.MetaValid says valid and the library finds
// an error, or when the library finds none for metadata admission.MetaValid claims
// to decide (what manifests hold: no generateName, generation, owner
// references, finalizers or managed fields) and admission.MetaValid declines.
func checkMetaValid(t *testing.T, where string, meta *metav1.ObjectMeta) {
	t.Helper()
	for _, namespaced := range []bool{true, false} {
		got := admission.MetaValid(meta, namespaced)
		errs := libraryMetaErrors(meta, namespaced)
		switch {
		case got && len(errs) > 0:
			t.Errorf("%s (namespaced %v): admission.MetaValid says valid, the library says %v", where, namespaced, errs)
		case !got && len(errs) == 0 && meta.GenerateName == "" && meta.Generation == 0 &&
			len(meta.OwnerReferences) == 0 && len(meta.Finalizers) == 0 && len(meta.ManagedFields) == 0:
			t.Errorf("%s (namespaced %v): admission.MetaValid declines %+v, which the library accepts", where, namespaced, meta)
		}
	}
}

// TestMetaValidMatchesLibrary checks admission.MetaValid against the library's
// ValidateObjectMeta on the metadata of every corpus object and of its
// mutants (a tenth with -short), and on names, labels and annotations at
// and across each rule's edge.
func TestMetaValidMatchesLibrary(t *testing.T) {
	objs := corpusWithMutants(t)
	read := 0
	for _, o := range objs {
		checkPlainMetaValid(t, o.where, o.obj["metadata"])
		meta, found, err := admission.ObjectMeta(o.obj)
		if err != nil || !found {
			continue
		}
		read++
		checkMetaValid(t, o.where, meta)
	}
	t.Logf("%d of %d objects' metadata checked", read, len(objs))

	for _, s := range metaEdgeStrings() {
		for _, raw := range []map[string]any{
			{"name": s, "namespace": "ns"},
			{"name": "n", "namespace": s},
			{"name": "n", "generateName": s},
			{"name": "n", "labels": map[string]any{s: "v"}},
			{"name": "n", "labels": map[string]any{"k": s}},
			{"name": "n", "annotations": map[string]any{s: "v"}},
			{"name": "n", "annotations": map[string]any{"k": s}},
		} {
			checkPlainMetaValid(t, "raw "+s, raw)
		}
		checkMetaValid(t, "name "+s, &metav1.ObjectMeta{Name: s, Namespace: "ns"})
		checkMetaValid(t, "namespace "+s, &metav1.ObjectMeta{Name: "n", Namespace: s})
		checkMetaValid(t, "generateName "+s, &metav1.ObjectMeta{Name: "n", GenerateName: s, Namespace: "ns"})
		checkMetaValid(t, "label key "+s, &metav1.ObjectMeta{Name: "n", Namespace: "ns", Labels: map[string]string{s: "v"}})
		checkMetaValid(t, "label value "+s, &metav1.ObjectMeta{Name: "n", Namespace: "ns", Labels: map[string]string{"k": s}})
		checkMetaValid(t, "annotation key "+s, &metav1.ObjectMeta{Name: "n", Namespace: "ns", Annotations: map[string]string{s: "v"}})
	}
	big := strings.Repeat("v", metavalidation.TotalAnnotationSizeLimitB)
	for _, meta := range []*metav1.ObjectMeta{
		{Name: "n", Namespace: "ns", Annotations: map[string]string{"k": big[:len(big)-1]}},
		{Name: "n", Namespace: "ns", Annotations: map[string]string{"k": big}},
		{Name: "n", Namespace: "ns", Annotations: map[string]string{"a": big[:len(big)/2], "b": big[:len(big)/2-2]}},
		{Name: "n", Namespace: "ns", Annotations: map[string]string{"a": big[:len(big)/2], "b": big[:len(big)/2]}},
		{Name: "n", Namespace: "ns", Generation: -1},
		{Name: "n", Namespace: "ns", Generation: 1},
		{Name: "n", Namespace: "ns", Finalizers: []string{"example.com/f"}},
		{Name: "n", Namespace: "ns", OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "K", Name: "o", UID: "u"}}},
		{Name: "n", Namespace: "ns", ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "m"}}},
		{Name: "n", Namespace: "ns", Labels: map[string]string{}, Annotations: map[string]string{}},
		{},
	} {
		checkMetaValid(t, "edge", meta)
	}
}

// metaEdgeStrings are strings at and across the edges of the DNS name,
// qualified name and label value rules.
func metaEdgeStrings() []string {
	out := []string{
		"", "a", "A", "0", "-", ".", "_", "/", "a/", "/a", "a/b", "a/b/c", "a.b/c", "A.b/c", "a..b/c", "a-.b/c",
		"a-b", "-a", "a-", "a.b", ".a", "a.", "a..b", "a_b", "_a", "a_", "a.-b", "a-.b", "ab\n", "\na",
		"Kab", "example.com/Name", "EXAMPLE.COM/name", "example.com/na_me", "example.com/-a", "é", "aé", "a\x00b",
		"a b", "a*b", "*.a", "A-B_C.D", "kubernetes.io/ingress.class", "app.kubernetes.io/name",
		"\u212a", "\u212aey", "x/\u212a", "\u0130", "a\u0130b",
	}
	for _, n := range []int{62, 63, 64, 252, 253, 254} {
		out = append(out, strings.Repeat("a", n), strings.Repeat("a", n-2)+".a", strings.Repeat("A", n))
		out = append(out, strings.Repeat("p", n)+"/name", "prefix/"+strings.Repeat("n", n))
	}
	return out
}

// FuzzMetaValid: beyond the test's inputs.
func FuzzMetaValid(f *testing.F) {
	for _, s := range []string{"a", "a/b", "A.b/c", "-a", "\u212a", strings.Repeat("a", 64)} {
		f.Add(s, "ns", s, "v", s, "v")
	}
	f.Fuzz(func(t *testing.T, name, namespace, labelKey, labelValue, annotationKey, annotationValue string) {
		checkMetaValid(t, "fuzz", &metav1.ObjectMeta{
			Name: name, Namespace: namespace,
			Labels:      map[string]string{labelKey: labelValue},
			Annotations: map[string]string{annotationKey: annotationValue},
		})
		checkPlainMetaValid(t, "fuzz", map[string]any{
			"name": name, "namespace": namespace,
			"labels":      map[string]any{labelKey: labelValue},
			"annotations": map[string]any{annotationKey: annotationValue},
		})
	})
}

// checkPlainMetaValid fails t when plainMetaValid, which reads raw
// metadata in place, answers otherwise than admission.MetaValid of what
// plainObjectMeta reads from it (false when it reads nothing).
func checkPlainMetaValid(t *testing.T, where string, raw any) {
	t.Helper()
	for _, namespaced := range []bool{true, false} {
		want := false
		if meta, ok := admission.PlainObjectMeta(raw); ok {
			want = admission.MetaValid(meta, namespaced)
		}
		if got := admission.PlainMetaValid(raw, namespaced); got != want {
			t.Errorf("%s (namespaced %v): admission.PlainMetaValid(%v) = %v, want %v", where, namespaced, raw, got, want)
		}
	}
}
