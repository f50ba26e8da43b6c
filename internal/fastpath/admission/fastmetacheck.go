package admission

import (
	"strings"
	"unicode/utf8"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MetaValid reports whether the API server's metadata validation of a
// custom resource,
//
//	metavalidation.ValidateObjectMeta(meta, namespaced, metavalidation.NameIsDNSSubdomain, path)
//
// finds nothing wrong, by byte loops instead of the library's regular
// expressions (most of its cost). It answers true only when it can prove
// that: a name and namespace that are DNS names, labels and annotation
// keys that are qualified names, label values that are valid, annotations
// within their size limit, and nothing else set that the library checks
// (generateName, generation, owner references, finalizers, managed
// fields). false means "ask the library", which then gives the errors
// (TestMetaValidMatchesLibrary, FuzzMetaValid).
func MetaValid(meta *metav1.ObjectMeta, namespaced bool) bool {
	if meta.GenerateName != "" || meta.Generation != 0 || len(meta.OwnerReferences) != 0 ||
		len(meta.Finalizers) != 0 || len(meta.ManagedFields) != 0 {
		return false
	}
	if !isDNSSubdomain(meta.Name) {
		return false
	}
	if namespaced != (meta.Namespace != "") {
		// A namespaced object needs one, a cluster-scoped one may not
		// have one.
		return false
	}
	if namespaced && !isDNSLabel(meta.Namespace) {
		return false
	}
	for k, v := range meta.Labels {
		if !isLabelKey(k) || !isLabelValue(v) {
			return false
		}
	}
	size := 0
	for k, v := range meta.Annotations {
		// Annotation keys are label keys in any case: the library lowers
		// them before it checks.
		if !isLabelKey(strings.ToLower(k)) {
			return false
		}
		size += len(k) + len(v)
	}
	return size <= metavalidation.TotalAnnotationSizeLimitB
}

// PlainMetaValid is MetaValid of the metadata PlainObjectMeta reads from
// v, read in place: false when PlainObjectMeta would not read it or
// MetaValid would not prove it valid. It spares building the labels and
// annotations maps of every object.
func PlainMetaValid(v any, namespaced bool) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	hasNamespace := false
	for k, v := range m {
		switch k {
		case "name":
			if s, ok := v.(string); !ok || !isDNSSubdomain(s) {
				return false
			}
		case "namespace":
			s, ok := v.(string)
			if !ok || !utf8.ValidString(s) {
				return false
			}
			hasNamespace = s != ""
			if hasNamespace && !isDNSLabel(s) {
				return false
			}
		case "generateName":
			if s, ok := v.(string); !ok || s != "" {
				return false
			}
		case "labels":
			if !plainLabelsValid(v) {
				return false
			}
		case "annotations":
			if !plainAnnotationsValid(v) {
				return false
			}
		default:
			return false
		}
	}
	_, hasName := m["name"]
	return hasName && namespaced == hasNamespace
}

// plainLabelsValid: labels whose keys and values are valid (and so ASCII).
func plainLabelsValid(v any) bool {
	labels, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range labels {
		s, ok := v.(string)
		if !ok || !isLabelKey(k) || !isLabelValue(s) {
			return false
		}
	}
	return true
}

// plainAnnotationsValid: annotations of valid UTF-8, with valid keys,
// within the size limit.
func plainAnnotationsValid(v any) bool {
	annotations, ok := v.(map[string]any)
	if !ok {
		return false
	}
	size := 0
	for k, v := range annotations {
		s, ok := v.(string)
		if !ok || !utf8.ValidString(k) || !utf8.ValidString(s) || !isLabelKey(strings.ToLower(k)) {
			return false
		}
		size += len(k) + len(s)
	}
	return size <= metavalidation.TotalAnnotationSizeLimitB
}

// The library's length limits of the names MetaValid checks.
const (
	dnsSubdomainMaxLength = 253 // validation.DNS1123SubdomainMaxLength
	dnsLabelMaxLength     = 63  // validation.DNS1123LabelMaxLength
	labelNameMaxLength    = 63  // the name part of a label key, and a label value
)

// isDNSSubdomain is validation.IsDNS1123Subdomain finding nothing.
func isDNSSubdomain(s string) bool {
	return len(s) <= dnsSubdomainMaxLength && dnsSubdomain(s)
}

// isDNSLabel is validation.IsDNS1123Label finding nothing.
func isDNSLabel(s string) bool {
	return len(s) <= dnsLabelMaxLength && dnsLabel(s, lowerAlnum)
}

// isLabelKey is validation.IsQualifiedName finding nothing: a name, with
// an optional DNS subdomain and '/' before it.
func isLabelKey(s string) bool {
	prefix, name, hasPrefix := strings.Cut(s, "/")
	if !hasPrefix {
		name = prefix
	} else if !isDNSSubdomain(prefix) || strings.Contains(name, "/") {
		return false
	}
	return name != "" && isLabelValue(name)
}

// isLabelValue is validation.IsValidLabelValue finding nothing: empty,
// or alphanumeric at both ends and alphanumeric, '-', '_' or '.' between,
// at most 63 bytes.
func isLabelValue(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > labelNameMaxLength || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}
