package validate

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// Validator admits objects against one channel's CRDs. Build it with New;
// it compiles each kind and version the first time an object of it comes.
type Validator struct {
	channel  Channel
	compiles *compileCache
	// library sends every object through apiextensions-apiserver alone,
	// without the fast walk, CEL and metadata fast checks or fast
	// defaulting (gwsim's fast-path escape hatch, package
	// internal/fastpath).
	library bool
}

// compileCache holds the compiled kinds and versions of one channel.
type compileCache struct {
	mu      sync.Mutex
	entries map[schema.GroupVersionKind]*entry
	// compiling counts the compilations under way (of entries and of
	// their admission.CEL), so that Compiling answers "no" at once when there
	// is none, which is nearly always.
	compiling atomic.Int32
}

// entry is one kind and version, compiled once.
type entry struct {
	once  sync.Once
	state compileState
	c     *compiled // nil when the channel does not serve the version
	err   error
}

// compileState says where a compilation done once stands, for Compiling.
// It is only a hint to schedulers: the sync.Once beside it is what makes
// the result safe to read.
type compileState struct{ v atomic.Int32 }

const (
	stateNew int32 = iota
	stateCompiling
	stateDone
)

// run runs compile, with the state and the cache's count (when there is
// a cache) telling others that it is under way.
func (s *compileState) run(cache *compileCache, compile func()) {
	s.v.Store(stateCompiling)
	if cache != nil {
		cache.compiling.Add(1)
		defer cache.compiling.Add(-1)
	}
	defer s.v.Store(stateDone)
	compile()
}

// caches are the process's compiled CRDs, one cache per channel. They are
// the one package-level state here, and only a memo: what they hold is a
// pure function of the embedded CRDs, never changed once built, and
// compiling HTTPRoute alone takes about 0.4 s of CPU (mostly its CEL
// rules), which every Load in a process would otherwise pay again.
var caches = map[Channel]*compileCache{
	Standard:     {entries: map[schema.GroupVersionKind]*entry{}},
	Experimental: {entries: map[schema.GroupVersionKind]*entry{}},
}

// New returns a Validator for channel (Standard or Experimental; anything
// else panics, since ParseChannel has checked user input).
func New(channel Channel) *Validator {
	c, ok := caches[channel]
	if !ok {
		panic(fmt.Sprintf("bug: unknown channel %q", channel))
	}
	return &Validator{channel: channel, compiles: c}
}

// Library is v with every fast path off: objects are pruned, defaulted and
// validated by apiextensions-apiserver alone, the reference the fast paths
// are tested against.
func (v *Validator) Library() *Validator {
	l := *v
	l.library = true
	return &l
}

// Channel is the channel v checks against.
func (v *Validator) Channel() Channel { return v.channel }

// NotServedError says that the channel's CRDs do not serve an object's
// kind at its apiVersion: the API server would answer "no matches for
// kind".
type NotServedError struct {
	GVK     schema.GroupVersionKind
	Channel Channel
}

func (e *NotServedError) Error() string {
	return fmt.Sprintf("the %s channel CRDs do not serve kind %s in version %s", e.Channel, e.GVK.Kind, e.GVK.GroupVersion())
}

// Result is what admitting one object gives.
type Result struct {
	// Errors are the API server's reasons to reject the object, in the
	// library's order; empty when it would store it.
	Errors field.ErrorList
	// Pruned are the paths of fields the schema does not have, which the
	// API server drops (sorted).
	Pruned []string
	// Metadata are the errors of the API server's metadata checks when
	// they are asked for apart (AdmitApart): not among Errors, and not
	// stopping the CEL rules.
	Metadata field.ErrorList
}

// Admit prunes, defaults and validates obj (decoded JSON, numbers as int64
// or float64) in place, as the API server does on create. namespace is the
// namespace the object is created in (ignored for cluster-scoped kinds).
// The error is for kinds or versions the channel does not serve
// (*NotServedError), or a bug in the embedded CRDs.
func (v *Validator) Admit(gvk schema.GroupVersionKind, obj map[string]any) (Result, error) {
	c, err := v.compiled(gvk)
	if err != nil {
		return Result{}, err
	}
	return c.admitWith(obj, !v.library, true), nil
}

