package load

import (
	"errors"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/internal/fastpath/jsonin"
	"github.com/gwsim/gwsim/internal/fastpath/yamlin"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/offline/validate"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate"
)

// decoder turns documents into typed objects. The decoding workers share
// one: it is not changed after newDecoder returns.
type decoder struct {
	scheme    *runtime.Scheme
	catalog   catalog
	namespace string
	limits    Limits
	// admission admits Gateway API objects as the API server would, before
	// they are decoded into their Go types.
	admission *admission
	// probe, when set, watches for objects only the experimental channel
	// serves (see loadAuto).
	probe *channelProbe
	// typed decodes admitted objects into their Go types without encoding
	// them to JSON again; nil decodes them the library's way only (the
	// reference of the differential tests).
	typed *jsonin.Decoder
	// fast says which fast paths run (YAML to JSON, the header scan).
	fast fastpath.Mode
}

func newDecoder(namespace string, limits Limits, adm *admission, fast fastpath.Mode) *decoder {
	s := scheme.New()
	if namespace == "" {
		namespace = "default"
	}
	d := &decoder{scheme: s, catalog: newCatalog(s), namespace: namespace, limits: limits.withDefaults(), admission: adm, fast: fast}
	if fast.Fast(fastpath.JSONIn) {
		d.typed = &jsonin.Decoder{}
	}
	return d
}

// decoded is what one document yields.
type decoded struct {
	objects  []loaded
	findings []diag.Finding
	errors   []diag.Finding
	ignored  []schema.GroupKind
	// rejected are the identities of the objects left out because the
	// API server would refuse them (see Result.Rejected).
	rejected []translate.OtherObject
	// skipped are the documents of directory entries that are not
	// Kubernetes objects (see notAnObject).
	skipped []skippedDoc
	// others are the identities of the ignored objects (see otherObjects).
	others []translate.OtherObject
	// policies are the ignored objects that attach to Gateway API objects
	// or Services through targetRefs (see policyAttachment).
	policies []translate.PolicyAttachment
}

// loaded is a decoded object, converted to v1, with its reference (after
// namespace defaulting) and source.
type loaded struct {
	obj client.Object
	ref diag.ObjectRef
	src diag.Source
	// patches are the documents of a built object's strategic merge
	// patches (see document.patches).
	patches []diag.Source
}

// patchSources are the documents' sources.
func patchSources(patches []document) []diag.Source {
	if len(patches) == 0 {
		return nil
	}
	out := make([]diag.Source, len(patches))
	for i, p := range patches {
		out[i] = diag.Source{File: p.file, Line: p.line}
	}
	return out
}

// document decodes one document; a List yields several objects. ws is
// the calling worker's scratch space.
func (d *decoder) document(doc document, ws *workspace) decoded {
	var out decoded
	src := diag.Source{File: doc.file, Line: doc.line}
	js, repeated, converted, ok := d.toJSON(doc, &ws.conv, src, &out)
	if !ok {
		return out
	}
	if repeated != nil {
		// The finding names the document's object, so that it sorts and
		// reads like every other finding about that object.
		if h, err := d.readHeader(js, false); err == nil && !h.hasItems {
			repeated.Object = d.ref(schema.FromAPIVersionAndKind(h.APIVersion, h.Kind).GroupKind(), h)
		}
		if d.strictFields() {
			// The API server refuses the request: nothing in it is stored.
			out.findings = append(out.findings, strictDuplicate(repeated.Object, repeated.Source, "", repeated.Message))
			return out
		}
		repeated.Message += " (the last value is used)"
		out.findings = append(out.findings, *repeated)
	}
	d.value(js, src, &out, origin{doc: doc, ws: ws, converted: converted}, 0)
	return out
}

