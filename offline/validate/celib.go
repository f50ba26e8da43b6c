package validate

import (
	"context"
	"sync"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// libCEL is the library's CEL validator of one CRD version, compiled on
// its first call. With CEL in front it is needed only for objects
// CEL cannot pass (those with a failing rule, mostly), and compiling
// it costs as much as compiling CEL (about 0.3 s of CPU for
// HTTPRoute), so a run whose objects all pass never pays for it.
type libCEL struct {
	structural *structuralschema.Structural
	once       sync.Once
	validator  *cel.Validator
}

// newLibCEL returns nil when s has no x-kubernetes-validations, as
// cel.NewValidator does.
func newLibCEL(s *structuralschema.Structural) *libCEL {
	if !admission.HasRules(s) {
		return nil
	}
	return &libCEL{structural: s}
}

// Validate is cel.Validator.Validate, on the validator compiled as the
// API server compiles it: cel.NewValidator(s, true, PerCallLimit).
func (l *libCEL) Validate(ctx context.Context, fldPath *field.Path, s *structuralschema.Structural, obj, oldObj any, costBudget int64) (field.ErrorList, int64) {
	l.once.Do(func() { l.validator = cel.NewValidator(l.structural, true, celconfig.PerCallLimit) })
	return l.validator.Validate(ctx, fldPath, s, obj, oldObj, costBudget)
}