// AdmitApart is Admit with the metadata checks (name syntax, labels,
// annotations, owner references) reported apart in Result.Metadata, for a
// reader with no API server in front of it that checks objects against
// their schemas only (gwsim's --admission none).
func (v *Validator) AdmitApart(gvk schema.GroupVersionKind, obj map[string]any) (Result, error) {
	c, err := v.compiled(gvk)
	if err != nil {
		return Result{}, err
	}
	res := c.admitWith(obj, !v.library, false)
	res.Metadata = c.validateMeta(obj, !v.library)
	return res, nil
}

// Default applies gvk's structural defaults to obj in place, without
// pruning or validation, for --validate=false: the objects still look as
// a cluster would store them. Kinds and versions the channel does not serve
// are left alone. It does what the library's structuraldefaulting.Default
// does, visiting only the parts of the schema that hold defaults
// (fastdefault.go).
func (v *Validator) Default(gvk schema.GroupVersionKind, obj map[string]any) {
	c, err := v.compiled(gvk)
	switch {
	case err != nil:
	case v.library:
		structuraldefaulting.Default(obj, c.structural)
	default:
		admission.ApplyDefaults(obj, c.defaults)
	}
}

// HasField reports whether gvk's schema in the channel has the field at
// path (as pruning reports paths: `spec.rules[0].retry`). The loader asks
// the experimental channel about what the standard one pruned, to tell an
// experimental field from a misspelt one.
func (v *Validator) HasField(gvk schema.GroupVersionKind, path string) bool {
	c, err := v.compiled(gvk)
	if err != nil {
		return false
	}
	s := c.structural
	for _, seg := range PathSegments(path) {
		switch {
		case s == nil:
			return false
		case s.Type == "array":
			s = s.Items
		case s.XPreserveUnknownFields:
			return true
		default:
			p, ok := s.Properties[seg]
			if !ok {
				if s.AdditionalProperties == nil || s.AdditionalProperties.Structural == nil {
					return false
				}
				s = s.AdditionalProperties.Structural
				continue
			}
			s = &p
		}
	}
	return s != nil
}

func (v *Validator) compiled(gvk schema.GroupVersionKind) (*compiled, error) {
	if !Handles(gvk.GroupKind()) {
		return nil, &NotServedError{GVK: gvk, Channel: v.channel}
	}
	cache := v.compiles
	cache.mu.Lock()
	e, ok := cache.entries[gvk]
	if !ok {
		e = &entry{}
		cache.entries[gvk] = e
	}
	cache.mu.Unlock()
	e.once.Do(func() {
		e.state.run(cache, func() {
			crd, ok, err := readCRD(v.channel, gvk.GroupKind())
			if err != nil || !ok {
				e.err = err
				return
			}
			e.c, _, e.err = compileVersion(crd, gvk.Version)
			if e.c != nil {
				e.c.cache = cache
			}
		})
	})
	if e.err != nil {
		return nil, e.err
	}
	if e.c == nil {
		return nil, &NotServedError{GVK: gvk, Channel: v.channel}
	}
	return e.c, nil
}

// MayBeCompiling reports whether any kind of v's channel is being
// compiled now: when it is false, Compiling is false for every kind, and
// the loader need not look at a document's kind to know it.
func (v *Validator) MayBeCompiling() bool { return v.compiles.compiling.Load() > 0 }

// Compiling reports whether some goroutine is compiling what admitting
// an object of gvk needs (its schema, or the CEL checker admission.CEL), so that
// Admit or Default called now would wait for it. It is a hint for
// scheduling, stale as soon as it returns: the loader's workers take other
// documents first rather than leave a core idle while another worker
// compiles (HTTPRoute takes about 0.2 s of CPU).
func (v *Validator) Compiling(gvk schema.GroupVersionKind) bool {
	cache := v.compiles
	cache.mu.Lock()
	e := cache.entries[gvk]
	cache.mu.Unlock()
	if e == nil {
		return false
	}
	switch e.state.v.Load() {
	case stateCompiling:
		return true
	case stateDone:
		// The store of stateDone follows the write of e.c.
		return e.c != nil && e.c.fastState.v.Load() == stateCompiling
	}
	return false
}