// toJSON converts a YAML document. The fast converter goes first: it
// answers only when its JSON is exactly YAMLToJSONStrict's (see package
// yamlin), which is most of the time. Otherwise strict conversion is
// tried because it costs nothing extra when it succeeds and is the only way
// to see a repeated key, which plain conversion silently resolves to the
// last value; that warning is returned for document to attach to the
// object. The slow path expands aliases: the reader has measured their
// expansion against the limits (aliasBudget) before. converted says the
// fast converter wrote js (see readHeader).
func (d *decoder) toJSON(doc document, conv *yamlin.Converter, src diag.Source, out *decoded) (js []byte, repeated *diag.Finding, converted, ok bool) {
	if doc.json {
		return doc.data, nil, false, true
	}
	if d.fast.Fast(fastpath.YAMLIn) {
		if js, ok := conv.Convert(doc.data); ok {
			return js, nil, true, true
		}
	}
	js, strictErr := yaml.YAMLToJSONStrict(doc.data)
	if strictErr == nil {
		return js, nil, false, true
	}
	js, err := yaml.YAMLToJSON(doc.data)
	if err != nil {
		line, msg := yamlMessage(err.Error(), doc.base)
		if line != 0 && !doc.noLines {
			src.Line = line
		}
		if strings.Contains(msg, "exceeded max depth") {
			out.errors = append(out.errors, limitError(src, diag.ObjectRef{}, "", msg))
			return nil, nil, false, false
		}
		if doc.listed && templated(doc.data) {
			out.skipped = append(out.skipped, skippedDoc{src: diag.Source{File: doc.file, Line: doc.line}, why: "a template"})
			return nil, nil, false, false
		}
		// The splitter cut the file at its `---` lines before the parser
		// saw it, so the syntax error is confined to this document: it is
		// lost, the documents around it are not.
		out.findings = append(out.findings, parseError(src, diag.ObjectRef{}, msg+"; gwsim leaves this document out and reads the rest"))
		return nil, nil, false, false
	}
	line, msg := yamlMessage(strictErr.Error(), doc.base)
	if line != 0 && d.strictFields() && !doc.noLines {
		// An error points at the repeated key itself; the warning stays
		// at the document, where it has always been.
		src.Line = line
	}
	return js, &diag.Finding{
		Severity: diag.Warning, Source: src, Reason: diag.ReasonParseError,
		Message: msg,
	}, false, true
}

// maxListDepth bounds Lists inside Lists, which kubectl accepts but nobody
// writes on purpose.
const maxListDepth = 4

// value decodes one JSON value: an object, or a List whose items are each
// decoded in turn (with the List's source).
func (d *decoder) value(js []byte, src diag.Source, out *decoded, at origin, depth int) {
	h, err := d.readHeader(js, at.converted)
	encrypted := false
	if depth == 0 && err == nil && sopsEncrypted(js) {
		if opened, ok := openSOPS(js); ok {
			js, encrypted = opened, true
			at.converted = false
			h, err = d.readHeader(js, false)
		}
	}
	var depthErr *depthError
	switch {
	case errors.As(err, &depthErr):
		out.errors = append(out.errors, limitError(src, diag.ObjectRef{}, "", err.Error()))
		return
	case depth == 0 && at.doc.listed && notAnObject(js, h, err):
		out.skipped = append(out.skipped, skippedDoc{src: src, why: whyNotAnObject(js, h, err)})
		return
	case depth == 0 && at.doc.built && err == nil && sopsEncrypted(js):
		// Flux decrypts such a Secret while it builds; gwsim has no key.
		out.skipped = append(out.skipped, skippedDoc{src: src, why: whyNotAnObject(js, h, err)})
		return
	case errors.Is(err, errNotMapping) && depth == 0 && !at.doc.listed:
		// A file named on the command line is meant to hold manifests:
		// a list or a scalar there is an input error, as kubectl apply
		// says.
		out.errors = append(out.errors, parseError(src, diag.ObjectRef{}, err.Error()))
		return
	case err != nil:
		out.findings = append(out.findings, parseError(src, diag.ObjectRef{}, err.Error()+leftOut))
		return
	case h.null:
		return
	}
	gv, gvErr := schema.ParseGroupVersion(h.APIVersion)
	gvk := gv.WithKind(h.Kind)
	ref := d.ref(gvk.GroupKind(), h)
	switch {
	case h.APIVersion == "" || h.Kind == "":
		out.findings = append(out.findings, missingField(src, ref, h.missing()))
	case gvErr != nil:
		out.findings = append(out.findings, parseError(src, ref, gvErr.Error()+leftOut))
	case h.Kind == "List" || h.hasItems && strings.HasSuffix(h.Kind, "List"):
		d.list(gvk, h.items, src, out, at, depth)
	default:
		if encrypted {
			out.findings = append(out.findings, encryptedFinding(ref, src))
		}
		d.object(js, gvk, h, ref, src, out, at)
	}
}

