package load

import (
	"fmt"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	fieldpath "k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
)

// Limits bound the resources a load may take, so that hostile or broken
// input (an endless stream, an alias bomb) ends in an input error at a
// known place instead of exhausting memory. A zero field takes its
// default. docs/loading.md lists each limit and why its default is what
// it is.
type Limits struct {
	// FileBytes bounds each input: a file, a directory entry or stdin.
	FileBytes int64
	// TotalBytes bounds all inputs together.
	TotalBytes int64
	// ExpandedBytes bounds the JSON a YAML document that uses aliases
	// expands to.
	ExpandedBytes int64
	// TotalExpandedBytes bounds what all the documents that use aliases
	// expand to together.
	TotalExpandedBytes int64
}

// Defaults of Limits. The largest configurations gwsim is measured with
// (docs/performance.md: 100k routes, 138 MB over 1,001 files) fit well
// inside them; one input file that large is a dump rather than a config,
// and a user who has one raises the limit with its flag.
const (
	DefaultFileBytes     = 64 << 20
	DefaultTotalBytes    = 256 << 20
	DefaultExpandedBytes = 32 << 20
	// DefaultTotalExpandedBytes lets all documents together expand as
	// much as one may: real configurations use aliases for a few shared
	// blocks and come nowhere near it, and what a document expands to is
	// held several times over while it is decoded (docs/loading.md).
	DefaultTotalExpandedBytes = 32 << 20
)

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	if l.FileBytes <= 0 {
		l.FileBytes = DefaultFileBytes
	}
	if l.TotalBytes <= 0 {
		l.TotalBytes = DefaultTotalBytes
	}
	if l.ExpandedBytes <= 0 {
		l.ExpandedBytes = DefaultExpandedBytes
	}
	if l.TotalExpandedBytes <= 0 {
		l.TotalExpandedBytes = DefaultTotalExpandedBytes
	}
	return l
}

// maxJSONDepth is how deeply the API server's JSON decoder (encoding/json
// and sigs.k8s.io/json) lets objects and lists nest; the YAML parser
// stops at the same depth.
const maxJSONDepth = 10000

// limitError is an input error for a limit the input exceeds.
func limitError(src diag.Source, ref diag.ObjectRef, path, msg string) diag.Finding {
	return diag.Finding{Severity: diag.Error, Object: ref, Source: src, Field: path, Reason: diag.ReasonLimitExceeded, Message: msg}
}

// objectLimits checks the limits the API server puts on every object's
// metadata before any validation of its own: the length of the name and
// namespace and the total size of the annotations. An object over one is
// refused by the API server, so it is an input error here too. The
// format of names is the validation stage's business; only sizes, which
// bound what gwsim holds, are checked here.
func objectLimits(obj client.Object, gk schema.GroupKind, clusterScoped bool) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	meta := func() *fieldpath.Path { return fieldpath.NewPath("metadata") } // only for errors
	maxName := validation.DNS1123SubdomainMaxLength
	switch gk {
	case schema.GroupKind{Kind: "Namespace"}, schema.GroupKind{Kind: "Service"}:
		// Namespace names are DNS labels, Service names DNS-1035 labels.
		maxName = validation.DNS1123LabelMaxLength
	}
	if n := len(obj.GetName()); n > maxName {
		errs = append(errs, fieldpath.TooLong(meta().Child("name"), "", maxName))
	}
	if n := len(obj.GetNamespace()); !clusterScoped && n > validation.DNS1123LabelMaxLength {
		errs = append(errs, fieldpath.TooLong(meta().Child("namespace"), "", validation.DNS1123LabelMaxLength))
	}
	if err := apivalidation.ValidateAnnotationsSize(obj.GetAnnotations()); err != nil {
		errs = append(errs, fieldpath.TooLong(meta().Child("annotations"), "", apivalidation.TotalAnnotationSizeLimitB))
	}
	return errs
}

// objectLimitFindings turns objectLimits into error findings.
func objectLimitFindings(errs fieldpath.ErrorList, src diag.Source, ref diag.ObjectRef) []diag.Finding {
	var out []diag.Finding
	for _, e := range errs {
		out = append(out, limitError(src, ref, e.Field, fmt.Sprintf("%s; the API server refuses the object", e.ErrorBody())))
	}
	return out
}
