package load

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kfield "k8s.io/apimachinery/pkg/util/validation/field"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	kjson "sigs.k8s.io/json"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/internal/fastpath/jsonin"
	"github.com/gwsim/gwsim/offline/validate"
)

// admission is the loader's validation stage: between reading a Gateway
// API object's header and decoding it into its Go type, the object goes
// through what kube-apiserver does on create (offline/validate): pruning,
// defaulting and validation against the CRDs of the chosen channel. It is
// shared by the decoding workers and not changed after newAdmission.
type admission struct {
	channel *validate.Validator
	// experimental tells a field of the experimental channel from a
	// misspelt one, when the chosen channel is standard; nil otherwise.
	experimental *validate.Validator
	// validate is false for --validate=false: defaults are still applied,
	// so that the rest of gwsim sees objects as a cluster stores them, but
	// nothing is pruned or rejected.
	validate bool
	// fields says whether a pruned field refuses the object (strict) or
	// is a warning.
	fields FieldValidation
	// standalone is --admission none: no API server reads the objects, so
	// its metadata checks do not refuse them (they are warnings), and the
	// CRDs are the experimental channel's, which Envoy Gateway's file
	// loader validates against (docs/implementations.md).
	standalone bool
}

// Admission says what stands in front of the controller (--admission).
type Admission string

// The admissions: kube-apiserver (the default), or none, as in Envoy
// Gateway's standalone mode, which reads files with no API server.
const (
	AdmissionAPIServer Admission = "apiserver"
	AdmissionNone      Admission = "none"
)

// ParseAdmission checks an --admission value; "" is AdmissionAPIServer.
func ParseAdmission(s string) (Admission, error) {
	switch a := Admission(s); a {
	case "":
		return AdmissionAPIServer, nil
	case AdmissionAPIServer, AdmissionNone:
		return a, nil
	}
	return "", fmt.Errorf("unknown admission %q: want %q or %q", s, AdmissionAPIServer, AdmissionNone)
}

func newAdmission(channel validate.Channel, skip bool, fields FieldValidation, adm Admission, fast fastpath.Mode) *admission {
	if channel == "" {
		channel = validate.Standard
	}
	if adm == AdmissionNone {
		channel = validate.Experimental
	}
	validator := validate.New
	if !fast.Fast(fastpath.Admission) {
		validator = func(c validate.Channel) *validate.Validator { return validate.New(c).Library() }
	}
	a := &admission{channel: validator(channel), validate: !skip, fields: fields, standalone: adm == AdmissionNone}
	if channel == validate.Standard {
		a.experimental = validator(validate.Experimental)
	}
	return a
}

// defaults is the CRD set that defaults objects under --validate=false.
// Nothing is pruned or rejected then, so an object may hold fields of the
// experimental channel, or be of a version only it serves, with the
// standard one chosen: the experimental CRDs default those too, and every
// field the standard ones default to the same value, so that translate
// never meets a field the CRDs default left unset.
func (a *admission) defaults() *validate.Validator {
	if a.experimental != nil {
		return a.experimental
	}
	return a.channel
}

// origin is where a JSON value being decoded sits: its document, and for
// an item of a List, the path of the item in it (`items[2].`); and the
// scratch space of the worker decoding it (nil in some tests).
type origin struct {
	doc    document
	prefix string
	ws     *workspace
	// converted says that the value is yamlin's output (see readHeader).
	converted bool
}

// admit runs one Gateway API object through the API server's create path
// and returns the object to decode, pruned and defaulted, as decoded JSON
// (nil when js is not a JSON object after all: the typed decoder then
// says why). ok is false when the API server would reject the object; out
// then holds the reasons, as error findings at the line of each offending
// field.
func (a *admission) admit(js []byte, gvk schema.GroupVersionKind, ref diag.ObjectRef, src diag.Source, at origin, out *decoded) (map[string]any, bool) {
	objectMap := jsonin.ObjectMap
	if at.ws != nil {
		objectMap = at.ws.maps.ObjectMap
	}
	obj, ok := objectMap(js)
	if !ok {
		if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &obj); err != nil {
			return nil, true
		}
	}
	ns := setNamespace(obj, ref.Namespace)
	if !a.validate {
		d := a.defaults()
		if !d.Serves(gvk) && gvk.Group == gwv1.GroupName {
			// A version no CRD has any more (GRPCRoute v1alpha2), which
			// nothing rejects here: its Go type is v1's, which toV1
			// turns it into, so v1's defaults are the ones it gets.
			gvk.Version = gwv1.GroupVersion.Version
		}
		d.Default(gvk, obj)
		ns.restore()
		return obj, true
	}
	admit := a.channel.Admit
	if a.standalone {
		admit = a.channel.AdmitApart
	}
	res, err := admit(gvk, obj)
	var notServed *validate.NotServedError
	switch {
	case errors.As(err, &notServed):
		out.findings = append(out.findings, diag.Finding{
			Severity: diag.Error, Object: ref, Source: at.fieldSource(src, "apiVersion"), Field: "apiVersion", Reason: diag.ReasonNotServed,
			Message: notServed.Error() + "; the API server would answer \"no matches for kind\" (see --channel), so gwsim leaves the object out",
		})
		return nil, false
	case err != nil:
		panic(fmt.Sprintf("bug: admitting %s: %v", ref, err))
	}
	if len(res.Errors) > 0 {
		// A value of the wrong type is a reason like any other: the API
		// server answers it with the same 422 for this object alone.
		for _, e := range res.Errors {
			if len(res.Errors) > 1 && strings.HasPrefix(e.Detail, celSkippedDetail) {
				// The API server's note that CEL rules were skipped
				// for the errors beside it: a second error finding for
				// the same object would say nothing more.
				continue
			}
			out.findings = append(out.findings, rejection(e, ref, src, at))
		}
		return nil, false
	}
	// Pruned fields matter only for an object that is stored: a rejected
	// one's reasons say more (a value of the wrong type has its keys
	// pruned too).
	if a.fields == FieldsStrict && len(res.Pruned) > 0 {
		for _, p := range res.Pruned {
			experimental := a.experimental != nil && a.experimental.HasField(gvk, p)
			out.findings = append(out.findings, strictUnknown(ref, at.fieldSource(src, p), p, experimental))
		}
		return nil, false
	}
	out.findings = append(out.findings, a.prunedFindings(gvk, res.Pruned, ref, src, at)...)
	for _, e := range res.Metadata {
		out.findings = append(out.findings, metadataUnchecked(e, ref, src, at))
	}
	ns.restore()
	return obj, true
}