func (d *decoder) list(gvk schema.GroupVersionKind, items [][]byte, src diag.Source, out *decoded, at origin, depth int) {
	if depth >= maxListDepth {
		out.errors = append(out.errors, parseError(src, diag.ObjectRef{}, fmt.Sprintf("Lists nested more than %d deep", maxListDepth)))
		return
	}
	// A typed list (HTTPRouteList) as the API server returns it has items
	// without apiVersion and kind; a v1 List's items must carry their own.
	var itemGVK schema.GroupVersionKind
	if gvk.Kind != "List" {
		itemGVK = gvk.GroupVersion().WithKind(strings.TrimSuffix(gvk.Kind, "List"))
	}
	for i, item := range items {
		// An item of a converted document is still yamlin's output,
		// and so is withTypeMeta's re-encoding of it.
		itemAt := origin{doc: at.doc, prefix: fmt.Sprintf("%sitems[%d].", at.prefix, i), ws: at.ws, converted: at.converted}
		d.value(withTypeMeta(item, itemGVK), src, out, itemAt, depth+1)
	}
}

// object decodes a single object of a kind the scheme knows, converts it to
// v1 and defaults its namespace. A Gateway API object goes through
// admission first and is decoded as the API server would store it, or
// left out when the API server would reject it.
func (d *decoder) object(js []byte, gvk schema.GroupVersionKind, h header, ref diag.ObjectRef, src diag.Source, out *decoded, at origin) {
	obj := d.newObject(gvk)
	if obj == nil && ownKind(gvk) {
		return
	}
	if obj == nil {
		if f, ok := d.catalog.noMatch(gvk, ref, src, at); ok {
			out.findings = append(out.findings, f)
			return
		}
		out.ignored = append(out.ignored, gvk.GroupKind())
		out.others = append(out.others, otherObjects(gvk.GroupKind(), h, ref)...)
		if p, ok := policyAttachment(js, gvk.GroupKind(), ref, src); ok {
			out.policies = append(out.policies, p)
		}
		return
	}
	if h.Name == "" && !h.badMetadata {
		out.findings = append(out.findings, missingField(src, ref, "metadata.name"))
		return
	}
	var admitted map[string]any
	if d.probe != nil && validate.Handles(gvk.GroupKind()) {
		d.probe.check(gvk, ref, src)
	}
	if d.admission != nil && validate.Handles(gvk.GroupKind()) && !h.badMetadata {
		var ok bool
		if admitted, ok = d.admission.admit(js, gvk, ref, src, at, out); !ok {
			out.rejected = append(out.rejected, rejectedObject(gvk, ref))
			return
		}
	}
	obj, ok := d.decodeTyped(js, admitted, gvk, obj, ref, src, out, at)
	if admitted != nil && at.ws != nil {
		// Decoded: nothing refers to the admitted form any more.
		at.ws.maps.Recycle(admitted)
	}
	if !ok {
		out.rejected = append(out.rejected, rejectedObject(gvk, ref))
		return
	}
	setTypeMeta(obj, gvk)
	obj, lost := toV1(obj)
	for _, path := range lost {
		out.findings = append(out.findings, diag.Finding{
			Severity: diag.Warning, Object: ref, Source: src, Field: path, Reason: diag.ReasonUnknownField,
			Message: fmt.Sprintf("lost when converting %s from %s to v1", gvk.Kind, gvk.GroupVersion()),
		})
	}
	if clusterScoped(gvk.GroupKind()) && obj.GetNamespace() != "" {
		out.findings = append(out.findings, diag.Finding{
			Severity: diag.Warning, Object: ref, Source: src, Field: "metadata.namespace", Reason: diag.ReasonUnknownField,
			Message: fmt.Sprintf("%s is cluster-scoped; namespace %q ignored", gvk.Kind, obj.GetNamespace()),
		})
	}
	obj.SetNamespace(ref.Namespace)
	if errs := objectLimits(obj, gvk.GroupKind(), clusterScoped(gvk.GroupKind())); len(errs) > 0 {
		out.findings = append(out.findings, objectLimitFindings(errs, src, ref)...)
		out.rejected = append(out.rejected, rejectedObject(gvk, ref))
		return
	}
	mergeStringData(obj)
	if d.admission.checksCore() {
		if errs := validate.Core(obj); len(errs) > 0 {
			for _, e := range errs {
				out.findings = append(out.findings, rejection(e, ref, src, at))
			}
			out.rejected = append(out.rejected, rejectedObject(gvk, ref))
			return
		}
	}
	out.objects = append(out.objects, loaded{obj: obj, ref: ref, src: src, patches: patchSources(at.doc.patches)})
	if gvk.Group == profile.EnvoyGatewayGroup {
		// Under a profile that does not simulate it, a vendor object is an
		// extension object like any other (see countUnsimulated).
		out.others = append(out.others, otherObjects(gvk.GroupKind(), h, ref)...)
		// A policy is listed with its targets as any implementation's
		// policy is (explain, check), whatever the profile.
		if p, ok := policyAttachment(js, gvk.GroupKind(), ref, src); ok {
			out.policies = append(out.policies, p)
		}
	}
}