// admit runs the API server's create path on obj: prune, default,
// validate. Status is set aside while this runs, since create drops it
// (every Gateway API kind has a status subresource), and put back after,
// so that gwsim's callers see the input's status unchanged.
//
// The fast walk (fastwalk.go) does the pruning, defaulting and schema
// checks of an object it can prove valid; any other object goes through
// the library, which then gives the errors. Either way the result is the
// library's (TestFastAdmitMatchesLibrary).
func (c *compiled) admit(obj map[string]any) Result {
	return c.admitWith(obj, true, true)
}

// admitLibrary is admit through the library alone: the reference the fast
// walk is tested and benchmarked against.
func (c *compiled) admitLibrary(obj map[string]any) Result {
	return c.admitWith(obj, false, true)
}

// admitWith admits obj, the fast way when fast is set, with the metadata
// checks when meta is.
func (c *compiled) admitWith(obj map[string]any, fast, meta bool) Result {
	status, hasStatus := obj["status"]
	delete(obj, "status")
	defer func() {
		if hasStatus {
			obj["status"] = status
		}
	}()
	if fast {
		if pruned, _, ok := admission.Walk(c.walk, obj); ok {
			return Result{Pruned: pruned, Errors: c.validate(obj, true, meta)}
		}
	}
	var res Result
	res.Pruned = structuralpruning.PruneWithOptions(obj, c.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, c.structural)
	structuraldefaulting.Default(obj, c.structural)
	res.Errors = c.validate(obj, false, meta)
	return res
}

// validate is the API server's create validation of a custom resource:
// metadata, schema, embedded resources, list types, and the CEL rules when
// nothing before blocks them. fast says that the fast walk admitted obj:
// it has proved that the schema, embedded-resource and list-type checks
// pass (the walk declines embedded resources), so their result, none, is
// known without running them, and metadata is read the fast way. meta
// false leaves the metadata checks out.
func (c *compiled) validate(obj map[string]any, fast, meta bool) field.ErrorList {
	var errs field.ErrorList
	if meta {
		errs = append(errs, c.validateMeta(obj, fast)...)
	}
	if !fast {
		errs = append(errs, apiservervalidation.ValidateCustomResource(nil, obj, c.schemaValidator)...)
		errs = append(errs, schemaobjectmeta.Validate(context.TODO(), nil, obj, c.structural, false)...)
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, c.structural, obj)...)
	}
	if c.cel == nil {
		return errs
	}
	if blocked := blocksCEL(errs); blocked != nil {
		return append(errs, blocked)
	}
	// admission.CEL says yes only when the library's validator would find no
	// error (celfast.go); otherwise the library runs and its errors are
	// the ones reported.
	// The library path (fast false) stays the plain library: it is the
	// reference of the differential tests and the benchmarks' baseline.
	if fast && len(errs) == 0 && c.celCheck().Passes(obj) {
		return errs
	}
	celErrs, _ := c.cel.Validate(context.TODO(), nil, c.structural, obj, nil, celconfig.RuntimeCELCostBudget)
	return append(errs, celErrs...)
}

// validateMeta checks metadata as the API server does for every custom
// resource: DNS-subdomain names, label and annotation syntax. The fast
// way skips the library's checks when admission.MetaValid proves they pass, on the
// metadata as it is when it holds what manifests hold (plainMetaValid).
func (c *compiled) validateMeta(obj map[string]any, fast bool) field.ErrorList {
	if fast && admission.PlainMetaValid(obj["metadata"], c.namespaced) {
		return nil
	}
	read := schemaobjectmeta.GetObjectMeta
	if fast {
		read = func(obj map[string]any, _ bool) (*metav1.ObjectMeta, bool, error) { return admission.ObjectMeta(obj) }
	}
	meta, found, err := read(obj, false)
	if fast && err == nil && found && admission.MetaValid(meta, c.namespaced) {
		return nil
	}
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("metadata"), nil, err.Error())}
	}
	if !found {
		// The loader never sends an object without metadata; the
		// differential test's mutants do.
		meta = &metav1.ObjectMeta{}
	}
	return metavalidation.ValidateObjectMeta(meta, c.namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
}

// blocksCEL returns the API server's note when an error type that stops
// CEL evaluation is among errs (a missing required field, a wrong type, an
// unsupported enum value, something too long or too many): the rules may
// assume what the schema guarantees, so they are not run.
func blocksCEL(errs field.ErrorList) *field.Error {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return nil
}