// checksCore says whether core objects get kube-apiserver's value checks
// (validate.Core): with validation on and an API server in front. Under
// --admission none no API server reads them; under --validate=false
// nothing is refused.
func (a *admission) checksCore() bool {
	return a != nil && a.validate && !a.standalone
}

// celSkippedDetail begins the apiextensions validator's note that it did
// not run the CEL rules of an object whose schema errors it reports.
const celSkippedDetail = "some validation rules were not checked because the object was invalid"

// rejection is one of the API server's reasons to reject an object, with
// the library's field path and message verbatim.
func rejection(e *kfield.Error, ref diag.ObjectRef, src diag.Source, at origin) diag.Finding {
	path := e.Field
	if path == "<nil>" {
		path = ""
	}
	return diag.Finding{
		Severity: diag.Error, Object: ref, Source: at.fieldSource(src, path), Field: path, Reason: diag.ReasonAdmissionRejected,
		Message: e.ErrorBody() + " (the API server would reject the object; gwsim leaves it out)",
	}
}

// metadataUnchecked is a warning for metadata the API server would
// reject, kept under --admission none.
func metadataUnchecked(e *kfield.Error, ref diag.ObjectRef, src diag.Source, at origin) diag.Finding {
	return diag.Finding{
		Severity: diag.Warning, Object: ref, Source: at.fieldSource(src, e.Field), Field: e.Field, Reason: diag.ReasonMetadataUnchecked,
		Message: e.ErrorBody() + " (no API server checks metadata under --admission none (standalone); gwsim keeps the object)",
	}
}

// prunedFindings are warnings for the fields the schema does not have. Under
// the standard channel, a field the experimental schema has is named as
// such: the cluster drops it, and so does gwsim.
func (a *admission) prunedFindings(gvk schema.GroupVersionKind, pruned []string, ref diag.ObjectRef, src diag.Source, at origin) []diag.Finding {
	if len(pruned) == 0 {
		return nil
	}
	var fs []diag.Finding
	for _, p := range pruned {
		f := diag.Finding{
			Severity: diag.Warning, Object: ref, Source: at.fieldSource(src, p), Field: p, Reason: diag.ReasonUnknownField,
			Message: "unknown field; ignored, as the API server would drop it",
		}
		if a.experimental != nil && a.experimental.HasField(gvk, p) {
			f.Reason = diag.ReasonPrunedField
			f.Message = "field of the experimental channel; the standard channel CRDs do not have it, so the API server would prune it and gwsim ignores it (see --channel)"
		}
		fs = append(fs, f)
	}
	return fs
}

// fieldSource is the source of the field at path inside the value: its own
// line when the document shows it, otherwise src (the document's start).
func (at origin) fieldSource(src diag.Source, path string) diag.Source {
	if line, ok := fieldLine(at.doc, at.prefix+path); ok {
		src.Line = line
	}
	if file, line, ok := patchField(at.doc, at.prefix+path); ok {
		src.File, src.Line = file, line
	}
	return src
}

// setNamespace puts the namespace the object is created in into its
// metadata, as kubectl sends it: the API server validates the object with
// it. A cluster-scoped object (ns == "") has it removed until restore puts
// it back, so that the decoder can still warn about it.
func setNamespace(obj map[string]any, ns string) removedNamespace {
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		return removedNamespace{}
	}
	if ns != "" {
		meta["namespace"] = ns
		return removedNamespace{}
	}
	old, had := meta["namespace"]
	delete(meta, "namespace")
	return removedNamespace{meta: meta, old: old, had: had}
}

// removedNamespace is the namespace setNamespace took out of a
// cluster-scoped object's metadata (a value, not a closure: one fewer
// allocation per object).
type removedNamespace struct {
	meta map[string]any
	old  any
	had  bool
}

// restore puts the namespace back.
func (r removedNamespace) restore() {
	if r.had {
		r.meta["namespace"] = r.old
	}
}

func marshalAdmitted(obj map[string]any, gvk schema.GroupVersionKind) []byte {
	js, err := json.Marshal(obj)
	if err != nil {
		panic(fmt.Sprintf("bug: marshalling an admitted %s: %v", gvk.Kind, err))
	}
	return js
}