// decodeTyped decodes an object into obj, new from the scheme for gvk: from
// admitted, the admitted object, when there is one, else from js. This is
// what apimachinery's strict JSON serializer does for an object whose kind
// is known and registered, without its second scan for apiVersion and
// kind: value has already read them and checked that both are present and
// parse. An admitted object is decoded as its JSON encoding would be.
// Package jsonin decodes what it can prove it decodes exactly as
// sigs.k8s.io/json.UnmarshalStrict (most objects); the library decodes
// the rest, and gives the warnings and errors. ok is false when the
// object does not decode (out then holds the error).
func (d *decoder) decodeTyped(js []byte, admitted map[string]any, gvk schema.GroupVersionKind, obj client.Object, ref diag.ObjectRef, src diag.Source, out *decoded, at origin) (client.Object, bool) {
	switch {
	case d.typed == nil:
	case admitted != nil && d.typed.FromMap(admitted, obj):
		return obj, true
	case admitted == nil && d.typed.FromJSON(js, obj):
		return obj, true
	default:
		obj = d.newObject(gvk)
	}
	if admitted != nil {
		js = marshalAdmitted(admitted, gvk)
	}
	strictErrs, err := kjson.UnmarshalStrict(js, obj)
	if err != nil {
		out.findings = append(out.findings, decodeError(js, err, src, ref, at))
		return nil, false
	}
	// The serializer would wrap strictErrs in a StrictDecodingError, whose
	// Errors() returns them unchanged.
	for _, e := range strictErrs {
		out.findings = append(out.findings, d.strictFinding(src, ref, e.Error(), at))
	}
	if len(strictErrs) > 0 && d.strictFields() {
		return nil, false
	}
	return obj, true
}

// rejectedObject is the identity of an object the API server would refuse.
func rejectedObject(gvk schema.GroupVersionKind, ref diag.ObjectRef) translate.OtherObject {
	return translate.OtherObject{Group: gvk.Group, Kind: gvk.Kind, Namespace: ref.Namespace, Name: ref.Name}
}

// setTypeMeta sets obj's apiVersion and kind to gvk's, as
// SetGroupVersionKind does, unless decoding has set them so already (a
// document that writes them the usual way), which spares building the
// apiVersion string of every object.
func setTypeMeta(obj client.Object, gvk schema.GroupVersionKind) {
	kind := obj.GetObjectKind()
	if tm, ok := kind.(*metav1.TypeMeta); ok && tm.Kind == gvk.Kind && isAPIVersion(tm.APIVersion, gvk.GroupVersion()) {
		return
	}
	kind.SetGroupVersionKind(gvk)
}

// isAPIVersion reports whether s is gv.String().
func isAPIVersion(s string, gv schema.GroupVersion) bool {
	if gv.Group == "" {
		return s == gv.Version
	}
	g, v, ok := strings.Cut(s, "/")
	return ok && g == gv.Group && v == gv.Version
}

// otherObjects records an object of a kind gwsim does not decode, so that
// a parametersRef to it resolves (translate.Input.OtherObjects). The
// loader cannot tell whether such a kind is namespaced, so an object
// written without a namespace is recorded both ways: cluster-scoped, and
// in the default namespace, as ref has it. An object without a name
// cannot be referenced and is not recorded.
func otherObjects(gk schema.GroupKind, h header, ref diag.ObjectRef) []translate.OtherObject {
	if h.Name == "" {
		return nil
	}
	o := translate.OtherObject{Group: gk.Group, Kind: gk.Kind, Namespace: ref.Namespace, Name: h.Name}
	if h.Namespace != "" {
		return []translate.OtherObject{o}
	}
	clusterScoped := o
	clusterScoped.Namespace = ""
	return []translate.OtherObject{clusterScoped, o}
}

// newObject returns an empty object of gvk, or nil when gwsim does not load
// that kind (outside the scheme, a core kind gwsim does not read, or a
// registered type that is not an object, such as ListOptions).
func (d *decoder) newObject(gvk schema.GroupVersionKind) client.Object {
	if !loadedKind(d.scheme, gvk) {
		return nil
	}
	ro, err := d.scheme.New(gvk)
	if err != nil {
		return nil
	}
	obj, _ := ro.(client.Object)
	return obj
}

// strictFields says whether an unknown or duplicate field refuses the
// object: strict field validation, with admission on (under
// --validate=false such fields are warnings).
func (d *decoder) strictFields() bool {
	return d.admission != nil && d.admission.validate && d.admission.fields == FieldsStrict
}

// ref names the object as gwsim will know it: cluster-scoped kinds have no
// namespace, namespaced ones get the default namespace when they name none.
func (d *decoder) ref(gk schema.GroupKind, h header) diag.ObjectRef {
	ns := h.Namespace
	if clusterScoped(gk) {
		ns = ""
	} else if ns == "" {
		ns = d.namespace
	}
	return diag.ObjectRef{Kind: gk.Kind, Namespace: ns, Name: h.Name}
}

// leftOut ends the message of an object the API server would refuse.
const leftOut = " (the API server would reject the object; gwsim leaves it out)"

func parseError(src diag.Source, ref diag.ObjectRef, msg string) diag.Finding {
	return diag.Finding{Severity: diag.Error, Object: ref, Source: src, Reason: diag.ReasonParseError, Message: msg}
}

// missingField is the error finding for an object the API server refuses
// for want of its apiVersion, kind or name. The object is left out and
// the run goes on: the document was read, only this object is refused.
func missingField(src diag.Source, ref diag.ObjectRef, what string) diag.Finding {
	return diag.Finding{
		Severity: diag.Error, Object: ref, Source: src, Reason: diag.ReasonMissingField,
		Message: "missing " + what + "; every object needs apiVersion, kind and metadata.name",
	}
}

// strictFinding turns one strict-decoding complaint into a warning: the
// object still loads, as the API server would accept it with the field
// dropped; or, under strict field validation, into the error that refuses
// the object.
func (d *decoder) strictFinding(src diag.Source, ref diag.ObjectRef, msg string, at origin) diag.Finding {
	if d.strictFields() {
		if path, ok := quotedAfter(msg, "unknown field "); ok {
			return strictUnknown(ref, at.fieldSource(src, path), path, false)
		}
		path, _ := quotedAfter(msg, "duplicate field ")
		return strictDuplicate(ref, at.fieldSource(src, path), path, msg)
	}
	f := diag.Finding{Severity: diag.Warning, Object: ref, Source: src, Reason: diag.ReasonParseError, Message: msg}
	if path, ok := quotedAfter(msg, "unknown field "); ok {
		f.Field, f.Reason = path, diag.ReasonUnknownField
		f.Message = "unknown field; ignored, as the API server would drop it"
	} else if path, ok := quotedAfter(msg, "duplicate field "); ok {
		f.Field = path
		f.Message = "field given twice; the last value is used"
	}
	return f
}

// quotedAfter returns the double-quoted text following prefix in msg.
func quotedAfter(msg, prefix string) (string, bool) {
	_, rest, ok := strings.Cut(msg, prefix+`"`)
	if !ok {
		return "", false
	}
	path, _, ok := strings.Cut(rest, `"`)
	return path, ok
}
